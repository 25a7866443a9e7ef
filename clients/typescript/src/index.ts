/**
 * Typed client for the Hearth API — persistent minds for game characters — for browsers and
 * Node >= 18, on `fetch`.
 *
 *     import { Hearth } from "hearth-client";
 *     const hearth = new Hearth("http://127.0.0.1:8000", { apiKey: "hk_world_…" });
 *     for await (const agent of hearth.listAgents(worldId)) console.log(agent.name, agent.place);
 *
 * Shapes are generated from the API's OpenAPI document (`src/schema.d.ts`); errors are
 * `HearthError` subclasses carrying the API's status, code, message and details.
 */

export { Hearth } from "./client.js";
export type { EventOptions, HearthOptions, PageOptions, SendOptions } from "./client.js";
export { Retry } from "./core.js";
export type { Call, RetryOptions } from "./core.js";
export {
  BadRequest,
  Conflict,
  ConnectionFailed,
  Forbidden,
  HearthError,
  NotFound,
  PayloadTooLarge,
  RateLimited,
  ServerError,
  Unauthorized,
  Unavailable,
  ValidationError,
} from "./errors.js";
export type { ErrorDetail } from "./errors.js";
export { EventDecoder } from "./events.js";
export type { HearthEvent } from "./events.js";
export type * from "./types.js";
export type { components, paths } from "./schema.js";
