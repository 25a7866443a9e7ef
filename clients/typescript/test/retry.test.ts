/** Retries against a scripted local server: 429/503 are retried with backoff (Retry-After
 * honoured), a create keeps one Idempotency-Key across tries, a step is never resent after a
 * lost connection, and an event stream reconnects with Last-Event-ID. */

import assert from "node:assert/strict";
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, beforeEach, test } from "node:test";

import { ConnectionFailed, Hearth, RateLimited, Retry, ServerError, Unavailable } from "../src/index.js";

type Script = (req: IncomingMessage, res: ServerResponse, n: number) => void;
let server: Server;
let base: string;
let script: Script;
let seen: IncomingMessage[] = [];

before(async () => {
  server = createServer((req, res) => {
    seen.push(req);
    req.resume();
    script(req, res, seen.length);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  seen = [];
});

function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

const envelope = (code: string) => ({ error: { code, message: code, details: [] } });
const fast = (attempts = 4) => new Hearth(base, { apiKey: "k", retry: { attempts, backoffMs: 5, maxBackoffMs: 20 } });

test("429 and 503 are retried until an answer; Retry-After is honoured", async () => {
  script = (_req, res, n) => {
    if (n === 1) return reply(res, 429, envelope("rate_limited"), { "Retry-After": "0" });
    if (n === 2) return reply(res, 503, envelope("unavailable"));
    return reply(res, 200, { scope: "admin", world_id: null });
  };
  assert.deepEqual(await fast().me(), { scope: "admin", world_id: null });
  assert.equal(seen.length, 3);
  assert.equal(seen[0]?.headers.authorization, "Bearer k");
});

test("Retry-After is the wait, in seconds, up to a minute", () => {
  const retry = new Retry({ backoffMs: 5, maxBackoffMs: 20 });
  const limited = (after: string) => new Response(null, { status: 429, headers: { "Retry-After": after } });
  assert.equal(retry.afterResponse({ method: "GET", path: "/v1/me" }, limited("3"), 0), 3000);
  assert.equal(retry.afterResponse({ method: "GET", path: "/v1/me" }, limited("600"), 0), 60_000);
});

test("retries are bounded; the last answer's error is raised, typed", async () => {
  script = (_req, res) => reply(res, 503, envelope("unavailable"));
  await assert.rejects(fast(3).me(), Unavailable);
  assert.equal(seen.length, 3);
  script = (_req, res) => reply(res, 429, envelope("rate_limited"));
  await assert.rejects(fast(2).me(), RateLimited);
});

test("a 500 is not retried; a proxy's 502 is retried only when resending is harmless", async () => {
  script = (_req, res) => reply(res, 500, envelope("internal_error"));
  await assert.rejects(fast().me(), ServerError);
  assert.equal(seen.length, 1);
  seen = [];
  script = (_req, res, n) => (n === 1 ? reply(res, 502, "bad gateway") : reply(res, 200, { scope: "admin", world_id: null }));
  await fast().me();
  assert.equal(seen.length, 2);
  seen = [];
  script = (_req, res) => reply(res, 502, "bad gateway");
  await assert.rejects(fast().step("w", []), ServerError);
  assert.equal(seen.length, 1, "a step is never resent");
});

test("a create keeps one Idempotency-Key across its tries", async () => {
  script = (_req, res, n) => (n < 3 ? reply(res, 503, envelope("unavailable")) : reply(res, 201, { id: "a1", name: "Ada" }));
  await fast().createAgent("w", { name: "Ada" });
  const keys = seen.map((req) => req.headers["idempotency-key"]);
  assert.equal(keys.length, 3);
  assert.ok(typeof keys[0] === "string" && keys[0].length >= 32);
  assert.ok(keys.every((key) => key === keys[0]));
  assert.equal(seen[0]?.headers["content-type"], "application/json");
});

test("after a lost connection a create is resent, a step is not", async () => {
  script = (req, res, n) => (n === 1 ? req.socket.destroy() : reply(res, 201, { id: "a1", name: "Ada" }));
  assert.equal((await fast().createAgent("w", { name: "Ada" })).id, "a1");
  assert.equal(seen.length, 2);
  assert.equal(seen[0]?.headers["idempotency-key"], seen[1]?.headers["idempotency-key"]);
  seen = [];
  script = (req) => req.socket.destroy();
  await assert.rejects(fast().step("w", []), ConnectionFailed);
  assert.equal(seen.length, 1);
});

test("an event stream that drops reconnects after the last event seen", async () => {
  script = (_req, res, n) => {
    res.writeHead(200, { "Content-Type": "text/event-stream" });
    if (n === 1) { // ends mid-event: event 8 never completes on this connection
      res.write(": ping\r\n\r\nid: 7\r\nevent: agent_created\r\ndata: {\"name\": \"Ann\"}\r\n\r\n");
      return res.end("id: 8\nevent: agent_created\ndata: {\"name\":\n");
    }
    return res.write("id: 8\nevent: agent_created\ndata: {\"name\": \"Ben\"}\n\n");
  };
  const stop = new AbortController();
  const events = [];
  for await (const event of fast().events("w", { after: 6, signal: stop.signal })) {
    events.push(event);
    if (event.id === 8) stop.abort();
  }
  assert.deepEqual(events.map((e) => [e.id, (e.data as { name: string }).name]), [[7, "Ann"], [8, "Ben"]]);
  assert.equal(seen[0]?.headers["last-event-id"], "6");
  assert.equal(seen[1]?.headers["last-event-id"], "7");
});
