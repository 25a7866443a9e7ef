// An OpenAI-compatible endpoint on loopback for one local GGUF model, on node-llama-cpp's
// prebuilt llama.cpp (CPU, or CUDA/Vulkan where present): no compiler, no model hub.
//
//   node server.mjs --model FILE [--port 8088] [--threads 1] [--parallel 1] [--gpu auto|false]
//
// It serves what Hearth asks of a chat endpoint and no more: GET /v1/models, GET /health and
// POST /v1/chat/completions (not streamed) with `response_format` `json_object` or
// `json_schema` enforced by a grammar, so the answer is JSON of the asked shape by
// construction; `usage` counts the prompt and completion tokens. A schema llama.cpp's grammar
// cannot express is a 400 naming `response_format` (an OpenAI client then asks with less).
// Requests beyond --parallel wait their turn; none is refused for being slow, and one whose
// client hangs up (a timeout) is abandoned, so the model moves on to the next.

import http from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";

import { getLlama, LlamaChat } from "node-llama-cpp";

const DEFAULTS = {
  host: "127.0.0.1",
  port: "8088",
  threads: "1",
  parallel: "1",
  "context-size": "4096",
  gpu: "false",
  "max-tokens": "1024",
};
const MAX_BODY_BYTES = 4 * 1024 * 1024;

class BadRequest extends Error {
  constructor(message, param = null) {
    super(message);
    this.param = param;
  }
}

function options(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      model: { type: "string" },
      name: { type: "string" },
      host: { type: "string", default: DEFAULTS.host },
      port: { type: "string", default: DEFAULTS.port },
      threads: { type: "string", default: DEFAULTS.threads },
      parallel: { type: "string", default: DEFAULTS.parallel },
      "context-size": { type: "string", default: DEFAULTS["context-size"] },
      gpu: { type: "string", default: DEFAULTS.gpu },
      "max-tokens": { type: "string", default: DEFAULTS["max-tokens"] },
    },
  });
  if (!values.model) throw new Error("--model FILE (a .gguf file) is required");
  return {
    model: values.model,
    name: values.name ?? path.basename(values.model, ".gguf"),
    host: values.host,
    port: Number(values.port),
    threads: Number(values.threads),
    parallel: Math.max(1, Number(values.parallel)),
    contextSize: Number(values["context-size"]),
    gpu: values.gpu === "false" ? false : values.gpu,
    maxTokens: Number(values["max-tokens"]),
  };
}

/** The model, its context, a pool of sequences (one per parallel request) and grammars. */
class Engine {
  static async load(opts) {
    const llama = await getLlama({ gpu: opts.gpu, build: "never", maxThreads: opts.threads });
    const model = await llama.loadModel({ modelPath: opts.model });
    const context = await model.createContext({
      contextSize: opts.contextSize * opts.parallel,
      sequences: opts.parallel,
      threads: opts.threads,
    });
    return new Engine(llama, model, context, opts);
  }

  constructor(llama, model, context, opts) {
    this.llama = llama;
    this.model = model;
    this.opts = opts;
    this.idle = Array.from({ length: opts.parallel }, () => context.getSequence());
    this.waiting = [];
    this.grammars = new Map();
  }

  async grammar(format) {
    if (format === null) return undefined;
    const key = JSON.stringify(format);
    if (!this.grammars.has(key)) {
      const made =
        format.type === "json_object"
          ? this.llama.getGrammarFor("json")
          : this.llama.createGrammarForJsonSchema(format.schema);
      this.grammars.set(key, made);
      made.catch(() => this.grammars.delete(key));
    }
    try {
      return await this.grammars.get(key);
    } catch (error) {
      throw new BadRequest(`response_format: unsupported schema (${error.message})`, "response_format");
    }
  }

  async acquire() {
    if (this.idle.length > 0) return this.idle.pop();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(sequence) {
    const next = this.waiting.shift();
    if (next) next(sequence);
    else this.idle.push(sequence);
  }

  /** One completion: the answer text and the tokens it took. */
  async complete({ history, grammar, maxTokens, temperature, seed, signal }) {
    const sequence = await this.acquire();
    try {
      if (signal?.aborted) throw new Error("the client went away");
      await sequence.clearHistory();
      const chat = new LlamaChat({ contextSequence: sequence, autoDisposeSequence: false });
      const before = sequence.tokenMeter.getState();
      const result = await chat.generateResponse(history, { grammar, maxTokens, temperature, seed, signal });
      const used = sequence.tokenMeter.diff(before);
      const prompt = chat.chatWrapper
        .generateContextState({ chatHistory: [...history, { type: "model", response: [] }] })
        .contextText.tokenize(this.model.tokenizer).length;
      chat.dispose();
      return {
        text: result.response,
        finish: result.metadata.stopReason === "maxTokens" ? "length" : "stop",
        promptTokens: prompt,
        completionTokens: used.usedOutputTokens,
      };
    } finally {
      this.release(sequence);
    }
  }
}

function textOf(content, index) {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((part) => (part && part.type === "text" ? String(part.text ?? "") : "")).join("");
  }
  throw new BadRequest(`messages[${index}].content must be a string or text parts`, `messages[${index}].content`);
}

/** OpenAI messages as node-llama-cpp's chat history (system, user, model). */
function chatHistory(messages) {
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new BadRequest("messages must be a non-empty array", "messages");
  }
  return messages.map((message, index) => {
    const text = textOf(message?.content, index);
    switch (message?.role) {
      case "system":
      case "developer":
        return { type: "system", text };
      case "user":
        return { type: "user", text };
      case "assistant":
        return { type: "model", response: [text] };
      default:
        throw new BadRequest(`messages[${index}].role must be system, user or assistant`, `messages[${index}].role`);
    }
  });
}

/** null (free text), {type: "json_object"} or {type: "json_schema", schema}. */
function outputFormat(responseFormat) {
  if (responseFormat == null || responseFormat.type === "text") return null;
  if (responseFormat.type === "json_object") return { type: "json_object" };
  if (responseFormat.type === "json_schema") {
    const schema = responseFormat.json_schema?.schema;
    if (schema == null || typeof schema !== "object") {
      throw new BadRequest("response_format.json_schema.schema must be an object", "response_format");
    }
    return { type: "json_schema", schema };
  }
  throw new BadRequest(`response_format.type ${JSON.stringify(responseFormat.type)} is not supported`, "response_format");
}

function numberOr(value, fallback, param) {
  if (value == null) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new BadRequest(`${param} must be a number`, param);
  }
  return value;
}

async function chatCompletion(engine, body, signal) {
  if (body == null || typeof body !== "object") throw new BadRequest("the body must be a JSON object");
  if (body.stream) throw new BadRequest("stream is not supported", "stream");
  const history = chatHistory(body.messages);
  const grammar = await engine.grammar(outputFormat(body.response_format));
  const maxTokens = numberOr(body.max_completion_tokens ?? body.max_tokens, engine.opts.maxTokens, "max_tokens");
  const answer = await engine.complete({
    history,
    grammar,
    maxTokens,
    temperature: numberOr(body.temperature, 0, "temperature"),
    seed: body.seed == null ? undefined : numberOr(body.seed, 0, "seed"),
    signal,
  });
  const created = Math.floor(Date.now() / 1000);
  return {
    id: `chatcmpl-${created}-${Math.random().toString(36).slice(2, 10)}`,
    object: "chat.completion",
    created,
    model: engine.opts.name,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: answer.text, refusal: null },
        finish_reason: answer.finish,
      },
    ],
    usage: {
      prompt_tokens: answer.promptTokens,
      completion_tokens: answer.completionTokens,
      total_tokens: answer.promptTokens + answer.completionTokens,
    },
  };
}

function send(res, status, payload) {
  const body = JSON.stringify(payload);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

function sendError(res, status, message, param = null) {
  const type = status < 500 ? "invalid_request_error" : "server_error";
  send(res, status, { error: { message, type, param, code: null } });
}

async function readJson(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new BadRequest("the body is too large");
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new BadRequest("the body is not valid JSON");
  }
}

export function makeServer(engine) {
  return http.createServer(async (req, res) => {
    const url = new URL(req.url, "http://localhost");
    try {
      if (req.method === "GET" && url.pathname === "/health") {
        return send(res, 200, { status: "ok", model: engine.opts.name });
      }
      if (req.method === "GET" && url.pathname === "/v1/models") {
        const model = { id: engine.opts.name, object: "model", created: 0, owned_by: "local" };
        return send(res, 200, { object: "list", data: [model] });
      }
      if (req.method === "POST" && url.pathname === "/v1/chat/completions") {
        // a client that gave up (its timeout) frees the model for the next request
        const gone = new AbortController();
        res.on("close", () => res.writableEnded || gone.abort());
        return send(res, 200, await chatCompletion(engine, await readJson(req), gone.signal));
      }
      return sendError(res, 404, `no route ${req.method} ${url.pathname}`);
    } catch (error) {
      if (error instanceof BadRequest) return sendError(res, 400, error.message, error.param);
      console.error(error);
      return sendError(res, 500, `the model failed: ${error.message}`);
    }
  });
}

async function main() {
  const opts = options(process.argv.slice(2));
  const engine = await Engine.load(opts);
  const server = makeServer(engine);
  server.requestTimeout = 0; // a slow model's answer is still an answer
  server.listen(opts.port, opts.host, () => {
    const { port } = server.address();
    console.log(`serving ${opts.name} on http://${opts.host}:${port}/v1 (threads ${opts.threads}, parallel ${opts.parallel})`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error.message);
    process.exit(1);
  });
}
