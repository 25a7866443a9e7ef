// What every page shares with the shell: the status line, error text, and names for the
// breadcrumb (a page that learns a world's or an agent's name tells the shell).

import { ApiError } from "./api.js";

export const names = new Map();

export function say(text) {
  document.getElementById("status").textContent = text;
}

export function remember(id, name) {
  if (names.get(id) === name) return;
  names.set(id, name);
  window.dispatchEvent(new Event("hearth:names"));
}

export function describe(error) {
  if (error instanceof ApiError) {
    const fields = error.fields.length ? ` (${error.fields.join(", ")})` : "";
    return `${error.status} ${error.code}: ${error.message}${fields}`;
  }
  return String(error?.message || error);
}
