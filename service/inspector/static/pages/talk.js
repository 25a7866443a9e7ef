// Conversations as transcripts, and relationships with their 0–10 sentiment and history.

import { agent as agentPath, api } from "../api.js";
import { badge, clockTime, gameTime, h, mount, table } from "../dom.js";
import { describe } from "../shell.js";

function transcript(conversation, self) {
  const other = conversation.initiator_id === self ? conversation.partner : conversation.initiator;
  return h("article", { class: "transcript card", dataset: { conversation: conversation.id } },
    h("h3", {}, `With ${other}`, conversation.topic ? h("span", { class: "muted" }, ` · ${conversation.topic}`) : null),
    h("p", { class: "muted small" }, `${gameTime(conversation.started_at)} · `,
      conversation.status === "open" ? badge("open", "now") : `ended ${clockTime(conversation.ended_at)}`,
      ` · ${conversation.lines.length} lines · started by ${conversation.initiator}`),
    h("ol", { class: "lines" }, conversation.lines.map((line) => h("li", {},
      h("span", { class: "when muted small" }, clockTime(line.spoken_at)),
      h("strong", {}, `${line.speaker}: `), line.text))));
}

async function paged(section, context, path, draw, empty) {
  const list = h("div", { class: "results" });
  const items = [];
  let cursor;
  async function more() {
    try {
      const page = await api(agentPath(context.worldId, context.agentId, path),
        { params: { limit: 20, cursor }, signal: context.signal });
      cursor = page.next_cursor;
      items.push(...page.items);
      mount(list, items.length ? draw(items) : h("p", {}, empty),
        cursor ? h("button", { type: "button", "on:click": more }, "Load more") : null);
    } catch (failure) {
      mount(list, h("p", { class: "error", role: "alert" }, describe(failure)));
    }
  }
  mount(section, section.firstChild, list);
  await more();
}

export function renderConversations(section, context) {
  return paged(section, context, "/conversations",
    (items) => items.map((c) => transcript(c, context.agentId)),
    `${context.agent.name} has not talked with anyone yet.`);
}

function sentiment(value) {
  const mood = value >= 7 ? "warm" : value <= 3 ? "cold" : "neutral";
  return h("td", { class: `sentiment ${mood}` },
    h("meter", { min: 0, max: 10, low: 3.5, high: 6.5, optimum: 10, value, "aria-label": `sentiment ${value} of 10` }),
    ` ${value}/10`);
}

function history(view) {
  if (!view.history.length) return h("td", { class: "muted" }, "—");
  return h("td", {}, h("details", {}, h("summary", {}, `${view.history.length} earlier`),
    h("ol", {}, view.history.map((earlier) => h("li", {},
      `${earlier.sentiment}/10 — ${earlier.summary} `, h("span", { class: "muted small" }, `(until ${gameTime(earlier.until)})`))))));
}

export function renderRelationships(section, context) {
  const name = context.agent.name;
  return paged(section, context, "/relationships",
    (items) => table(`How ${name} sees the others, by name`, ["Other", "Sentiment", `${name}'s view`, "Since", "Earlier"],
      items.map((view) => h("tr", { dataset: { other: view.other_name } },
        h("th", { scope: "row" }, view.other_agent_id
          ? h("a", { href: `#/worlds/${context.worldId}/agents/${view.other_agent_id}` }, view.other_name) : view.other_name),
        sentiment(view.sentiment),
        h("td", {}, view.summary || h("span", { class: "muted" }, "—")),
        h("td", { class: "nowrap" }, gameTime(view.updated_at)),
        history(view)))),
    `${name} has formed no view of anyone yet.`);
}
