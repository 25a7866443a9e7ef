// Small SVG charts drawn in the page (no chart library): stacked bars over time and
// horizontal bars. Colours come from the stylesheet (`.c0`…`.c9`); every chart has a label.

import { h, s } from "./dom.js";

const PALETTE = 10;
const WIDTH = 760;
const HEIGHT = 220;
const PAD = { left: 64, right: 12, top: 10, bottom: 34 };

/** 0, a round step, …, at least `max`: the y axis ticks. */
export function ticks(max, count = 4) {
  if (!(max > 0)) return [0, 1];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((m) => m >= rough);
  const top = Math.ceil(max / step) * step;
  const out = [];
  for (let v = 0; v <= top + step / 2; v += step) out.push(v);
  return out;
}

export function colourClass(index) {
  return `c${index % PALETTE}`;
}

export function legend(keys) {
  return h("ul", { class: "legend" }, keys.map((key, i) => h("li", {},
    s("svg", { width: 12, height: 12, "aria-hidden": "true" }, s("rect", { width: 12, height: 12, class: colourClass(i) })),
    ` ${key}`)));
}

/**
 * Bars over time, stacked by key. `series` is [{label, values: {key: number}}], in order.
 */
export function stackedBars({ title, series, keys, format = String }) {
  const totals = series.map((point) => keys.reduce((sum, k) => sum + (point.values[k] || 0), 0));
  const axis = ticks(Math.max(0, ...totals));
  const top = axis[axis.length - 1] || 1;
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(series.length, 1);
  const barW = Math.max(1, Math.min(36, slot * 0.8));
  const y = (v) => PAD.top + plotH - (v / top) * plotH;
  const every = Math.max(1, Math.ceil(series.length / 8));
  const bars = series.map((point, i) => {
    let base = 0;
    const x = PAD.left + i * slot + (slot - barW) / 2;
    return s("g", {}, keys.map((key, k) => {
      const v = point.values[key] || 0;
      if (!v) return null;
      const rect = s("rect", { x, y: y(base + v), width: barW, height: Math.max(0.5, y(base) - y(base + v)), class: colourClass(k) },
        s("title", {}, `${point.label} · ${key}: ${format(v)}`));
      base += v;
      return rect;
    }),
    i % every === 0 ? s("text", { x: x + barW / 2, y: HEIGHT - PAD.bottom + 16, class: "tick", "text-anchor": "middle" }, point.label) : null);
  });
  const grid = axis.map((v) => s("g", {},
    s("line", { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(v), y2: y(v), class: "grid" }),
    s("text", { x: PAD.left - 6, y: y(v) + 4, class: "tick", "text-anchor": "end" }, format(v))));
  return h("figure", { class: "chart" },
    s("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": title, preserveAspectRatio: "xMidYMid meet" },
      s("title", {}, title), grid, bars),
    h("figcaption", {}, h("strong", {}, title), legend(keys)));
}

/** Horizontal bars, one per row: [{label, value}], largest first. */
export function horizontalBars({ title, rows, format = String }) {
  const rowH = 22;
  const labelW = 150;
  const width = 480;
  const height = rows.length * rowH + 8;
  const max = Math.max(0, ...rows.map((r) => r.value)) || 1;
  const plotW = width - labelW - 50;
  return h("figure", { class: "chart" },
    s("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": title },
      s("title", {}, title),
      rows.map((row, i) => s("g", {},
        s("text", { x: labelW - 8, y: i * rowH + 16, class: "label", "text-anchor": "end" }, row.label.length > 24 ? `${row.label.slice(0, 23)}…` : row.label),
        s("rect", { x: labelW, y: i * rowH + 4, height: rowH - 8, width: Math.max(1, (row.value / max) * plotW), class: colourClass(i) },
          s("title", {}, `${row.label}: ${format(row.value)}`)),
        s("text", { x: labelW + Math.max(1, (row.value / max) * plotW) + 6, y: i * rowH + 16, class: "value" }, format(row.value))))),
    h("figcaption", {}, h("strong", {}, title)));
}
