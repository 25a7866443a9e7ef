// The town view: the game clock, the map tree with the agents now in each place (emoji,
// action, line), kept live from the world's event stream.

import { api, all, world as worldPath } from "../api.js";
import { badge, clockTime, gameTime, h, isoGameTime, loading, mount, number, parseGameTime } from "../dom.js";
import { follow } from "../sse.js";
import { describe, remember, say } from "../shell.js";

const LOGGED = 30;

/** "a :b:  c" → "a: b: c", the one spelling the map stores. */
export function canonical(path) {
  return (path || "").split(":").map((part) => part.trim()).filter(Boolean).join(": ");
}

function index(map) {
  const byPath = new Map();
  const walk = (node) => {
    byPath.set(canonical(node.path), node);
    node.children.forEach(walk);
  };
  map.children.forEach(walk);
  return byPath;
}

/** The deepest place of the map an agent's place path lies in (null: not on the map). */
function locate(byPath, place) {
  const parts = canonical(place).split(": ").filter(Boolean);
  for (let n = parts.length; n > 0; n -= 1) {
    const node = byPath.get(parts.slice(0, n).join(": "));
    if (node) return node;
  }
  return null;
}

class Town {
  constructor(worldId, signal) {
    this.worldId = worldId;
    this.signal = signal;
    this.agents = new Map();
    this.log = [];
    this.status = "connecting";
    this.lastEvent = 0;
  }

  async load() {
    const [world, map] = await Promise.all([
      api(worldPath(this.worldId), { signal: this.signal }),
      api(worldPath(this.worldId, "/map"), { signal: this.signal }),
    ]);
    this.world = world;
    this.setMap(map);
    await this.loadAgents();
    remember(world.id, world.name);
  }

  setMap(map) {
    this.map = map;
    this.byPath = index(map);
  }

  async loadAgents() {
    const first = await api(worldPath(this.worldId, "/actions"), { params: { limit: 500 }, signal: this.signal });
    const rest = first.next_cursor
      ? await all(worldPath(this.worldId, "/actions"), { cursor: first.next_cursor }) : [];
    this.agents = new Map([...first.items, ...rest].map((a) => [a.agent_id, a]));
    this.lastEvent = Math.max(this.lastEvent, first.last_event_id);
    this.world.clock.now = first.now;
    return first.last_event_id;
  }

  /** Apply one event; true when the map or an agent changed. */
  apply(event) {
    const data = event.data || {};
    this.lastEvent = event.id;
    this.log.unshift(event);
    this.log.length = Math.min(this.log.length, LOGGED);
    const agent = this.agents.get(data.agent_id);
    switch (event.type) {
      case "agents_moved":
        for (const move of data.moves || []) {
          const moved = this.agents.get(move.agent_id);
          if (moved) moved.place = move.place;
        }
        return true;
      case "action_changed":
        if (agent) agent.action = data.plan_id === null ? null : { ...data };
        return Boolean(agent);
      case "utterance":
        for (const id of [data.agent_id, data.listener_id]) {
          const who = this.agents.get(id);
          if (who) who.utterance = { conversation_id: data.conversation_id, speaker: data.name, text: data.text };
        }
        return true;
      case "conversation_ended":
        for (const id of data.agent_ids || []) {
          const who = this.agents.get(id);
          if (who?.utterance?.conversation_id === data.conversation_id) who.utterance = null;
        }
        return true;
      case "object_state_changed": {
        const node = this.byPath.get(canonical(data.place));
        if (node) node.state = data.state;
        return Boolean(node);
      }
      default:
        return false;
    }
  }

  /** Events whose change is easier read back than replayed. */
  needsReload(event) {
    if (["agent_created", "agent_deleted", "map_updated"].includes(event.type)) return event.type;
    if (event.type === "agent_updated") {
      const changed = event.data?.changed || [];
      return changed.includes("place") || changed.includes("name") ? "agent_updated" : false;
    }
    return false;
  }
}

function eventSummary(event) {
  const d = event.data || {};
  switch (event.type) {
    case "agents_moved": return (d.moves || []).map((m) => `${m.name} → ${m.place}`).join("; ");
    case "action_changed": return `${d.name}: ${d.emoji || ""} ${d.description || "no plan"}`;
    case "utterance": return `${d.name}: “${d.text}”`;
    case "reaction": return `${d.name} ${d.react ? `reacts: ${d.what}` : "carries on"}`;
    case "reflection": return d.description;
    case "object_state_changed": return `${d.place} is ${d.state}`;
    case "inner_voice": return `${d.name} hears: ${d.text}`;
    default: return d.name || "";
  }
}

function chip(worldId, agent) {
  const action = agent.action;
  return h("li", { class: "chip", dataset: { agent: agent.agent_id } },
    h("a", { href: `#/worlds/${worldId}/agents/${agent.agent_id}` },
      h("span", { class: "emoji", "aria-hidden": "true" }, action?.emoji || "·"),
      h("span", { class: "name" }, agent.name)),
    h("span", { class: "doing" }, action ? action.description : "no plan for now"),
    speech(agent));
}

/** The line an agent is saying, or whom it is listening to (the latest line is the other's). */
function speech(agent) {
  const line = agent.utterance;
  if (!line) return null;
  if (line.speaker !== agent.name) return h("span", { class: "listening muted small" }, `listening to ${line.speaker}`);
  return h("q", { class: "line" }, line.text);
}

/** A place worth a line of its own: someone is there, or something in it is not idle. */
function lively(node, here) {
  return (here.get(node) || []).length > 0 || (node.state && node.state !== "idle")
    || node.children.some((child) => lively(child, here));
}

function placeTree(worldId, node, here) {
  const agents = here.get(node) || [];
  const shown = node.children.filter((child) => lively(child, here));
  const quiet = node.children.filter((child) => !shown.includes(child));
  return h("li", { dataset: { place: canonical(node.path) } },
    h("span", { class: "place" }, node.name),
    node.state && node.state !== "idle" ? [" ", badge(node.state, "state")] : null,
    agents.length ? h("ul", { class: "chips" }, agents.map((a) => chip(worldId, a))) : null,
    shown.length ? h("ul", { class: "tree" }, shown.map((c) => placeTree(worldId, c, here))) : null,
    quiet.length ? h("p", { class: "objects muted small" }, quiet.map((c) => c.name).join(" · ")) : null);
}

function occupancy(town) {
  const here = new Map();
  const elsewhere = [];
  const sorted = [...town.agents.values()].sort((a, b) => a.name.localeCompare(b.name));
  for (const agent of sorted) {
    const node = agent.place ? locate(town.byPath, agent.place) : null;
    if (!node) elsewhere.push(agent);
    else here.set(node, [...(here.get(node) || []), agent]);
  }
  return { here, elsewhere };
}

function count(area, here) {
  let n = (here.get(area) || []).length;
  for (const child of area.children) n += count(child, here);
  return n;
}

function drawTown(town, target) {
  const { here, elsewhere } = occupancy(town);
  const worldId = town.worldId;
  const focused = document.activeElement?.closest?.("[data-agent]")?.dataset.agent;
  const cards = town.map.children.map((area, i) => {
    const people = count(area, here);
    return h("section", { class: `area card${people ? "" : " empty"}`, dataset: { area: canonical(area.path) }, "aria-labelledby": `area-${i}` },
      h("h3", { id: `area-${i}` }, area.name, " ",
        h("span", { class: "muted small" }, people === 1 ? "1 agent" : `${people} agents`)),
      h("ul", { class: "tree root" }, placeTree(worldId, area, here)));
  });
  if (elsewhere.length) {
    cards.push(h("section", { class: "area card", dataset: { area: "" }, "aria-labelledby": "area-elsewhere" },
      h("h3", { id: "area-elsewhere" }, "Not on the map"),
      h("ul", { class: "chips" }, elsewhere.map((a) => [chip(worldId, a),
        a.place ? h("li", { class: "muted small" }, `(${a.name} is at “${a.place}”)`) : null]))));
  }
  mount(target, cards.length ? cards : h("p", {}, "No map and no agents yet."));
  if (focused) target.querySelector(`[data-agent="${focused}"] a`)?.focus();
}

function drawLog(town, target, statusEl) {
  statusEl.textContent = { live: "● live", reconnecting: "○ reconnecting…", refused: "× stream refused", connecting: "○ connecting…" }[town.status];
  statusEl.className = `live ${town.status}`;
  mount(target, town.log.length
    ? town.log.map((e) => h("li", {}, h("span", { class: "muted small" }, `#${e.id} `),
      h("strong", {}, e.type), " ", eventSummary(e)))
    : h("li", { class: "muted" }, `Waiting for events after #${town.lastEvent}…`));
}

function clockCard(town, redraw) {
  const clock = town.world.clock;
  const error = h("p", { class: "error", role: "alert" });
  const now = h("p", { class: "now", "aria-live": "off" }, gameTime(clock.now));
  const mode = clock.mode === "driven" ? "Driven by the game" : `Running at ${number(clock.rate)}× real time`;

  async function change(body, what) {
    error.textContent = "";
    try {
      town.world.clock = await api(worldPath(town.worldId, "/clock"), { method: "POST", body });
      await town.loadAgents();
      say(what);
      redraw();
    } catch (failure) {
      error.textContent = describe(failure);
    }
  }

  const minutes = h("input", { id: "advance-minutes", type: "number", min: 1, max: 1440, step: 1, value: 15, inputmode: "numeric" });
  const controls = [
    h("button", { type: "button", "on:click": () => change({ paused: !clock.paused }, clock.paused ? "Clock resumed" : "Clock paused") },
      clock.paused ? "Resume" : "Pause"),
  ];
  if (clock.mode === "driven") {
    controls.push(h("form", { class: "inline", "on:submit": (e) => {
      e.preventDefault();
      change({ advance_minutes: Number(minutes.value) }, `Clock advanced ${minutes.value} minutes`);
    } }, h("label", { for: "advance-minutes" }, "Minutes"), minutes, h("button", { type: "submit" }, "Advance")));
  }
  const card = h("section", { class: "card clock", "aria-labelledby": "clock-h" },
    h("h2", { id: "clock-h" }, "Game clock"), now,
    h("p", { class: "muted" }, mode, clock.paused ? [" · ", badge("paused", "warn")] : null),
    h("div", { class: "controls" }, controls), error);
  if (clock.mode === "running" && !clock.paused) {
    const fetched = Date.now();
    const timer = setInterval(() => {
      const at = new Date(parseGameTime(clock.now).getTime() + (Date.now() - fetched) * clock.rate);
      now.textContent = gameTime(isoGameTime(at));
    }, 1000);
    town.signal.addEventListener("abort", () => clearInterval(timer), { once: true });
    town.timers?.forEach(clearInterval);
    town.timers = [timer];
  }
  return card;
}

export async function renderWorld(main, { worldId, signal }) {
  mount(main, h("h1", { tabindex: -1 }, "Town"), loading());
  const town = new Town(worldId, signal);
  await town.load();
  const heading = h("h1", { tabindex: -1 }, town.world.name);
  const areas = h("div", { class: "areas", id: "town" });
  const log = h("ol", { class: "events", reversed: true });
  const liveStatus = h("p", { class: "live" });
  const clockSlot = h("div");
  const redraw = () => {
    mount(clockSlot, clockCard(town, redraw));
    drawTown(town, areas);
    drawLog(town, log, liveStatus);
  };
  mount(main, heading,
    h("p", { class: "muted" }, `Game time ${clockTime(town.world.clock.now)} · ${town.agents.size} agents · `,
      h("a", { href: `#/worlds/${worldId}/usage` }, "model usage")),
    h("div", { class: "town-layout" },
      h("section", { class: "town", "aria-labelledby": "town-h" }, h("h2", { id: "town-h" }, "Who is where"), areas),
      h("aside", { class: "side" }, clockSlot,
        h("section", { class: "card", "aria-labelledby": "events-h" },
          h("h2", { id: "events-h" }, "Live events"), liveStatus, log))));
  redraw();

  let pending = null;
  let reload = false;
  const schedule = () => {
    if (pending) return;
    pending = setTimeout(async () => {
      pending = null;
      try {
        if (reload) {
          reload = false;
          town.setMap(await api(worldPath(worldId, "/map"), { signal }));
          await town.loadAgents();
        }
        redraw();
      } catch (failure) {
        if (!signal.aborted) say(describe(failure));
      }
    }, 100);
  };
  follow(worldId, {
    after: town.lastEvent,
    signal,
    onStatus: (state) => { town.status = state; drawLog(town, log, liveStatus); },
    onEvent: (event) => {
      town.apply(event);
      if (town.needsReload(event)) reload = true;
      schedule();
    },
  });
}
