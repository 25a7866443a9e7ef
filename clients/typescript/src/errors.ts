/**
 * Typed errors mirroring the API's envelope `{"error": {"code", "message", "details"}}`.
 *
 * HearthError            anything the server refused, or no answer at all
 * ├── BadRequest         400
 * ├── Unauthorized       401  missing, unknown or revoked key
 * ├── Forbidden          403  a world key on an admin route
 * ├── NotFound           404  (also: another world's ids, by design)
 * ├── Conflict           409  a taken name, an Idempotency-Key reused with another body
 * ├── PayloadTooLarge    413
 * ├── ValidationError    422  `details` names each field at fault
 * ├── RateLimited        429  (retried before it reaches you)
 * ├── Unavailable        503  (retried before it reaches you)
 * ├── ServerError        other 5xx
 * └── ConnectionFailed   no HTTP answer (refused, reset, timed out)
 */

export interface ErrorDetail {
  field?: string | null;
  message?: string;
  [key: string]: unknown;
}

export class HearthError extends Error {
  /** The HTTP status; 0 when there was no answer. */
  readonly status: number;
  readonly code: string;
  readonly details: ErrorDetail[];

  constructor(message: string, options: { status?: number; code?: string; details?: ErrorDetail[] } = {}) {
    super(message);
    this.name = new.target.name;
    this.status = options.status ?? 0;
    this.code = options.code ?? "error";
    this.details = options.details ?? [];
  }

  /** The fields the server blamed, e.g. `["body.known_places.1"]`. */
  get fields(): string[] {
    return this.details.map((d) => d.field).filter((f): f is string => typeof f === "string" && f !== "");
  }
}

export class BadRequest extends HearthError {}
export class Unauthorized extends HearthError {}
export class Forbidden extends HearthError {}
export class NotFound extends HearthError {}
export class Conflict extends HearthError {}
export class PayloadTooLarge extends HearthError {}
export class ValidationError extends HearthError {}
export class RateLimited extends HearthError {}
export class Unavailable extends HearthError {}
export class ServerError extends HearthError {}
export class ConnectionFailed extends HearthError {}

const BY_STATUS: Record<number, typeof HearthError> = {
  400: BadRequest,
  401: Unauthorized,
  403: Forbidden,
  404: NotFound,
  409: Conflict,
  413: PayloadTooLarge,
  422: ValidationError,
  429: RateLimited,
  503: Unavailable,
};

/** The typed error for a non-2xx answer, read from its body (the envelope, when there is one). */
export async function errorFor(response: Response): Promise<HearthError> {
  const text = await response.text();
  let code = "http_error";
  let message = text.slice(0, 500) || response.statusText || `HTTP ${response.status}`;
  let details: ErrorDetail[] = [];
  try {
    const { error } = JSON.parse(text) as { error: { code: string; message: string; details?: ErrorDetail[] } };
    if (error && typeof error.code === "string") {
      ({ code, message } = error);
      details = error.details ?? [];
    }
  } catch {
    // not the envelope (a proxy's page): keep the text
  }
  const Kind = BY_STATUS[response.status] ?? (response.status >= 500 ? ServerError : HearthError);
  return new Kind(message, { status: response.status, code, details });
}
