"""A cap on request body size, answered with the error envelope before anything parses it.

The largest valid memory batch (1000 memories of 4000 ASCII characters) is about 4.1 MB of
JSON, so 8 MiB admits every valid request, with room for escaping, and stops a runaway client
before it costs the API memory. A declared `Content-Length` is judged at once; a chunked body
is read up to the limit and replayed to the app (which reads whole bodies anyway). A world
import (`POST /v1/worlds/import`) streams a whole world's file and reads it as it arrives: its
limit is IMPORT_MAX_BYTES.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from service.errors import envelope

DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024
IMPORT_MAX_BYTES = 4 * 1024**3
LARGER_LIMITS = {"/v1/worlds/import": IMPORT_MAX_BYTES}


class BodyLimit:
    """ASGI middleware: a body over `max_bytes` gets 413 `payload_too_large`."""

    def __init__(self, app: ASGIApp, *, max_bytes: int = DEFAULT_MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = LARGER_LIMITS.get(scope.get("path", ""))
        if limit is not None:
            if (_content_length(scope) or 0) > limit:
                await self._refuse(scope, receive, send)
                return
            await self.app(scope, receive, send)  # read as a stream by its route
            return
        declared = _content_length(scope)
        if declared is not None:
            if declared > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
            await self.app(scope, receive, send)
            return
        messages = await self._buffer(receive)
        if messages is None:
            await self._refuse(scope, receive, send)
            return
        await self.app(scope, _replay(messages, receive), send)

    async def _buffer(self, receive: Receive) -> list[Message] | None:
        """The body's messages, or None as soon as they pass the limit."""
        messages: list[Message] = []
        size = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                return messages
            size += len(message.get("body", b""))
            if size > self.max_bytes:
                return None
            if not message.get("more_body", False):
                return messages

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = envelope(
            413,
            "payload_too_large",
            f"the request body is larger than {self.max_bytes} bytes; split it",
        )
        await response(scope, receive, send)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def _replay(messages: list[Message], receive: Receive) -> Receive:
    """A `receive` that yields the buffered messages first, then the real channel."""
    pending = list(messages)

    async def replayed() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replayed
