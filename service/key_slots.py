"""What one key may hold at once: requests in flight and open event streams, per API process.

A rate limit bounds how many requests a key starts per minute, not how many it holds: 150
requests sent at once (inside a burst allowance of 200) each took a thread and a database
connection, and every other world's request queued behind them for the pool (503 after 30 s).
This outermost-but-one ASGI middleware counts, per key, the requests being served and the
event streams open, and answers past `HEARTH_MAX_REQUESTS_PER_KEY` (8) or
`HEARTH_MAX_STREAMS_PER_KEY` (32) with 429 `too_many_at_once` and `Retry-After: 1` at once,
before the request takes a thread or a connection. The key is told apart by a hash of its
bearer token, so the check needs no database; a wrong key is refused by authentication soon
after and frees its slot.

The arithmetic (docs/scaling.md): each process has `HEARTH_DB_POOL_SIZE` connections and as
many again of overflow; one key holds at most `max_requests_per_key` of them, so one bursting
key leaves `2 × pool − max_requests_per_key` (20 − 8 = 12 by default) for every other world.
A stream holds no connection between its polls.
"""

from __future__ import annotations

import hashlib
import threading
from collections import Counter

from starlette.types import ASGIApp, Receive, Scope, Send

from service.errors import envelope

RETRY_AFTER_S = 1
"""A request in flight usually ends within a second; a stream's slot frees when it closes."""
STREAM_SUFFIX = "/events"


class Slots:
    """A count per key under a cap; thread-safe (streams end in worker threads too)."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self._held: Counter[str] = Counter()
        self._lock = threading.Lock()

    def take(self, key: str) -> bool:
        with self._lock:
            if self._held[key] >= self.cap:
                return False
            self._held[key] += 1
            return True

    def give_back(self, key: str) -> None:
        with self._lock:
            self._held[key] -= 1
            if self._held[key] <= 0:
                del self._held[key]

    def held(self, key: str) -> int:
        with self._lock:
            return self._held[key]


class KeySlots:
    """ASGI middleware: past its cap a key's request (or stream) is a 429, not a queue."""

    def __init__(self, app: ASGIApp, *, max_requests: int, max_streams: int) -> None:
        self.app = app
        self.requests = Slots(max_requests)
        self.streams = Slots(max_streams)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        key = _key(scope) if scope["type"] == "http" else None
        if key is None:
            await self.app(scope, receive, send)
            return
        stream = scope.get("path", "").endswith(STREAM_SUFFIX)
        slots = self.streams if stream else self.requests
        if not slots.take(key):
            what = f"{slots.cap} open event streams" if stream else f"{slots.cap} requests at once"
            response = envelope(
                429,
                "too_many_at_once",
                f"this key already holds {what}; retry when one ends",
                headers={"Retry-After": str(RETRY_AFTER_S)},
            )
            await response(scope, receive, send)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            slots.give_back(key)


def _key(scope: Scope) -> str | None:
    """A short hash of the bearer token, or None for a request without one."""
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            scheme, _, token = value.partition(b" ")
            if scheme.lower() == b"bearer" and token.strip():
                return hashlib.sha256(token.strip()).hexdigest()[:32]
    return None
