// The world's Server-Sent Events read with fetch, because EventSource cannot send an
// Authorization header (and the key must not go in the URL). Reconnects resume after the
// last event seen with Last-Event-ID, as a browser's EventSource would.

import { session } from "./api.js";

/** Server-Sent Events, line by line: a blank line ends an event; ":" lines are comments. */
export class EventDecoder {
  constructor() {
    this.reset();
  }

  reset() {
    this.id = null;
    this.type = "message";
    this.data = [];
  }

  feed(line) {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return null;
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (name === "id") this.id = value;
    else if (name === "event") this.type = value;
    else if (name === "data") this.data.push(value);
    return null;
  }

  dispatch() {
    const { id, type, data } = this;
    this.reset();
    if (id === null || !/^\d+$/.test(id) || data.length === 0) return null;
    const text = data.join("\n");
    let payload;
    try {
      payload = JSON.parse(text);
    } catch {
      payload = text;
    }
    return { id: Number(id), type, data: payload };
  }
}

/** The events of one response body, as they arrive. */
export async function* readEvents(body) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  const decoder = new EventDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      const lines = buffer.split(/\r\n|\n|\r(?!$)/); // a "\r" at the end may be half of "\r\n"
      buffer = lines.pop();
      for (const line of lines) {
        const event = decoder.feed(line);
        if (event) yield event;
      }
    }
  } finally {
    reader.releaseLock();
  }
}

function pause(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
  });
}

/**
 * Follow a world's events after `after` until `signal` aborts. `onStatus` hears
 * "live" | "reconnecting" | "refused"; a refused key (401/404) stops following.
 */
export async function follow(worldId, { after, onEvent, onStatus = () => {}, signal }) {
  let last = after;
  let failures = 0;
  const path = `/v1/worlds/${encodeURIComponent(worldId)}/events`;
  while (!signal.aborted) {
    try {
      const headers = { Accept: "text/event-stream", Authorization: `Bearer ${session.get()?.key}` };
      if (last !== undefined && last !== null) headers["Last-Event-ID"] = String(last);
      const response = await fetch(path, { headers, signal, cache: "no-store", credentials: "omit" });
      if ([401, 403, 404].includes(response.status)) {
        onStatus("refused");
        return;
      }
      if (!response.ok || !response.body) throw new Error(`events: HTTP ${response.status}`);
      onStatus("live");
      for await (const event of readEvents(response.body)) {
        failures = 0;
        last = event.id;
        onEvent(event);
      }
    } catch (error) {
      if (signal.aborted) return;
    }
    onStatus("reconnecting");
    failures += 1;
    await pause(Math.min(15000, 250 * 2 ** failures), signal);
  }
}
