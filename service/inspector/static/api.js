// The inspector is one more client of the public /v1 API. The key lives in this tab's
// sessionStorage and travels only in the Authorization header: never in a URL, never a cookie.

const STORE = "hearth.inspector";

export const session = {
  get() {
    try {
      return JSON.parse(sessionStorage.getItem(STORE) || "null");
    } catch {
      return null;
    }
  },
  set(value) {
    sessionStorage.setItem(STORE, JSON.stringify(value));
  },
  clear() {
    sessionStorage.removeItem(STORE);
  },
};

/** The API's error envelope {"error": {"code", "message", "details"}} as an exception. */
export class ApiError extends Error {
  constructor(status, code, message, details = []) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }

  get fields() {
    return this.details.map((d) => d.field).filter(Boolean);
  }
}

export function query(params = {}) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === "") continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item));
  }
  const text = search.toString();
  return text ? `?${text}` : "";
}

async function failure(response) {
  try {
    const { error } = await response.json();
    return new ApiError(response.status, error.code, error.message, error.details || []);
  } catch {
    return new ApiError(response.status, "http_error", response.statusText || "request failed");
  }
}

/** One request; `key` overrides the signed-in key (the sign-in form checks a key with it). */
export async function api(path, { method = "GET", body, params, key, signal } = {}) {
  const headers = { Accept: "application/json" };
  const secret = key ?? session.get()?.key;
  if (secret) headers.Authorization = `Bearer ${secret}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path + query(params), {
    method, headers, signal, cache: "no-store", credentials: "omit",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    const error = await failure(response);
    if (response.status === 401 && key === undefined) window.dispatchEvent(new Event("hearth:signed-out"));
    throw error;
  }
  return response.status === 204 ? null : response.json();
}

/** Every item of a cursor-paged list, up to `max`. */
export async function all(path, params = {}, max = 5000) {
  const items = [];
  let cursor;
  do {
    const page = await api(path, { params: { limit: 500, ...params, cursor } });
    items.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor && items.length < max);
  return items;
}

export const world = (w, rest = "") => `/v1/worlds/${encodeURIComponent(w)}${rest}`;
export const agent = (w, a, rest = "") => world(w, `/agents/${encodeURIComponent(a)}${rest}`);
