// The memory stream, newest first, filtered by kind, game-time range and text; a reflection
// opens its evidence tree one level at a time.

import { agent as agentPath, api } from "../api.js";
import { badge, gameTime, h, mount, table } from "../dom.js";
import { describe } from "../shell.js";

const KINDS = ["observation", "reflection", "plan", "utterance", "seed", "directive"];

function memoryLine(memory) {
  return [badge(memory.kind, `kind-${memory.kind}`), " ", memory.description,
    h("span", { class: "muted small" }, ` · importance ${memory.importance} · ${gameTime(memory.created_at)}`)];
}

/** One level of evidence; each cited reflection can open the next level. */
export function evidenceLevel(memory, level) {
  return h("ol", { class: "evidence", "aria-label": `Evidence, level ${level}` },
    memory.evidence.map((cited) => h("li", { dataset: { memory: cited.id, level } },
      memoryLine(cited),
      cited.evidence.length
        ? h("details", { class: "level" },
          h("summary", {}, `Level ${level + 1}: what this cites (${cited.evidence.length})`),
          evidenceLevel(cited, level + 1))
        : cited.kind === "reflection"
          ? h("p", { class: "small muted" }, "Its evidence is shown where it is first cited.")
          : null)));
}

async function evidence(context, memoryId, target, button) {
  if (target.childElementCount) {
    target.replaceChildren();
    button.setAttribute("aria-expanded", "false");
    button.textContent = "Show evidence";
    return;
  }
  try {
    const detail = await api(agentPath(context.worldId, context.agentId, `/memories/${memoryId}`));
    target.append(h("p", { class: "small muted" }, `Depth ${detail.depth}: cites ${detail.evidence.length} memories`),
      evidenceLevel(detail, 1));
    button.setAttribute("aria-expanded", "true");
    button.textContent = "Hide evidence";
  } catch (failure) {
    target.append(h("p", { class: "error", role: "alert" }, describe(failure)));
  }
}

function row(context, memory) {
  const cell = h("td", { class: "description" }, memory.description);
  if (memory.kind === "reflection") {
    const tree = h("div", { class: "tree-slot", id: `evidence-${memory.id}` });
    const button = h("button", { type: "button", class: "small", "aria-expanded": "false",
      "aria-controls": `evidence-${memory.id}` }, "Show evidence");
    button.addEventListener("click", () => evidence(context, memory.id, tree, button));
    cell.append(" ", button, tree);
  }
  return h("tr", { dataset: { memory: memory.id } },
    h("td", { class: "nowrap" }, gameTime(memory.created_at)),
    h("td", {}, badge(memory.kind, `kind-${memory.kind}`)),
    h("td", { class: "num" }, memory.importance, memory.importance_scored ? "" : "?"),
    cell);
}

function filters(onApply) {
  const kinds = KINDS.map((kind) => h("label", { class: "check" },
    h("input", { type: "checkbox", name: "kind", value: kind }), ` ${kind}`));
  return h("form", { class: "filters", "on:submit": (e) => { e.preventDefault(); onApply(new FormData(e.target)); } },
    h("fieldset", {}, h("legend", {}, "Kinds (none ticked: all)"), kinds),
    h("div", { class: "fields" },
      h("label", { for: "since" }, "From (game time)"),
      h("input", { id: "since", name: "since", type: "datetime-local", step: 60 }),
      h("label", { for: "until" }, "Until"),
      h("input", { id: "until", name: "until", type: "datetime-local", step: 60 }),
      h("label", { for: "text" }, "Text contains"),
      h("input", { id: "text", name: "text", type: "search", maxlength: 200 })),
    h("button", { type: "submit" }, "Filter"));
}

export async function renderMemories(section, context) {
  const results = h("div", { class: "results" });
  let params = {};
  let cursor = null;
  let rows = [];

  async function load(more) {
    const page = await api(agentPath(context.worldId, context.agentId, "/memories"),
      { params: { ...params, limit: 50, cursor: more ? cursor : undefined }, signal: context.signal });
    cursor = page.next_cursor;
    rows = more ? [...rows, ...page.items.map((m) => row(context, m))] : page.items.map((m) => row(context, m));
    mount(results,
      rows.length
        ? table(`${context.agent.name}'s memories, newest first`, ["Game time", "Kind", "Imp.", "Description"], rows, { class: "memories" })
        : h("p", {}, "No memory matches."),
      cursor ? h("button", { type: "button", "on:click": () => load(true).catch(show) }, "Load older memories") : null);
  }

  const show = (failure) => mount(results, h("p", { class: "error", role: "alert" }, describe(failure)));
  const apply = (form) => {
    params = {
      kind: form.getAll("kind"),
      since: form.get("since") || undefined,
      until: form.get("until") || undefined,
      text: form.get("text") || undefined,
    };
    load(false).catch(show);
  };
  mount(section, section.firstChild, filters(apply), results);
  await load(false).catch(show);
}
