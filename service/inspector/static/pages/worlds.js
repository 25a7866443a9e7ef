// Every world (admin key): name, game clock, and a way in.

import { api } from "../api.js";
import { badge, gameTime, h, loading, mount, number, table } from "../dom.js";
import { remember } from "../shell.js";

function clockText(clock) {
  if (clock.mode === "driven") return "driven by the game";
  return `running, ${number(clock.rate)}× real time`;
}

export async function renderWorlds(main, { signal }) {
  const body = h("div", {}, loading());
  mount(main, h("h1", { tabindex: -1 }, "Worlds"), body);
  const rows = [];
  let cursor;

  async function more() {
    const page = await api("/v1/worlds", { params: { limit: 50, cursor }, signal });
    cursor = page.next_cursor;
    for (const w of page.items) {
      remember(w.id, w.name);
      rows.push(h("tr", {},
        h("th", { scope: "row" }, h("a", { href: `#/worlds/${w.id}` }, w.name)),
        h("td", {}, gameTime(w.clock.now)),
        h("td", {}, clockText(w.clock), w.clock.paused ? [" ", badge("paused", "warn")] : null),
        h("td", {}, h("a", { href: `#/worlds/${w.id}/usage` }, "usage"))));
    }
    draw();
  }

  function draw() {
    const moreButton = cursor
      ? h("button", { type: "button", "on:click": more }, "Load more worlds") : null;
    mount(body, rows.length
      ? table("Every world, oldest first", ["World", "Game time", "Clock", ""], rows)
      : h("p", {}, "No worlds yet. Create one with POST /v1/worlds."), moreButton);
  }

  await more();
}
