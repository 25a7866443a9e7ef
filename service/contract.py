"""The OpenAPI document tells the truth about errors and events.

- **Error statuses per operation**, read off what the route depends on rather than written by
  hand: a key (401, and 429 with `Retry-After` past its rate limit), the admin key (403), a
  world or an agent in the path (404), an
  `Idempotency-Key` (409 `idempotency_conflict`), a body (413 from the size limit, 422),
  any parameter (422), the database (503 `unavailable`, with `Retry-After`); plus what a route
  declares itself (409 name conflicts, 503 from the model). Each names the one error envelope.
- **The event stream's messages**: every event type's payload (`service.schemas.events`) is a
  component, and `WorldEvent` is one variant per type (`event` the type, `data` the payload),
  linked from the stream's operation as `x-sse-events`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from fastapi import FastAPI, routing
from fastapi.dependencies.models import Dependant
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from service import deps
from service.errors import ERROR_RESPONSES, STATUS_CODES, ErrorEnvelope
from service.schemas.events import EVENT_PAYLOADS

REF = "#/components/schemas/{model}"
ERRORS_BY_DEPENDENCY: dict[Callable[..., Any], tuple[int, ...]] = {
    deps._caller: (401, 429),
    deps._admin: (403,),
    deps._world: (404,),
    deps._agent: (404,),
    deps._idempotency: (409,),
    deps._session: (503,),
}
ERROR_DESCRIPTIONS = {
    401: "no key, or an unknown or revoked one",
    403: "this route needs the admin key",
    404: "no such world or agent (or not this key's)",
    409: "conflicts with the current state (see the code: `idempotency_conflict`, `conflict`, …)",
    413: "the body (or a batch in it) is too large",
    422: "a field is invalid: `details` names it (`body.…`, `query.…`, `path.…`, `header.…`)",
    429: "this key, or this address's wrong keys, is over its rate limit (`rate_limited`): "
    "retry after `Retry-After` seconds",
    503: "a dependency (the model, the database) is unavailable: retry later",
}
RETRY_AFTER = {
    "description": "whole seconds until the key's next request fits its allowance",
    "required": True,
    "schema": {"type": "string", "pattern": "^[1-9][0-9]*$"},
}


RETRY_AFTER = {
    "description": "seconds to wait before trying again",
    "required": True,
    "schema": {"type": "integer", "minimum": 0},
}


def install_contract(app: FastAPI) -> None:
    """Serve the document built here at /openapi.json (built once, on first use)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = build(app)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def build(app: FastAPI) -> dict[str, Any]:
    spec = get_openapi(
        title=app.title, version=app.version, description=app.description, routes=app.routes
    )
    components = spec.setdefault("components", {}).setdefault("schemas", {})
    components.update(_schemas([ErrorEnvelope, *EVENT_PAYLOADS.values()]))
    components["WorldEvent"] = _world_event()
    for route in api_routes(app):
        for method in route.methods or ():
            operation = spec["paths"][route.path_format][method.lower()]
            _document_errors(operation, route)
            if route.name == "stream":
                operation["x-sse-events"] = {"$ref": REF.format(model="WorldEvent")}
                stream = operation["responses"]["200"]["content"]["text/event-stream"]
                stream["schema"] = _sse_message()
    return spec


def api_routes(app: FastAPI) -> list[Any]:
    """The app's API routes as mounted (with their routers' prefixes and defaults)."""
    return [
        context
        for context in routing.iter_route_contexts(app.routes)
        if isinstance(context.original_route, APIRoute) and context.include_in_schema
    ]


def error_statuses(route: Any) -> set[int]:
    """The error statuses a route can answer, from its dependencies, parameters and body."""
    statuses: set[int] = set()
    for dependant in _walk(route.dependant):
        if dependant.call in ERRORS_BY_DEPENDENCY:
            statuses.update(ERRORS_BY_DEPENDENCY[dependant.call])
        if dependant.query_params or dependant.path_params or dependant.header_params:
            statuses.add(422)
        if dependant.body_params:
            statuses.update((413, 422))
    declared = {int(code) for code in route.responses if code not in ERROR_RESPONSES}
    return statuses | {code for code in declared if code >= 400}


def _document_errors(operation: dict[str, Any], route: Any) -> None:
    responses = operation["responses"]
    for code in [c for c in responses if c.isdigit() and int(c) >= 400]:
        if int(code) not in error_statuses(route):
            del responses[code]
    for status in sorted(error_statuses(route)):
        entry = responses.setdefault(str(status), {})
        if status == 503 and "content" in entry:
            continue  # /readyz answers 503 with its own body
        entry["description"] = ERROR_DESCRIPTIONS.get(status, STATUS_CODES.get(status, "error"))
        entry["content"] = {
            "application/json": {"schema": {"$ref": REF.format(model="ErrorEnvelope")}}
        }
        if status in (429, 503):
            entry["headers"] = {"Retry-After": RETRY_AFTER}


def _walk(dependant: Dependant) -> Iterator[Dependant]:
    yield dependant
    for child in dependant.dependencies:
        yield from _walk(child)


def _schemas(models: list[type[BaseModel]]) -> dict[str, Any]:
    _, top = models_json_schema([(model, "serialization") for model in models], ref_template=REF)
    defs: dict[str, Any] = top.get("$defs", {})
    return defs


def _sse_message() -> dict[str, Any]:
    """One message of the stream as it travels: `id:`, `event:` and `data:` lines (the data a
    JSON text of the type's payload)."""
    return {
        "type": "object",
        "properties": {
            "id": {"type": "string", "pattern": "^[0-9]+$"},
            "event": {"enum": list(EVENT_PAYLOADS)},
            "data": {"type": "string", "contentMediaType": "application/json"},
        },
        "required": ["id", "event", "data"],
        "description": "See `WorldEvent` for each type's parsed payload",
    }


def _world_event() -> dict[str, Any]:
    variants = [
        {
            "type": "object",
            "title": f"{model.__name__}Message",
            "properties": {
                "id": {"type": "integer", "description": "the SSE `id:` (resume after it)"},
                "event": {"const": name, "description": "the SSE `event:`"},
                "data": {"$ref": REF.format(model=model.__name__)},
            },
            "required": ["id", "event", "data"],
        }
        for name, model in EVENT_PAYLOADS.items()
    ]
    return {
        "description": "One message of a world's event stream: `id:`, `event:` (the type) and "
        "`data:` (the payload as JSON), one variant per type.",
        "oneOf": variants,
    }
