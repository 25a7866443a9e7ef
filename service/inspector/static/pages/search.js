// Retrieval explained: the paper's score for each result, with recency, importance and
// relevance raw and min-max normalised, and what each weighted term adds. Searches from the
// inspector never touch the memories (touch: false), so looking does not change the agent.

import { agent as agentPath, api } from "../api.js";
import { badge, gameTime, h, mount, number, s, table } from "../dom.js";
import { describe } from "../shell.js";

const PARTS = ["recency", "importance", "relevance"];

function contributionBar(result, weights) {
  const terms = PARTS.map((p) => weights[p] * result.components[p].normalized);
  const total = Math.max(PARTS.reduce((sum, p) => sum + Math.abs(weights[p]), 0), 1e-9);
  let x = 0;
  return s("svg", { class: "bar", viewBox: "0 0 100 10", preserveAspectRatio: "none", role: "img",
    "aria-label": PARTS.map((p, i) => `${p} ${number(terms[i], 2)}`).join(", ") },
  terms.map((term, i) => {
    const width = Math.max(0, (term / total) * 100);
    const rect = s("rect", { x, y: 0, width, height: 10, class: `part-${PARTS[i]}` });
    x += width;
    return rect;
  }));
}

function explanation(result, weights) {
  const terms = PARTS.map((p) => `${number(weights[p], 2)}×${number(result.components[p].normalized, 3)}`);
  return `${terms.join(" + ")} = ${number(result.score, 3)}`;
}

const RAW_DIGITS = { recency: 4, importance: 0, relevance: 4 };

function component(part, name) {
  return h("td", { class: "num" }, h("span", { class: "raw" }, number(part.raw, RAW_DIGITS[name])),
    h("span", { class: "muted" }, " → "), h("strong", {}, number(part.normalized, 3)));
}

function resultsTable(answer) {
  const rows = answer.results.map((result, i) => h("tr", { dataset: { memory: result.id } },
    h("td", { class: "num" }, i + 1),
    h("td", { class: "description" }, badge(result.kind, `kind-${result.kind}`), " ", result.description,
      h("div", { class: "muted small" }, gameTime(result.created_at))),
    PARTS.map((name) => component(result.components[name], name)),
    h("td", { class: "num score" }, h("strong", {}, number(result.score, 3)),
      contributionBar(result, answer.weights),
      h("div", { class: "muted small explain" }, explanation(result, answer.weights)))));
  return table("Results, best first: each component raw → normalised, and the score",
    ["#", "Memory", "Recency", "Importance", "Relevance", "Score"], rows, { class: "search-results" });
}

function legend(answer) {
  const w = answer.weights;
  return h("p", { class: "legend small" },
    `At ${gameTime(answer.at)}; weights α: recency ${number(w.recency, 2)}, importance ${number(w.importance, 2)}, relevance ${number(w.relevance, 2)}. `,
    "Recency is 0.995^hours since last access, importance 1–10, relevance the cosine with the query; ",
    "each is min-max normalised over the agent's memories. ",
    PARTS.map((p) => h("span", { class: `key part-${p}` }, p)), " ",
    h("span", { class: "muted" }, "(read-only: this search does not update last access)"));
}

export async function renderSearch(section, context) {
  const results = h("div", { class: "results", "aria-live": "polite" });
  const weightInputs = PARTS.map((p) => [
    h("label", { for: `w-${p}` }, `α ${p}`),
    h("input", { id: `w-${p}`, name: p, type: "number", step: 0.1, min: 0, max: 100, placeholder: "world's" }),
  ]);

  async function search(event) {
    event.preventDefault();
    const form = new FormData(event.target);
    const weights = Object.fromEntries(PARTS.filter((p) => form.get(p) !== "").map((p) => [p, Number(form.get(p))]));
    mount(results, h("p", { class: "muted" }, "Searching…"));
    try {
      const answer = await api(agentPath(context.worldId, context.agentId, "/memories/search"), {
        method: "POST", signal: context.signal,
        body: { query: form.get("query"), k: Number(form.get("k")), touch: false,
          ...(Object.keys(weights).length ? { weights } : {}) },
      });
      mount(results, legend(answer), answer.results.length ? resultsTable(answer) : h("p", {}, "No memories to rank."));
    } catch (failure) {
      mount(results, h("p", { class: "error", role: "alert" }, describe(failure)));
    }
  }

  mount(section, section.firstChild,
    h("form", { class: "search", "on:submit": search, role: "search" },
      h("div", { class: "fields" },
        h("label", { for: "query" }, "Query"),
        h("input", { id: "query", name: "query", type: "search", required: true, maxlength: 4000,
          placeholder: `e.g. What is ${context.agent.name} looking forward to?` }),
        h("label", { for: "k" }, "Results"),
        h("input", { id: "k", name: "k", type: "number", min: 1, max: 100, value: 10 }),
        weightInputs),
      h("button", { type: "submit" }, "Search")),
    results);
}
