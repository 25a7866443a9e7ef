"""CORS per world: a browser game served from its own origin may call its world's routes.

The admin lists a world's allowed origins in its settings (`cors_origins`, none by default;
only the admin key may change settings). For a request under `/v1/worlds/{world_id}/…` that
carries an `Origin` the world allows, a preflight (`OPTIONS` with
`Access-Control-Request-Method`) is answered 204 with the methods and headers the API takes,
and every other answer gets `Access-Control-Allow-Origin` (that origin, never `*`) and the
headers a client reads (`Retry-After`, `X-Request-ID`, `Idempotent-Replayed`). An origin the
world does not list gets no CORS header, so the browser keeps the answer from the page; the
server still answers the request itself as it would without an `Origin` (keys, not origins,
are what authorise). Credentials (cookies) are never allowed: keys travel in `Authorization`.

Origins are read from the database at most every CACHE_S per world and process, so an
admin's change reaches every process within that time.
"""

from __future__ import annotations

import re
import threading
import time
import uuid

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from db.models import World

CACHE_S = 5.0
WORLD_PATH = re.compile(r"^/v1/worlds/([0-9a-fA-F-]{36})(/|$)")
ALLOW_METHODS = "GET, POST, PUT, PATCH, DELETE"
ALLOW_HEADERS = "Authorization, Content-Type, Idempotency-Key, Last-Event-ID, X-Request-ID"
EXPOSE_HEADERS = "Retry-After, X-Request-ID, Idempotent-Replayed"
MAX_AGE_S = "600"


class WorldCors:
    """ASGI middleware answering preflights and marking answers for the origins a world lists."""

    def __init__(self, app: ASGIApp, *, sessions: sessionmaker[Session]) -> None:
        self.app = app
        self.sessions = sessions
        self._cache: dict[uuid.UUID, tuple[float, frozenset[str]]] = {}
        self._lock = threading.Lock()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        origin = _header(scope, b"origin") if scope["type"] == "http" else None
        match = WORLD_PATH.match(scope.get("path", "")) if origin else None
        if origin is None or match is None:
            await self.app(scope, receive, send)
            return
        try:
            world_id = uuid.UUID(match.group(1))
        except ValueError:
            await self.app(scope, receive, send)
            return
        allowed = origin in await run_in_threadpool(self.origins, world_id)
        preflight = scope["method"] == "OPTIONS" and _header(
            scope, b"access-control-request-method"
        )
        if preflight:
            await _preflight(send, origin if allowed else None)
            return
        if not allowed:
            await self.app(scope, receive, send)
            return

        async def marked(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [
                    (b"access-control-allow-origin", origin.encode()),
                    (b"access-control-expose-headers", EXPOSE_HEADERS.encode()),
                    (b"vary", b"Origin"),
                ]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, marked)

    def origins(self, world_id: uuid.UUID) -> frozenset[str]:
        """The origins the world allows (cached for CACHE_S; an unknown world allows none)."""
        now = time.monotonic()
        with self._lock:
            cached = self._cache.get(world_id)
        if cached is not None and now - cached[0] < CACHE_S:
            return cached[1]
        try:
            with self.sessions() as session:
                settings = session.scalar(sa.select(World.settings).where(World.id == world_id))
        except sa.exc.SQLAlchemyError:
            return frozenset()  # the route itself answers 503 for a database that is down
        listed = (settings or {}).get("cors_origins") or []
        origins = frozenset(o for o in listed if isinstance(o, str))
        with self._lock:
            self._cache[world_id] = (now, origins)
        return origins


async def _preflight(send: Send, origin: str | None) -> None:
    """204 with what the API takes for an allowed origin; 204 without CORS headers otherwise
    (the browser then refuses the request it asked about)."""
    headers = [(b"vary", b"Origin"), (b"content-length", b"0")]
    if origin is not None:
        headers += [
            (b"access-control-allow-origin", origin.encode()),
            (b"access-control-allow-methods", ALLOW_METHODS.encode()),
            (b"access-control-allow-headers", ALLOW_HEADERS.encode()),
            (b"access-control-max-age", MAX_AGE_S.encode()),
        ]
    await send({"type": "http.response.start", "status": 204, "headers": headers})
    await send({"type": "http.response.body", "body": b""})


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return str(value.decode("latin-1"))
    return None
