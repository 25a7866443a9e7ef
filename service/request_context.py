"""Per request: an id, a latency observation by route template, and a log line.

Outermost ASGI middleware. The request id is the caller's `X-Request-ID` when it is a sane
token (≤ 64 characters of letters, digits, `-`, `_`, `.`, `:`), else a new one; it is set in
`db.logs.request_id` for every log record and the error envelope, and returned as the
`X-Request-ID` response header. Latency is recorded under the route's template
(`/v1/worlds/{world_id}/step`), so worlds and agents do not multiply the series; a path no
route matches is `unmatched`. An exception no handler took becomes the 500 envelope here, so
even that answer carries the id. Every 5xx answer carries `Connection: close`: after a failure
the server may be in no state to serve that connection again, and a keep-alive client would
otherwise send its next request into it (uvicorn closes the connection on that header).
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from db import logs
from db.metrics import metrics
from service.errors import unexpected_error

log = logging.getLogger("hearth.access")
HEADER = b"x-request-id"
UNMATCHED = "unmatched"
_SANE = re.compile(rb"[A-Za-z0-9._:-]{1,64}")


class RequestContext:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        rid = _request_id(scope)
        token = logs.request_id.set(rid)
        started = time.perf_counter()
        status = {"code": 500, "sent": False}

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                status["code"], status["sent"] = message["status"], True
                headers = [*message.get("headers", []), (HEADER, rid.encode())]
                if message["status"] >= 500:
                    headers = [(k, v) for k, v in headers if k.lower() != b"connection"]
                    headers.append((b"connection", b"close"))
                message["headers"] = headers
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        except Exception as exc:
            if status["sent"]:
                raise
            response = unexpected_error(scope.get("method", ""), scope.get("path", ""), exc)
            await response(scope, receive, send_with_id)
        finally:
            _record(scope, int(status["code"]), time.perf_counter() - started)
            logs.request_id.reset(token)


def _request_id(scope: Scope) -> str:
    for name, value in scope.get("headers", []):
        if name == HEADER and _SANE.fullmatch(value):
            return str(value.decode())
    return uuid.uuid4().hex


def _record(scope: Scope, status: int, seconds: float) -> None:
    route: Any = scope.get("route")
    template = getattr(route, "path", None) or UNMATCHED
    method = scope.get("method", "")
    metrics().requests.labels(template, method, str(status)).observe(seconds)
    if log.isEnabledFor(logging.INFO):
        log.info(
            "%s %s %d %.1f ms",
            method,
            template,
            status,
            seconds * 1000,
            extra={
                "method": method,
                "route": template,
                "path": scope.get("path"),
                "status": status,
                "duration_ms": round(seconds * 1000, 2),
            },
        )
