/** What every request shares: a request as a value, the retry decision, ids. No I/O here. */

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type Query = Record<string, string | number | boolean | readonly (string | number)[] | null | undefined>;

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
/** Answers that mean "not done, try later" (rate limited, a dependency briefly away). */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 503]);
/** A proxy's "no answer from upstream": retried only when resending is harmless. */
export const GATEWAY_STATUSES: ReadonlySet<number> = new Set([502, 504]);
const REPLAYABLE_METHODS: ReadonlySet<Method> = new Set(["GET", "PUT", "DELETE"]);
const MAX_RETRY_AFTER_MS = 60_000;

/**
 * One request. `creates` gets an Idempotency-Key, so retrying it can never create twice;
 * `replayable` marks a POST that is safe to resend (a search); `accept` lists non-2xx
 * statuses whose body is the answer (readiness answers 503 with a report).
 */
export interface Call {
  method: Method;
  path: string;
  body?: unknown;
  query?: Query;
  creates?: boolean;
  replayable?: boolean;
  accept?: readonly number[];
}

/** After a lost connection the server may or may not have acted: resend only if harmless. */
export function mayResend(call: Call): boolean {
  return REPLAYABLE_METHODS.has(call.method) || Boolean(call.creates) || Boolean(call.replayable);
}

export interface RetryOptions {
  /** Tries in all, the first included (1: never retry). */
  attempts?: number;
  backoffMs?: number;
  maxBackoffMs?: number;
}

/** Bounded retries with capped exponential backoff and jitter; `Retry-After` is honoured. */
export class Retry {
  readonly attempts: number;
  readonly backoffMs: number;
  readonly maxBackoffMs: number;

  constructor({ attempts = 4, backoffMs = 500, maxBackoffMs = 10_000 }: RetryOptions = {}) {
    this.attempts = attempts;
    this.backoffMs = backoffMs;
    this.maxBackoffMs = maxBackoffMs;
  }

  delay(attempt: number, retryAfter?: string | null): number {
    if (retryAfter) {
      const seconds = Number(retryAfter);
      if (Number.isFinite(seconds)) return Math.min(Math.max(seconds * 1000, 0), MAX_RETRY_AFTER_MS);
    }
    const ceiling = Math.min(this.maxBackoffMs, this.backoffMs * 2 ** attempt);
    return ceiling * (0.5 + Math.random() / 2);
  }

  /** Milliseconds to wait before trying again, or null to take this answer. */
  afterResponse(call: Call, response: Response, attempt: number): number | null {
    const status = response.status;
    if (call.accept?.includes(status) || attempt + 1 >= this.attempts) return null;
    if (RETRY_STATUSES.has(status) || (GATEWAY_STATUSES.has(status) && mayResend(call))) {
      return this.delay(attempt, response.headers.get("Retry-After"));
    }
    return null;
  }

  /** Milliseconds to wait after a lost connection, or null to give up. */
  afterFailure(call: Call, attempt: number): number | null {
    if (!mayResend(call) || attempt + 1 >= this.attempts) return null;
    return this.delay(attempt);
  }
}

export function queryString(query: Query | undefined): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

/** A random UUID v4, from Web Crypto where there is one. */
export function newKey(): string {
  const webCrypto = (globalThis as { crypto?: Crypto }).crypto;
  if (webCrypto?.randomUUID) return webCrypto.randomUUID();
  const bytes = new Uint8Array(16);
  if (webCrypto?.getRandomValues) webCrypto.getRandomValues(bytes);
  else for (let i = 0; i < 16; i += 1) bytes[i] = Math.floor(Math.random() * 256);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
  });
}

export const segment = (value: string | number): string => encodeURIComponent(String(value));

/** Aborts when any of the signals does (AbortSignal.any, which Node 18 lacks). */
export function anySignal(signals: readonly AbortSignal[]): AbortSignal {
  const controller = new AbortController();
  for (const signal of signals) {
    if (signal.aborted) {
      controller.abort(signal.reason);
      break;
    }
    signal.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
  }
  return controller.signal;
}
