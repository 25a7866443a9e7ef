/** Server-Sent Events read from a fetch body, for browsers and Node alike (no EventSource:
 * it cannot send the Authorization header). */

export interface HearthEvent<T = unknown> {
  /** Resume after this id with `Last-Event-ID`. */
  id: number;
  type: string;
  data: T;
}

/** Line by line: a blank line ends an event; `:` lines are comments (keep-alives). */
export class EventDecoder {
  private id: string | null = null;
  private type = "message";
  private data: string[] = [];

  feed(line: string): HearthEvent | null {
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

  private dispatch(): HearthEvent | null {
    const { id, type, data } = this;
    this.id = null;
    this.type = "message";
    this.data = [];
    if (id === null || !/^\d+$/.test(id) || data.length === 0) return null;
    const text = data.join("\n");
    let payload: unknown = text;
    try {
      payload = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { id: Number(id), type, data: payload };
  }
}

/** The events of one response body, as they arrive; `onChunk` hears every chunk (keep-alives
 * included), for an idle timeout. */
export async function* readEvents(
  body: ReadableStream<Uint8Array>,
  onChunk: () => void = () => undefined,
): AsyncGenerator<HearthEvent> {
  const reader = body.getReader();
  const text = new TextDecoder();
  const decoder = new EventDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      onChunk();
      buffer += text.decode(value, { stream: true });
      const lines = buffer.split(/\r\n|\n|\r(?!$)/); // a "\r" at the end may be half of "\r\n"
      buffer = lines.pop() ?? "";
      for (const line of lines) {
        const event = decoder.feed(line);
        if (event) yield event;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
