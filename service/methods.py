"""A method the contract does not list for a path answers 405 with `Allow` naming those it does.

Routing alone gets this wrong in two ways: a literal segment that a parameter also matches
(`GET /v1/worlds/import` reached `GET /v1/worlds/{world_id}` and answered 422 for a bad id),
and `Allow` listing only the methods of the first route that matched the path (`OPTIONS …/
memories/search` said `GET`). Here the most specific path template that matches — fewest
parameters — decides, from the routes as mounted.
"""

from __future__ import annotations

import re
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

from service.contract import api_routes
from service.errors import envelope

Template = tuple[re.Pattern[str], int, frozenset[str]]
"""(the path's pattern, how many parameters it has, its methods)."""


class MethodGuard:
    """ASGI middleware over the app whose routes it reads (once, on first use)."""

    def __init__(self, app: ASGIApp, *, api: Any) -> None:
        self.app = app
        self.api = api
        self._templates: list[Template] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            allowed = self.allowed(scope["path"])
            method = scope["method"]
            if allowed and method not in allowed and not (method == "HEAD" and "GET" in allowed):
                names = ", ".join(sorted(allowed))
                response = envelope(
                    405,
                    "method_not_allowed",
                    f"{method} is not one of {names}",
                    headers={"Allow": names},
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def allowed(self, path: str) -> frozenset[str]:
        """The methods of the most specific templates matching `path` (empty: no route)."""
        matches = [
            (params, methods)
            for pattern, params, methods in self.templates()
            if pattern.fullmatch(path)
        ]
        if not matches:
            return frozenset()
        fewest = min(params for params, _ in matches)
        return frozenset(m for params, methods in matches if params == fewest for m in methods)

    def templates(self) -> list[Template]:
        if self._templates is None:
            by_path: dict[str, set[str]] = {}
            for route in api_routes(self.api):
                by_path.setdefault(route.path_format, set()).update(route.methods or ())
            self._templates = [_template(path, methods) for path, methods in by_path.items()]
        return self._templates


def _template(path: str, methods: set[str]) -> Template:
    parts = re.split(r"(\{[^}]+\})", path)
    pattern = "".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts)
    return re.compile(pattern), sum(p.startswith("{") for p in parts), frozenset(methods)
