"""A real HTTP server speaking the OpenAI wire format, for exercising the real `openai` client.

It listens on 127.0.0.1 on a free port, in a background thread, and answers
`POST /v1/chat/completions` and `POST /v1/embeddings` from scripts: a queue of `Step`s per
route (each a reply or a fault: 429 with retry-after, 5xx, a 400 rejecting `response_format`,
a slow answer, a malformed body), then a responder callable, then a default (deterministic
hash embeddings; chat answers 400 "no scripted response" so a missing script is obvious).
`faults` (e.g. `Flaky`) may answer any request with a fault first, or slow its answer down.
Every request body is kept and counted per route.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import random
import struct
import threading
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

CHAT = "/v1/chat/completions"
EMBEDDINGS = "/v1/embeddings"
DEFAULT_DIMENSION = 8
CHARS_PER_TOKEN = 4
SHUTDOWN_POLL_S = 0.01
"""How often the serving loop checks for shutdown: short, so each test's server stops at once."""

Responder = Callable[[dict[str, Any]], str]
VectorResponder = Callable[[dict[str, Any]], list[list[float]]]
Faults = Callable[[str], "Step | None"]
"""Given the route, a fault to answer with instead (or a `slow` step: the answer, delayed)."""


@dataclass(frozen=True)
class Step:
    """One scripted answer: content (chat) or vectors (embeddings), or a fault."""

    content: str | None = None
    vectors: list[list[float]] | None = None
    status: int = 200
    error: str = ""
    headers: tuple[tuple[str, str], ...] = ()
    delay_s: float = 0.0
    raw_body: bytes | None = None
    usage: tuple[int, int] | None = None
    omit_usage: bool = False
    refusal: str | None = None
    finish_reason: str = "stop"


def reply(content: str, *, usage: tuple[int, int] | None = None, omit_usage: bool = False) -> Step:
    return Step(content=content, usage=usage, omit_usage=omit_usage)


def refusal(text: str) -> Step:
    return Step(content=None, refusal=text)


def vectors(rows: list[list[float]]) -> Step:
    return Step(vectors=rows)


def rate_limited(retry_after_s: float = 0) -> Step:
    headers = (("retry-after", f"{retry_after_s}"),)
    return Step(status=429, error="Rate limit reached", headers=headers)


def server_error(status: int = 500) -> Step:
    return Step(status=status, error="The server had an error while processing your request")


def response_format_unsupported() -> Step:
    return Step(status=400, error="response_format of type json_schema is not supported")


def bad_request(message: str) -> Step:
    return Step(status=400, error=message)


def slow(delay_s: float, content: str = "{}") -> Step:
    return Step(content=content, delay_s=delay_s)


def malformed_body() -> Step:
    return Step(raw_body=b'{"id": "chatcmpl-broken", "choices": [')


class Flaky:
    """A model endpoint that fails a share of its requests, in turn with a 500, a 429 and a
    slow answer; seeded, so a run's faults repeat."""

    def __init__(self, rate: float, *, seed: int, slow_s: float = 1.0) -> None:
        self.rate, self.slow_s = rate, slow_s
        self.injected = 0
        self._rng = random.Random(seed)
        self._lock = threading.Lock()

    def __call__(self, route: str) -> Step | None:
        with self._lock:
            if self._rng.random() >= self.rate:
                return None
            self.injected += 1
            kind = self.injected % 3
        if kind == 0:
            return server_error(500)
        return rate_limited(0) if kind == 1 else Step(delay_s=self.slow_s)


def hash_vector(text: str, dimension: int) -> list[float]:
    """A unit vector determined by `text` alone, so equal texts embed equally across runs."""
    digest = b""
    counter = 0
    while len(digest) < dimension * 4:
        digest += hashlib.sha256(f"{counter}:{text}".encode()).digest()
        counter += 1
    raw = [value / 2**31 - 1 for value in struct.unpack(f"<{dimension}I", digest[: dimension * 4])]
    norm = math.sqrt(sum(value * value for value in raw)) or 1.0
    return [value / norm for value in raw]


class FakeOpenAI:
    """The server and its scripts; use as a context manager or `start()` / `close()`."""

    def __init__(
        self,
        *,
        chat_responder: Responder | None = None,
        embed_responder: VectorResponder | None = None,
        faults: Faults | None = None,
    ) -> None:
        self.chat_responder = chat_responder
        self.embed_responder = embed_responder
        self.faults = faults
        self._scripts: dict[str, deque[Step]] = defaultdict(deque)
        self._requests: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": SHUTDOWN_POLL_S},
            daemon=True,
        )

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def script_chat(self, *steps: Step | str) -> None:
        """Queue chat answers; a plain string is a normal reply with that content."""
        self._script(CHAT, [reply(step) if isinstance(step, str) else step for step in steps])

    def script_embeddings(self, *steps: Step) -> None:
        self._script(EMBEDDINGS, list(steps))

    def calls(self, route: str = CHAT) -> int:
        with self._lock:
            return len(self._requests[route])

    def requests(self, route: str = CHAT) -> list[dict[str, Any]]:
        with self._lock:
            return list(self._requests[route])

    def start(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def close(self) -> None:
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()

    def __enter__(self) -> FakeOpenAI:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _script(self, route: str, steps: list[Step]) -> None:
        with self._lock:
            self._scripts[route].extend(steps)

    def _next(self, route: str, body: dict[str, Any]) -> Step:
        fault = self.faults(route) if self.faults is not None else None
        if fault is not None and fault.status != 200:
            with self._lock:
                self._requests[route].append(body)
            return fault
        step = self._answer(route, body)
        return replace(step, delay_s=step.delay_s + fault.delay_s) if fault else step

    def _answer(self, route: str, body: dict[str, Any]) -> Step:
        with self._lock:
            self._requests[route].append(body)
            if self._scripts[route]:
                return self._scripts[route].popleft()
        if route == CHAT and self.chat_responder is not None:
            return reply(self.chat_responder(body))
        if route == EMBEDDINGS:
            if self.embed_responder is not None:
                return vectors(self.embed_responder(body))
            dimension = int(body.get("dimensions") or DEFAULT_DIMENSION)
            return vectors([hash_vector(text, dimension) for text in _inputs(body)])
        return bad_request("fake server: no scripted response left")

    def _wait(self, seconds: float) -> None:
        self._stopping.wait(seconds)


def _inputs(body: dict[str, Any]) -> list[str]:
    value = body.get("input", [])
    return [value] if isinstance(value, str) else [str(item) for item in value]


def _chat_payload(step: Step, body: dict[str, Any]) -> dict[str, Any]:
    prompt_chars = sum(len(str(m.get("content", ""))) for m in body.get("messages", []))
    tokens = step.usage or (
        math.ceil(prompt_chars / CHARS_PER_TOKEN),
        math.ceil(len(step.content or "") / CHARS_PER_TOKEN),
    )
    payload: dict[str, Any] = {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 0,
        "model": body.get("model", "fake-model"),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": step.content, "refusal": step.refusal},
                "finish_reason": step.finish_reason,
            }
        ],
    }
    if not step.omit_usage:
        payload["usage"] = {
            "prompt_tokens": tokens[0],
            "completion_tokens": tokens[1],
            "total_tokens": sum(tokens),
        }
    return payload


def _embedding_payload(step: Step, body: dict[str, Any]) -> dict[str, Any]:
    base64_wanted = body.get("encoding_format") == "base64"
    data = [
        {
            "object": "embedding",
            "index": index,
            "embedding": _b64(row) if base64_wanted else row,
        }
        for index, row in enumerate(step.vectors or [])
    ]
    tokens = sum(math.ceil(len(text) / CHARS_PER_TOKEN) for text in _inputs(body))
    return {
        "object": "list",
        "data": data,
        "model": body.get("model", "fake-embedding"),
        "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
    }


def _b64(row: list[float]) -> str:
    return base64.b64encode(struct.pack(f"<{len(row)}f", *row)).decode()


def _handler_for(fake: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            route = self.path.split("?", 1)[0]
            if route not in (CHAT, EMBEDDINGS):
                self._send(404, _error_body("no such route"))
                return
            step = fake._next(route, body)
            if step.delay_s:
                fake._wait(step.delay_s)
            if step.raw_body is not None:
                self._send(step.status, step.raw_body)
            elif step.status != 200:
                self._send(step.status, _error_body(step.error), step.headers)
            else:
                make = _chat_payload if route == CHAT else _embedding_payload
                self._send(200, json.dumps(make(step, body)).encode(), step.headers)

        def _send(
            self, status: int, payload: bytes, headers: tuple[tuple[str, str], ...] = ()
        ) -> None:
            try:
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                for name, value in headers:
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test): nothing left to tell it

        def log_message(self, format: str, *args: Any) -> None:
            return None

    return Handler


def _error_body(message: str) -> bytes:
    return json.dumps({"error": {"message": message, "type": "fake_error", "code": None}}).encode()
