// What the world's minds cost: model calls, tokens and cost by operation and by agent over
// game time, as charts (inline SVG) with the same figures in tables.

import { api, world as worldPath } from "../api.js";
import { clockTime, gameTime, h, loading, mount, number, table, usd } from "../dom.js";
import { horizontalBars, stackedBars } from "../charts.js";
import { describe, remember } from "../shell.js";

const BUCKETS = [[15, "15 minutes"], [60, "1 hour"], [360, "6 hours"], [1440, "1 day"]];
const TOP = 12;

function bucketLabel(iso, minutes) {
  return minutes >= 1440 ? gameTime(iso).split(",").slice(0, 2).join(",") : clockTime(iso);
}

/** Every bucket from the first to the last, empty ones included, so time reads evenly. */
function evenBuckets(timeline) {
  const step = timeline.bucket_minutes * 60000;
  const byStart = new Map(timeline.buckets.map((b) => [b.start, b]));
  const out = [];
  if (!timeline.buckets.length) return out;
  const first = new Date(`${timeline.buckets[0].start}Z`).getTime();
  const last = new Date(`${timeline.buckets.at(-1).start}Z`).getTime();
  for (let t = first; t <= last; t += step) {
    const start = new Date(t).toISOString().slice(0, 19);
    out.push(byStart.get(start) || { start, by_operation: [], by_agent: [], total: null });
  }
  return out;
}

function series(buckets, minutes, field) {
  return buckets.map((b) => ({
    label: bucketLabel(b.start, minutes),
    values: Object.fromEntries(b.by_operation.map((r) => [r.operation,
      field === "tokens" ? r.tokens_in + r.tokens_out : Number(r[field])])),
  }));
}

function totals(report) {
  const t = report.total;
  return h("dl", { class: "totals" },
    [["Model calls", number(t.calls)], ["Tokens in", number(t.tokens_in)], ["Tokens out", number(t.tokens_out)],
      ["Cost", usd(t.cost_usd)], ["Errors", number(t.errors)], ["Offline fallbacks", number(t.degraded)]]
      .map(([label, value]) => h("div", {}, h("dt", {}, label), h("dd", {}, value))));
}

function figuresTable(caption, rows, first) {
  return table(caption, [first, "Calls", "Tokens in", "Tokens out", "Cost", "Errors"],
    rows.map((r) => h("tr", {}, h("th", { scope: "row" }, r.label),
      [number(r.calls), number(r.tokens_in), number(r.tokens_out), usd(r.cost_usd), number(r.errors)]
        .map((v) => h("td", { class: "num" }, v)))));
}

export async function renderUsage(main, { worldId, signal }) {
  mount(main, h("h1", { tabindex: -1 }, "Model usage"), loading());
  const world = await api(worldPath(worldId), { signal });
  remember(worldId, world.name);
  const body = h("div", { class: "usage" });
  const select = h("select", { id: "bucket" }, BUCKETS.map(([value, label]) =>
    h("option", { value, selected: value === 60 }, label)));

  async function load() {
    mount(body, loading());
    try {
      const minutes = Number(select.value);
      const [report, timeline] = await Promise.all([
        api(worldPath(worldId, "/usage"), { signal }),
        api(worldPath(worldId, "/usage/timeline"), { params: { bucket_minutes: minutes }, signal }),
      ]);
      const operations = report.by_operation.map((r) => r.operation).filter((v, i, a) => a.indexOf(v) === i);
      const buckets = evenBuckets(timeline);
      const costly = report.by_operation.some((r) => Number(r.cost_usd) > 0);
      mount(body, totals(report),
        buckets.length ? h("div", { class: "charts" },
          stackedBars({ title: "Model calls per game-time bucket, by operation", series: series(buckets, minutes, "calls"), keys: operations, format: (v) => number(v) }),
          stackedBars({ title: "Tokens (in + out) per bucket, by operation", series: series(buckets, minutes, "tokens"), keys: operations, format: (v) => number(v) }),
          costly ? stackedBars({ title: "Cost per bucket, by operation", series: series(buckets, minutes, "cost_usd"), keys: operations, format: usd })
            : h("p", { class: "muted" }, "No cost recorded: the offline mind is free (set HEARTH_LLM_PRICES for a model's prices)."),
          report.by_agent.length ? horizontalBars({ title: `Model calls by agent (top ${TOP})`,
            rows: report.by_agent.slice(0, TOP).map((r) => ({ label: r.agent, value: r.calls })), format: (v) => number(v) }) : null,
        ) : h("p", {}, "No model calls yet."),
        h("details", {}, h("summary", {}, "The figures as tables"),
          figuresTable("By operation", report.by_operation.map((r) => ({ ...r, label: `${r.operation} (${r.model})` })), "Operation"),
          figuresTable("By agent", report.by_agent.map((r) => ({ ...r, label: r.agent })), "Agent")));
    } catch (failure) {
      mount(body, h("p", { class: "error", role: "alert" }, describe(failure)));
    }
  }

  select.addEventListener("change", load);
  mount(main, h("h1", { tabindex: -1 }, `Model usage · ${world.name}`),
    h("p", { class: "controls" }, h("label", { for: "bucket" }, "Bucket"), select,
      h("span", { class: "muted" }, ` Game time now ${gameTime(world.clock.now)}`)),
    body);
  await load();
}
