// The day's plan as a timeline: day items → hour chunks → 5–15 minute tasks. Superseded
// items stay visible, struck through and marked with what replaced them.

import { agent as agentPath, api } from "../api.js";
import { addMinutes, badge, clockTime, gameTime, h, mount, parseGameTime, s } from "../dom.js";
import { describe } from "../shell.js";

const DAY_MINUTES = 24 * 60;

function minuteOfDay(iso, day) {
  return (parseGameTime(iso) - parseGameTime(`${day}T00:00:00`)) / 60000;
}

/** A 24-hour strip of the day items, with the current moment marked. */
function strip(plan) {
  const items = plan.items;
  const nowMinute = minuteOfDay(plan.now, plan.day);
  const ticks = [0, 6, 12, 18, 24];
  return s("svg", { class: "day-strip", viewBox: "0 0 1440 46", role: "img",
    "aria-label": `The day at a glance: ${items.filter((i) => i.status !== "superseded").length} live items` },
  items.map((item) => {
    const start = Math.max(0, minuteOfDay(item.start, plan.day));
    const end = Math.min(DAY_MINUTES, start + item.duration_min);
    if (end <= start) return null;
    return s("rect", { x: start, y: item.status === "superseded" ? 22 : 4, width: end - start - 2,
      height: item.status === "superseded" ? 8 : 16, class: `seg status-${item.status}` },
    s("title", {}, `${clockTime(item.start)} ${item.description} (${item.status})`));
  }),
  ticks.map((hour) => s("text", { x: Math.min(hour * 60 + 4, 1400), y: 44, class: "tick" }, `${hour}:00`)),
  nowMinute >= 0 && nowMinute <= DAY_MINUTES
    ? s("line", { x1: nowMinute, x2: nowMinute, y1: 0, y2: 32, class: "now-line" }) : null);
}

function item(node, currentId, showSuperseded) {
  if (!showSuperseded && node.status === "superseded") return null;
  const end = addMinutes(node.start, node.duration_min);
  const superseded = node.status === "superseded";
  const text = superseded ? h("del", {}, node.description) : h("span", {}, node.description);
  return h("li", { class: `plan-item level-${node.level} status-${node.status}${node.id === currentId ? " current" : ""}`,
    dataset: { plan: node.id, level: node.level } },
  h("div", { class: "plan-row" },
    h("span", { class: "when" }, `${clockTime(node.start)}–${clockTime(end)}`),
    h("span", { class: "emoji", "aria-hidden": "true" }, node.emoji || ""),
    h("span", { class: "what" }, text,
      node.location ? h("span", { class: "muted small" }, ` · ${node.location}`) : null,
      node.object_state ? h("span", { class: "muted small" }, ` (${node.object_state})`) : null),
    h("span", { class: "badges" },
      node.id === currentId ? badge("now", "now") : null,
      node.stand_in ? badge("stand-in", "stand-in") : null,
      superseded ? badge(`superseded${node.superseded_by ? ` by #${node.superseded_by}` : ""}`, "superseded")
        : badge(node.status, `status-${node.status}`))),
  node.children.length
    ? h("ol", { class: `plan-level level-${node.children[0].level}`, "aria-label": `${node.level === "day" ? "Hour chunks" : "Tasks"} of ${node.description}` },
      node.children.map((child) => item(child, currentId, showSuperseded)))
    : null);
}

export async function renderPlan(section, context) {
  const body = h("div", { class: "plan" });
  let day = context.now.slice(0, 10);
  let showSuperseded = true;

  async function load() {
    try {
      const plan = await api(agentPath(context.worldId, context.agentId, "/plans"), { params: { day }, signal: context.signal });
      const currentId = plan.current_action?.id;
      const superseded = plan.items.filter((i) => i.status === "superseded").length;
      mount(body,
        h("p", { class: "muted" }, `${gameTime(`${plan.day}T00:00:00`).replace(", 00:00", "")} · now ${gameTime(plan.now)}`,
          superseded ? ` · ${superseded} superseded day item${superseded > 1 ? "s" : ""}` : ""),
        plan.items.length
          ? [strip(plan), h("ol", { class: "plan-level level-day timeline", "aria-label": "Day outline" },
            plan.items.map((node) => item(node, currentId, showSuperseded)))]
          : h("p", {}, "No plan for this day yet (the planning job makes one when the day starts)."));
    } catch (failure) {
      mount(body, h("p", { class: "error", role: "alert" }, describe(failure)));
    }
  }

  const dayInput = h("input", { id: "plan-day", type: "date", value: day });
  const shift = (days) => {
    const next = new Date(parseGameTime(`${day}T00:00:00`).getTime() + days * 86400000);
    day = next.toISOString().slice(0, 10);
    dayInput.value = day;
    load();
  };
  dayInput.addEventListener("change", () => { if (dayInput.value) { day = dayInput.value; load(); } });
  const toggle = h("input", { id: "show-superseded", type: "checkbox", checked: true });
  toggle.addEventListener("change", () => { showSuperseded = toggle.checked; load(); });
  mount(section, section.firstChild,
    h("div", { class: "controls" },
      h("button", { type: "button", "on:click": () => shift(-1) }, "← Previous day"),
      h("label", { for: "plan-day" }, "Day"), dayInput,
      h("button", { type: "button", "on:click": () => shift(1) }, "Next day →"),
      h("label", { class: "check" }, toggle, " Show superseded")),
    body);
  await load();
}
