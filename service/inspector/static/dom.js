// Building elements without HTML strings: every text goes in as a text node, so nothing a
// game or a model wrote can become markup.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(el, attrs, children) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on:")) el.addEventListener(name.slice(3), value);
    else if (name === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** An HTML element: h("a", {href: "#/"}, "text", otherNode). */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element. */
export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

export function mount(target, ...children) {
  target.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== false));
}

// Game times have no offset (a world's calendar is its own): read and show them as written.
const DAY = new Intl.DateTimeFormat("en-GB", {
  weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC",
});
const TIME = new Intl.DateTimeFormat("en-GB", {
  hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "UTC",
});

export function parseGameTime(iso) {
  return new Date(/[zZ]|[+-]\d\d:\d\d$/.test(iso) ? iso : `${iso}Z`);
}

export function gameTime(iso) {
  if (!iso) return "—";
  const at = parseGameTime(iso);
  return `${DAY.format(at)}, ${TIME.format(at)}`;
}

export function clockTime(iso) {
  return iso ? TIME.format(parseGameTime(iso)) : "—";
}

/** "2023-02-13T07:00:00" for a Date read as game time. */
export function isoGameTime(date) {
  return date.toISOString().slice(0, 19);
}

export function addMinutes(iso, minutes) {
  return isoGameTime(new Date(parseGameTime(iso).getTime() + minutes * 60000));
}

export function number(value, digits = 0) {
  return Number(value).toLocaleString("en-GB", {
    minimumFractionDigits: digits, maximumFractionDigits: digits,
  });
}

export function usd(value) {
  const n = Number(value);
  return `$${n < 0.01 && n > 0 ? Number(n.toPrecision(2)) : n.toFixed(2)}`;
}

/** A horizontally scrollable table a keyboard can scroll too. */
export function table(caption, head, rows, attrs = {}) {
  return h("div", { class: "table-wrap", tabindex: 0, role: "region", "aria-label": caption },
    h("table", attrs,
      h("caption", {}, caption),
      h("thead", {}, h("tr", {}, head.map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, rows)));
}

export function badge(text, kind = "") {
  return h("span", { class: `badge ${kind}`.trim() }, text);
}

export function loading(text = "Loading…") {
  return h("p", { class: "muted" }, text);
}
