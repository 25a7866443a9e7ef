/** `Hearth`: the client. Every method is one route; the shapes come from the OpenAPI document. */

import {
  type Call,
  IDEMPOTENCY_HEADER,
  anySignal,
  type Query,
  Retry,
  type RetryOptions,
  newKey,
  queryString,
  segment,
  sleep,
} from "./core.js";
import { ConnectionFailed, HearthError, RateLimited, Unavailable, errorFor } from "./errors.js";
import { type HearthEvent, readEvents } from "./events.js";
import type * as t from "./types.js";

export interface HearthOptions {
  /** An admin key, or a world's key (which reaches only its world). */
  apiKey?: string;
  /** Per request, in milliseconds (an event stream waits for keep-alives instead). */
  timeoutMs?: number;
  retry?: Retry | RetryOptions;
  /** Another fetch (a test double, a proxy agent); the global one by default. */
  fetch?: typeof fetch;
}

export interface SendOptions {
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface PageOptions {
  pageSize?: number;
  signal?: AbortSignal;
}

export interface EventOptions {
  /** Start after this event id. */
  after?: number;
  /** Stop at the current end instead of waiting for more. */
  once?: boolean;
  /** Reconnect after a dropped stream (from the last event seen); default true. */
  reconnect?: boolean;
  signal?: AbortSignal;
}

interface Page<T> {
  items: T[];
  next_cursor?: string | null;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_PAGE_SIZE = 100;
const STREAM_READ_TIMEOUT_MS = 60_000; // the server sends a keep-alive every 15 s

const world = (w: string, rest = ""): string => `/v1/worlds/${segment(w)}${rest}`;
const agent = (w: string, a: string, rest = ""): string => world(w, `/agents/${segment(a)}${rest}`);

export class Hearth {
  readonly baseUrl: string;
  readonly retry: Retry;
  private readonly apiKey?: string;
  private readonly timeoutMs: number;
  private readonly fetcher: typeof fetch;

  constructor(baseUrl: string, options: HearthOptions = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, "");
    this.apiKey = options.apiKey;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retry = options.retry instanceof Retry ? options.retry : new Retry(options.retry);
    this.fetcher = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const headers: Record<string, string> = { Accept: "application/json", ...extra };
    if (this.apiKey) headers.Authorization = `Bearer ${this.apiKey}`;
    return headers;
  }

  private async attempt(call: Call, headers: Record<string, string>, signal?: AbortSignal): Promise<Response> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const combined = signal ? anySignal([signal, timeout]) : timeout;
    return this.fetcher(this.baseUrl + call.path + queryString(call.query), {
      method: call.method,
      headers,
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal: combined,
    });
  }

  /** Send one call: 429/503 are retried with backoff (and a lost connection when resending is
   * harmless); a create carries one Idempotency-Key across all its tries. */
  async send<T>(call: Call, options: SendOptions = {}): Promise<T> {
    const extra: Record<string, string> = {};
    if (call.body !== undefined) extra["Content-Type"] = "application/json";
    if (call.creates) extra[IDEMPOTENCY_HEADER] = options.idempotencyKey ?? newKey();
    const headers = this.headers(extra);
    for (let attempt = 0; ; attempt += 1) {
      let wait: number | null;
      try {
        const response = await this.attempt(call, headers, options.signal);
        wait = this.retry.afterResponse(call, response, attempt);
        if (wait === null) return this.decode<T>(call, response);
        await response.body?.cancel();
      } catch (error) {
        if (error instanceof HearthError || options.signal?.aborted) throw error;
        wait = this.retry.afterFailure(call, attempt);
        if (wait === null) throw new ConnectionFailed(`${call.method} ${call.path}: ${String(error)}`);
      }
      await sleep(wait, options.signal);
    }
  }

  private async decode<T>(call: Call, response: Response): Promise<T> {
    if (!response.ok && !call.accept?.includes(response.status)) throw await errorFor(response);
    if (response.status === 204) return undefined as T;
    return (await response.json()) as T;
  }

  /** Every item of a cursor-paged list, page after page. */
  async *pages<T>(call: Call, options: PageOptions = {}): AsyncGenerator<T> {
    let cursor: string | null | undefined;
    do {
      const query: Query = { ...call.query, limit: options.pageSize ?? DEFAULT_PAGE_SIZE, cursor };
      const page = await this.send<Page<T>>({ ...call, query }, { signal: options.signal });
      yield* page.items;
      cursor = page.next_cursor;
    } while (cursor);
  }

  // --- health, the caller, worlds, clock, keys ------------------------------------------------

  health(): Promise<{ status: string }> {
    return this.send({ method: "GET", path: "/healthz" });
  }

  /** The readiness report, also when not ready (then `status` is "not_ready"). */
  readiness(): Promise<t.Readiness> {
    return this.send({ method: "GET", path: "/readyz", accept: [503] });
  }

  /** What the key reaches: `{scope: "admin"}` or `{scope: "world", world_id}`. */
  me(): Promise<t.Caller> {
    return this.send({ method: "GET", path: "/v1/me" });
  }

  /** Admin key: every world, in creation order. */
  listWorlds(options?: PageOptions): AsyncGenerator<t.World> {
    return this.pages({ method: "GET", path: "/v1/worlds" }, options);
  }

  /** Admin key. The answer holds the world's key; it is shown only once. */
  createWorld(body: t.WorldCreate, options?: SendOptions): Promise<t.WorldCreated> {
    return this.send({ method: "POST", path: "/v1/worlds", body, creates: true }, options);
  }

  getWorld(worldId: string): Promise<t.World> {
    return this.send({ method: "GET", path: world(worldId) });
  }

  /** Admin key: rename the world or change its settings (a model budget, weights, the
   * reflection threshold); a setting given as null returns to the server's default. */
  updateWorld(worldId: string, changes: t.WorldUpdate): Promise<t.World> {
    return this.send({ method: "PATCH", path: world(worldId), body: changes });
  }

  /** Admin key: the world and everything in it. */
  deleteWorld(worldId: string): Promise<void> {
    return this.send({ method: "DELETE", path: world(worldId) });
  }

  /** `set`, `advance_minutes`, `paused`, `mode`, `rate`; never resent after a lost connection. */
  clock(worldId: string, change: t.ClockUpdate): Promise<t.Clock> {
    return this.send({ method: "POST", path: world(worldId, "/clock"), body: change });
  }

  createKey(worldId: string): Promise<t.KeyCreated> {
    return this.send({ method: "POST", path: world(worldId, "/keys") });
  }

  listKeys(worldId: string): Promise<t.Key[]> {
    return this.send({ method: "GET", path: world(worldId, "/keys") });
  }

  revokeKey(worldId: string, keyId: string): Promise<void> {
    return this.send({ method: "DELETE", path: world(worldId, `/keys/${segment(keyId)}`) });
  }

  // --- agents, map, personas ------------------------------------------------------------------

  createAgent(worldId: string, body: t.AgentCreate, options?: SendOptions): Promise<t.Agent> {
    return this.send({ method: "POST", path: world(worldId, "/agents"), body, creates: true }, options);
  }

  /** Every agent, in creation order. */
  listAgents(worldId: string, options?: PageOptions): AsyncGenerator<t.Agent> {
    return this.pages({ method: "GET", path: world(worldId, "/agents") }, options);
  }

  getAgent(worldId: string, agentId: string): Promise<t.Agent> {
    return this.send({ method: "GET", path: agent(worldId, agentId) });
  }

  updateAgent(worldId: string, agentId: string, changes: t.AgentUpdate): Promise<t.Agent> {
    return this.send({ method: "PATCH", path: agent(worldId, agentId), body: changes });
  }

  deleteAgent(worldId: string, agentId: string): Promise<void> {
    return this.send({ method: "DELETE", path: agent(worldId, agentId) });
  }

  agentPlaces(worldId: string, agentId: string): Promise<t.KnownMap> {
    return this.send({ method: "GET", path: agent(worldId, agentId, "/places") });
  }

  putMap(worldId: string, spec: t.MapSpec): Promise<t.MapSummary> {
    return this.send({ method: "PUT", path: world(worldId, "/map"), body: spec });
  }

  getMap(worldId: string): Promise<t.MapRead> {
    return this.send({ method: "GET", path: world(worldId, "/map") });
  }

  importPersonas(worldId: string, pack: t.PersonaPack, options?: SendOptions): Promise<t.ImportSummary> {
    return this.send({ method: "POST", path: world(worldId, "/personas/import"), body: pack, creates: true }, options);
  }

  innerVoice(worldId: string, agentId: string, text: string, options?: SendOptions): Promise<t.Memory> {
    return this.send({ method: "POST", path: agent(worldId, agentId, "/inner-voice"), body: { text }, creates: true }, options);
  }

  /** `{place, state}`, or the paper's `{statement: "<path> is <state>"}`. */
  setObjectState(worldId: string, change: t.ObjectStateChange, options?: SendOptions): Promise<t.ObjectState> {
    return this.send({ method: "POST", path: world(worldId, "/objects/state"), body: change, creates: true }, options);
  }

  // --- memories --------------------------------------------------------------------------------

  async addMemories(worldId: string, agentId: string, memories: t.MemoryCreate[], options?: SendOptions): Promise<t.Memory[]> {
    const page = await this.send<Page<t.Memory>>(
      { method: "POST", path: agent(worldId, agentId, "/memories"), body: { memories }, creates: true }, options);
    return page.items;
  }

  /** Newest first; `text` keeps descriptions containing it (any case). */
  listMemories(
    worldId: string,
    agentId: string,
    filters: { kinds?: t.MemoryKind[]; since?: string; until?: string; text?: string } = {},
    options?: PageOptions,
  ): AsyncGenerator<t.Memory> {
    const query: Query = { kind: filters.kinds, since: filters.since, until: filters.until, text: filters.text };
    return this.pages({ method: "GET", path: agent(worldId, agentId, "/memories"), query }, options);
  }

  /** A memory; a reflection with the tree of evidence it cites. */
  getMemory(worldId: string, agentId: string, memoryId: number): Promise<t.MemoryDetail> {
    return this.send({ method: "GET", path: agent(worldId, agentId, `/memories/${segment(memoryId)}`) });
  }

  /** The paper's retrieval, every term explained; safe to resend (`touch` marks access). */
  searchMemories(worldId: string, agentId: string, request: t.SearchRequest): Promise<t.SearchResponse> {
    return this.send({ method: "POST", path: agent(worldId, agentId, "/memories/search"), body: request, replayable: true });
  }

  // --- the game loop, plans, talk, usage ------------------------------------------------------

  /** The hot path: where agents are and what they perceive → what each is doing and saying.
   * Never resent after a lost connection: a step stores perceptions. A place it names must be
   * in the world's map unless `createPlaces`. */
  step(worldId: string, agents: t.AgentStep[], options: { createPlaces?: boolean } = {}): Promise<t.StepResponse> {
    const body = options.createPlaces ? { agents, create_places: true } : { agents };
    return this.send({ method: "POST", path: world(worldId, "/step"), body });
  }

  action(worldId: string, agentId: string): Promise<t.AgentAction> {
    return this.send({ method: "GET", path: agent(worldId, agentId, "/action") });
  }

  /** Every agent's place, current action and line (the town view). */
  actions(worldId: string, options?: PageOptions): AsyncGenerator<t.AgentDoing> {
    return this.pages({ method: "GET", path: world(worldId, "/actions") }, options);
  }

  /** A player speaks; pass the answer's `conversation_id` back to continue. */
  chat(worldId: string, agentId: string, request: t.ChatRequest): Promise<t.ChatResponse> {
    return this.send({ method: "POST", path: agent(worldId, agentId, "/chat"), body: request });
  }

  interview(worldId: string, agentId: string, request: t.InterviewRequest): Promise<t.InterviewResponse> {
    return this.send({ method: "POST", path: agent(worldId, agentId, "/interview"), body: request });
  }

  /** The plan tree of a game day (`day` "YYYY-MM-DD"; default the world's today). */
  plans(worldId: string, agentId: string, day?: string): Promise<t.PlanDay> {
    return this.send({ method: "GET", path: agent(worldId, agentId, "/plans"), query: { day } });
  }

  listConversations(worldId: string, agentId: string, options?: PageOptions): AsyncGenerator<t.Conversation> {
    return this.pages({ method: "GET", path: agent(worldId, agentId, "/conversations") }, options);
  }

  listRelationships(worldId: string, agentId: string, options?: PageOptions): AsyncGenerator<t.Relationship> {
    return this.pages({ method: "GET", path: agent(worldId, agentId, "/relationships") }, options);
  }

  usage(worldId: string, query: { basis?: "game" | "wall"; since?: string; until?: string } = {}): Promise<t.UsageReport> {
    return this.send({ method: "GET", path: world(worldId, "/usage"), query });
  }

  usageTimeline(worldId: string, query: { bucket_minutes?: number; since?: string; until?: string } = {}): Promise<t.UsageTimeline> {
    return this.send({ method: "GET", path: world(worldId, "/usage/timeline"), query });
  }

  // --- events ----------------------------------------------------------------------------------

  /** The world's events in order. A dropped stream resumes after the last event seen
   * (`Last-Event-ID`), so nothing is lost or repeated; `once` stops at the current end. */
  async *events(worldId: string, options: EventOptions = {}): AsyncGenerator<HearthEvent> {
    let last = options.after;
    let failures = 0;
    const reconnect = options.reconnect ?? true;
    for (;;) {
      try {
        for await (const event of this.connection(worldId, last, options)) {
          failures = 0;
          last = event.id;
          yield event;
        }
        if (options.once || options.signal?.aborted) return;
      } catch (error) {
        if (options.signal?.aborted) return;
        const retriable = !(error instanceof HearthError) || error instanceof RateLimited || error instanceof Unavailable;
        if (!retriable || !reconnect || failures + 1 >= this.retry.attempts) {
          throw error instanceof HearthError ? error : new ConnectionFailed(`event stream: ${String(error)}`);
        }
        failures += 1;
      }
      await sleep(this.retry.delay(failures), options.signal);
    }
  }

  /** One connection of the event stream, until the server or the network ends it. */
  private async *connection(worldId: string, last: number | undefined, options: EventOptions): AsyncGenerator<HearthEvent> {
    const extra: Record<string, string> = { Accept: "text/event-stream" };
    if (last !== undefined) extra["Last-Event-ID"] = String(last);
    const idle = new AbortController();
    const signal = options.signal ? anySignal([options.signal, idle.signal]) : idle.signal;
    let timer = setTimeout(() => idle.abort(), STREAM_READ_TIMEOUT_MS);
    const alive = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => idle.abort(), STREAM_READ_TIMEOUT_MS);
    };
    try {
      const path = world(worldId, "/events") + queryString({ once: options.once ? "true" : undefined });
      const response = await this.fetcher(this.baseUrl + path, { headers: this.headers(extra), signal });
      if (!response.ok || !response.body) throw await errorFor(response);
      yield* readEvents(response.body, alive);
    } finally {
      clearTimeout(timer);
    }
  }
}
