/** The client against a live Hearth: every behaviour the Python SDK has, over real HTTP. */

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";

import { Conflict, Forbidden, Hearth, NotFound, Unauthorized, ValidationError } from "../src/index.js";
import type { HearthEvent } from "../src/index.js";
import { type LiveStack, startStack } from "./live.js";

const START = "2023-02-13T07:00:00";
let stack: LiveStack;
let admin: Hearth;

before(async () => {
  stack = await startStack();
  admin = new Hearth(stack.url, { apiKey: stack.adminKey, retry: { attempts: 3, backoffMs: 20 } });
});

after(async () => {
  await stack?.stop();
});

async function newWorld(name: string): Promise<{ id: string; client: Hearth }> {
  const created = await admin.createWorld({ name, clock: { mode: "driven", start: START } });
  return { id: created.id, client: new Hearth(stack.url, { apiKey: created.api_key }) };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe("against a live stack", () => {
  test("the caller's scope, worlds in pages, a world key kept to its world", async () => {
    const { id, client } = await newWorld("Oakvale");
    assert.deepEqual(await admin.me(), { scope: "admin", world_id: null });
    assert.deepEqual(await client.me(), { scope: "world", world_id: id });
    assert.equal((await client.getWorld(id)).name, "Oakvale");
    const names = (await collect(admin.listWorlds({ pageSize: 1 }))).map((w) => w.name);
    assert.ok(names.includes("Oakvale"));
    await assert.rejects(collect(client.listWorlds()), Forbidden);
    const other = await newWorld("Elsewhere");
    await assert.rejects(client.getWorld(other.id), (error: unknown) =>
      error instanceof NotFound && error.status === 404 && error.code === "not_found");
  });

  test("typed errors carry the envelope's code, message and fields", async () => {
    const { id, client } = await newWorld("Errorville");
    await client.createAgent(id, { name: "Ada" });
    await assert.rejects(client.createAgent(id, { name: "Ada" }), (error: unknown) =>
      error instanceof Conflict && error.fields.includes("body.name"));
    await assert.rejects(client.createAgent(id, { name: "Bo", age: -1 }), (error: unknown) =>
      error instanceof ValidationError && error.status === 422 && error.fields.includes("body.age"));
    const stranger = new Hearth(stack.url, { apiKey: "hk_world_nope" });
    await assert.rejects(stranger.me(), (error: unknown) => error instanceof Unauthorized && error.code === "unauthorized");
  });

  test("creates carry an Idempotency-Key: the same key returns the first answer", async () => {
    const { id, client } = await newWorld("Idemville");
    const first = await client.createAgent(id, { name: "Cy" }, { idempotencyKey: "agent-cy" });
    const again = await client.createAgent(id, { name: "Cy" }, { idempotencyKey: "agent-cy" });
    assert.equal(again.id, first.id);
    const [memory] = await client.addMemories(id, first.id, [{ description: "Cy bakes bread" }], { idempotencyKey: "m1" });
    const [replayed] = await client.addMemories(id, first.id, [{ description: "Cy bakes bread" }], { idempotencyKey: "m1" });
    assert.equal(replayed?.id, memory?.id);
    assert.equal((await collect(client.listMemories(id, first.id))).length, 1);
  });

  test("cursor iteration walks every page, with filters", async () => {
    const { id, client } = await newWorld("Pageville");
    for (const name of ["A", "B", "C", "D", "E"]) await client.createAgent(id, { name });
    const names = (await collect(client.listAgents(id, { pageSize: 2 }))).map((a) => a.name);
    assert.deepEqual(names, ["A", "B", "C", "D", "E"]);
    const agentId = (await client.listAgents(id).next()).value!.id;
    await client.addMemories(id, agentId, [1, 2, 3, 4, 5].map((i) => ({
      description: i % 2 ? `odd ${i}` : `even ${i}`, created_at: `2023-02-13T07:0${i}:00`,
    })));
    const odd = await collect(client.listMemories(id, agentId, { text: "ODD" }, { pageSize: 1 }));
    assert.deepEqual(odd.map((m) => m.description), ["odd 5", "odd 3", "odd 1"]);
  });

  test("the admin sets a world's model budget; the world's key reads it in its usage", async () => {
    const { id, client } = await newWorld("Budgetville");
    const changed = await admin.updateWorld(id, { settings: { budget: { per_game_day: { calls: 40 } } } });
    assert.deepEqual(changed.settings.budget?.per_game_day, { calls: 40, cost_usd: null });
    const day = (await client.usage(id)).budget?.game_day;
    assert.equal(day?.remaining_calls, 40);
    assert.equal(day?.resets_at, "2023-02-14T00:00:00");
    await assert.rejects(client.updateWorld(id, { settings: { budget: null } }), Forbidden);
  });

  test("the game loop: map, step, actions, search explained, plans, usage", async () => {
    const { id, client } = await newWorld("Loopville");
    await client.putMap(id, { name: "Loopville", children: [{ name: "cafe", children: [{ name: "counter" }] }, { name: "park" }] });
    const rosa = await client.createAgent(id, { name: "Rosa", start_place: "cafe: counter" });
    await client.addMemories(id, rosa.id, [{ description: "Rosa loves painting in the park" }]);
    const stepped = await client.step(id, [{ agent_id: rosa.id, place: "park", perceived: [{ kind: "event", description: "it starts to rain" }] }]);
    assert.equal(stepped.agents[0]?.stored, 1);
    const town = await collect(client.actions(id));
    assert.equal(town[0]?.place, "park");
    const found = await client.searchMemories(id, rosa.id, { query: "painting", k: 5, touch: false });
    assert.ok(found.results.length >= 1);
    const best = found.results[0]!;
    assert.ok(best.components.importance.normalized >= 0 && best.components.importance.normalized <= 1);
    assert.equal(typeof best.score, "number");
    assert.equal((await client.plans(id, rosa.id)).day, "2023-02-13");
    assert.equal((await client.usage(id)).total.calls, 0);
    assert.deepEqual((await client.usageTimeline(id)).buckets, []);
    assert.deepEqual(await collect(client.listConversations(id, rosa.id)), []);
    assert.deepEqual(await collect(client.listRelationships(id, rosa.id)), []);
    assert.equal((await client.clock(id, { advance_minutes: 30 })).now, "2023-02-13T07:30:00");
  });

  test("events arrive in order and resume after the last id seen", async () => {
    const { id, client } = await newWorld("Eventville");
    for (const name of ["Ann", "Ben"]) await client.createAgent(id, { name });
    const all = await collect(client.events(id, { once: true }));
    assert.deepEqual(all.map((e) => e.type), ["agent_created", "agent_created"]);
    const resumed = await collect(client.events(id, { once: true, after: all[0]!.id }));
    assert.deepEqual(resumed.map((e) => e.id), [all[1]!.id]);

    const controller = new AbortController();
    const seen: HearthEvent[] = [];
    const live = (async () => {
      for await (const event of client.events(id, { after: all[1]!.id, signal: controller.signal })) {
        seen.push(event);
        if (seen.length === 1) controller.abort();
      }
    })();
    await client.createAgent(id, { name: "Cal" });
    await live;
    assert.equal(seen[0]?.type, "agent_created");
    assert.deepEqual((seen[0]?.data as { name: string }).name, "Cal");
  });
});
