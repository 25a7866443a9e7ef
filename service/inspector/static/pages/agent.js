// An agent: persona, `currently`, summary, current action and line, then one section at a
// time (memories, search, plan, conversations, relationships), each its own address.

import { agent as agentPath, api, world as worldPath } from "../api.js";
import { clockTime, gameTime, h, loading, mount } from "../dom.js";
import { remember } from "../shell.js";
import { renderMemories } from "./memories.js";
import { renderSearch } from "./search.js";
import { renderPlan } from "./plan.js";
import { renderConversations, renderRelationships } from "./talk.js";

export const AGENT_TABS = ["memories", "search", "plan", "conversations", "relationships"];
const TAB_NAMES = {
  memories: "Memories", search: "Search", plan: "Plan", conversations: "Conversations",
  relationships: "Relationships",
};
const SECTIONS = {
  memories: renderMemories, search: renderSearch, plan: renderPlan,
  conversations: renderConversations, relationships: renderRelationships,
};
const PERSONA = [
  ["innate", "Innate traits"], ["background", "Background"], ["lifestyle", "Lifestyle"],
  ["living_area", "Lives in"], ["daily_plan_requirement", "Daily plan requirement"],
  ["speaking_style", "Speaking style"],
];

function nowCard(agent, now) {
  const action = now.action;
  return h("section", { class: "card now-card", "aria-labelledby": "now-h" },
    h("h2", { id: "now-h" }, "Now"),
    h("p", { class: "action" },
      h("span", { class: "emoji big", "aria-hidden": "true" }, action?.emoji || "·"), " ",
      h("strong", { id: "current-action" }, action ? action.description : "No plan covers this moment")),
    action ? h("p", { class: "muted" }, `${clockTime(action.start)}–${clockTime(action.end)}`,
      action.location ? ` at ${action.location}` : "", action.object_state ? ` (${action.object_state})` : "") : null,
    h("p", {}, h("span", { class: "muted" }, "Place: "), agent.place || "unknown"),
    now.utterance
      ? h("blockquote", { class: "line" }, h("p", {}, `“${now.utterance.text}”`),
        h("footer", { class: "muted small" }, `${now.utterance.speaker}, ${gameTime(now.utterance.spoken_at)}`))
      : h("p", { class: "muted" }, "Not in a conversation."),
    h("p", { class: "muted small" }, `Game time ${gameTime(now.now)}`));
}

function personaCard(agent) {
  return h("section", { class: "card persona", "aria-labelledby": "persona-h" },
    h("h2", { id: "persona-h" }, "Persona"),
    h("p", { class: "currently" }, h("span", { class: "muted" }, "Currently: "), agent.currently || "—"),
    h("details", {}, h("summary", {}, "Traits, lifestyle and style"),
      h("dl", {}, PERSONA.filter(([field]) => agent[field]).map(([field, label]) =>
        [h("dt", {}, label), h("dd", {}, agent[field])]))),
    h("h3", {}, "Summary"),
    h("p", { class: "summary" }, agent.summary || "No summary yet (the summary job writes one)."),
    agent.summary_at ? h("p", { class: "muted small" }, `Summarised at ${gameTime(agent.summary_at)}`) : null);
}

export async function renderAgent(main, { worldId, agentId, tab, signal }) {
  mount(main, h("h1", { tabindex: -1 }, "Agent"), loading());
  const [world, agent, now] = await Promise.all([
    api(worldPath(worldId), { signal }),
    api(agentPath(worldId, agentId), { signal }),
    api(agentPath(worldId, agentId, "/action"), { signal }),
  ]);
  remember(worldId, world.name);
  remember(agentId, agent.name);
  const base = `#/worlds/${worldId}/agents/${agentId}`;
  const tabs = h("nav", { class: "tabs", "aria-label": `${agent.name}'s mind` },
    h("ul", {}, AGENT_TABS.map((name) => h("li", {},
      h("a", { href: `${base}/${name}`, "aria-current": name === tab ? "page" : null }, TAB_NAMES[name])))));
  const section = h("section", { class: "tab-panel", "aria-labelledby": "tab-h" },
    h("h2", { id: "tab-h" }, TAB_NAMES[tab]), loading());
  mount(main,
    h("h1", { tabindex: -1 }, agent.name, agent.age ? h("span", { class: "muted" }, `, ${agent.age}`) : null),
    h("div", { class: "agent-top" }, nowCard(agent, now), personaCard(agent)),
    tabs, section);
  const context = { worldId, agentId, agent, now: now.now, signal };
  await SECTIONS[tab](section, context);
}
