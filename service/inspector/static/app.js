// The inspector's shell: hash routes (nothing secret ever goes in them), the header, the
// breadcrumb, and one page at a time, each given an AbortSignal that ends its streams.

import { session } from "./api.js";
import { h, mount } from "./dom.js";
import { describe, names, say } from "./shell.js";
import { renderSignIn } from "./pages/signin.js";
import { renderWorlds } from "./pages/worlds.js";
import { renderWorld } from "./pages/world.js";
import { renderAgent, AGENT_TABS } from "./pages/agent.js";
import { renderUsage } from "./pages/usage.js";

const main = document.getElementById("main");
const nav = document.getElementById("nav");
const crumbs = document.getElementById("crumbs");
let current = null;
let shown = 0; // pages shown: the first keeps the browser's own focus (the skip link first)

const ROUTES = [
  [/^#\/signin$/, () => ({ page: renderSignIn, title: "Sign in", open: true })],
  [/^#\/worlds$/, () => ({ page: renderWorlds, title: "Worlds" })],
  [/^#\/worlds\/([^/]+)$/, (w) => ({ page: renderWorld, args: { worldId: w }, title: "Town" })],
  [/^#\/worlds\/([^/]+)\/usage$/, (w) => ({ page: renderUsage, args: { worldId: w }, title: "Usage" })],
  [/^#\/worlds\/([^/]+)\/agents\/([^/]+)(?:\/([a-z]+))?$/, (w, a, tab) => ({
    page: renderAgent, args: { worldId: w, agentId: a, tab: AGENT_TABS.includes(tab) ? tab : "memories" },
    title: "Agent",
  })],
];

function home() {
  const who = session.get();
  if (!who) return "#/signin";
  return who.scope === "admin" ? "#/worlds" : `#/worlds/${who.world_id}`;
}

function route() {
  const hash = decodeURI(location.hash || "");
  for (const [pattern, make] of ROUTES) {
    const match = hash.match(pattern);
    if (match) return { hash, ...make(...match.slice(1)) };
  }
  return null;
}

function renderChrome(r) {
  const who = session.get();
  const args = r?.args || {};
  const links = [];
  if (who?.scope === "admin") links.push(h("a", { href: "#/worlds" }, "Worlds"));
  if (args.worldId) {
    links.push(h("a", { href: `#/worlds/${args.worldId}` }, "Town"));
    links.push(h("a", { href: `#/worlds/${args.worldId}/usage` }, "Usage"));
  }
  links.push(h("a", { href: "/docs", target: "_blank", rel: "noopener" }, "API docs"));
  for (const link of links) {
    if (link.getAttribute("href") === r?.hash) link.setAttribute("aria-current", "page");
  }
  mount(nav, who ? [
    ...links,
    h("span", { class: "scope" }, who.scope === "admin" ? "admin key" : "world key"),
    h("button", { type: "button", class: "link", "on:click": signOut }, "Sign out"),
  ] : []);
  const trail = [];
  if (who?.scope === "admin") trail.push(["#/worlds", "Worlds"]);
  if (args.worldId) trail.push([`#/worlds/${args.worldId}`, names.get(args.worldId) || "World"]);
  if (r?.page === renderUsage) trail.push([r.hash, "Usage"]);
  if (args.agentId) trail.push([`#/worlds/${args.worldId}/agents/${args.agentId}`, names.get(args.agentId) || "Agent"]);
  mount(crumbs, trail.length > 1 ? h("ol", {}, trail.map(([href, text], i) => h("li", {},
    i === trail.length - 1 ? h("span", { "aria-current": "location" }, text) : h("a", { href }, text)))) : []);
}

function signOut() {
  session.clear();
  names.clear();
  location.hash = "#/signin";
}

async function show() {
  const r = route();
  if (!r) {
    location.replace(home());
    return;
  }
  if (!r.open && !session.get()) {
    location.replace("#/signin");
    return;
  }
  current?.abort();
  current = new AbortController();
  const signal = current.signal;
  renderChrome(r);
  document.title = `${r.title} · Hearth inspector`;
  say("");
  try {
    await r.page(main, { ...(r.args || {}), signal, go: (hash) => { location.hash = hash; } });
  } catch (error) {
    if (signal.aborted) return;
    mount(main, h("h1", { tabindex: -1 }, "Something went wrong"),
      h("p", { role: "alert", class: "error" }, describe(error)));
  }
  // after a route change, move focus to the new page's heading so keyboard and screen-reader
  // users start there
  if (!signal.aborted && shown++ > 0) main.querySelector("h1")?.focus({ preventScroll: true });
}

window.addEventListener("hashchange", show);
window.addEventListener("hearth:signed-out", () => {
  session.clear();
  say("Your key was refused: sign in again.");
  location.hash = "#/signin";
});

window.addEventListener("hearth:names", () => renderChrome(route()));

show();
