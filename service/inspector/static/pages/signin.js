// Sign in with an admin key or a world key: checked with GET /v1/me, then kept in this tab's
// sessionStorage only (closing the tab forgets it).

import { api, session } from "../api.js";
import { h, mount } from "../dom.js";
import { describe } from "../shell.js";

export async function renderSignIn(main, { go }) {
  const input = h("input", {
    id: "key", name: "key", type: "password", required: true, autocomplete: "off",
    spellcheck: "false", "aria-describedby": "key-help",
  });
  const error = h("p", { id: "signin-error", class: "error", role: "alert" });
  const button = h("button", { type: "submit" }, "Sign in");

  async function submit(event) {
    event.preventDefault();
    const key = input.value.trim();
    error.textContent = "";
    button.disabled = true;
    try {
      const me = await api("/v1/me", { key });
      session.set({ key, scope: me.scope, world_id: me.world_id });
      go(me.scope === "admin" ? "#/worlds" : `#/worlds/${me.world_id}`);
    } catch (failure) {
      error.textContent = failure.status === 401
        ? "That key was refused: it is unknown or has been revoked."
        : `Could not sign in: ${describe(failure)}`;
      input.setAttribute("aria-invalid", "true");
      input.focus();
    } finally {
      button.disabled = false;
    }
  }

  mount(main, h("section", { class: "signin card" },
    h("h1", { tabindex: -1 }, "Sign in"),
    h("p", {}, "Look inside a Hearth world: what each character remembers, plans and says."),
    h("form", { "on:submit": submit, novalidate: false },
      h("label", { for: "key" }, "API key (admin or world)"),
      input,
      h("p", { id: "key-help", class: "muted small" },
        "Kept in this browser tab only and sent in the Authorization header — never in a URL or a cookie."),
      button,
      error)));
  if (session.get()) {
    main.querySelector(".signin").append(
      h("p", { class: "muted" }, "You are signed in; signing in again replaces the key."));
  }
}
