"""Every text a client can send fits the columns it reaches: each request string is bounded in
its schema (found by walking the OpenAPI document, not a hand list), and a body with one field
at its longest is never a 5xx (`value too long for type character varying(200)` was a 500 for
a chat's player and persona, stored joined as the player's label).

The walk writes through every operation, so a field that reaches a bounded column (`String(n)`
in `db/models`) with a longer bound in its schema fails here, whichever column it is."""

from __future__ import annotations

import re
from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient

from cognition.player_chat import player_label
from db.models import Base
from service.schemas.chat import MAX_PERSONA, MAX_PLAYER
from tests.service.api import create_agent, fields, put_map, small_map, url
from tests.service.test_text_fields import (
    _leaf,
    _operations,
    _resolve,
    _sample,
    _text_paths,
    reachable,
)

__all__ = ["reachable"]

Schema = dict[str, Any]
LABEL_COLUMNS = {
    ("conversations", "partner_player"),
    ("utterances", "speaker_player"),
    ("relationships", "other_name"),
    ("reaction_decisions", "talk_to"),
}
"""Where a player's label (`cognition.player_chat.player_label`) is stored."""


def _longest(schema: Schema) -> str | None:
    """A value of the schema's maxLength that its pattern accepts, or None (a time, a day)."""
    if "maxLength" not in schema:
        return None
    length = schema["maxLength"]
    for letter in ("a", "é"):
        value = letter * length
        if re.fullmatch(schema.get("pattern", ".*"), value, flags=re.DOTALL):
            return value
    return None


def _minimal(schema: Schema, spec: Schema, agent_id: str) -> Any:
    """The smallest body the schema takes: required fields only, ids of the real agent."""
    schema = _resolve(schema, spec)
    if schema.get("type") == "object":
        required = schema.get("required", [])
        properties = schema.get("properties", {})
        return {name: _minimal(properties[name], spec, agent_id) for name in required}
    if schema.get("type") == "array":
        return [_minimal(schema.get("items", {}), spec, agent_id)] * schema.get("minItems", 0)
    if schema.get("type") == "string" and schema.get("format") == "uuid":
        return agent_id
    return _sample(schema, spec)


def _at_path(
    schema: Schema, spec: Schema, path: tuple[str | int, ...], value: str, agent_id: str
) -> Any:
    """The minimal body with `value` at `path` (each object on the way minimal too)."""
    if not path:
        return value
    schema = _resolve(schema, spec)
    head, rest = path[0], path[1:]
    if isinstance(head, int):
        return [_at_path(schema.get("items", {}), spec, rest, value, agent_id)]
    body = _minimal(schema, spec, agent_id)
    body[head] = _at_path(schema["properties"][head], spec, rest, value, agent_id)
    return body


def _bounded(schema: Schema) -> bool:
    """A maxLength, or a pattern without unbounded repetition (a game time, a day)."""
    pattern = schema.get("pattern")
    outside_classes = re.sub(r"\[[^\]]*\]", "", pattern or "")
    fixed = pattern is not None and not re.search(r"[*+]|,\}", outside_classes)
    return "maxLength" in schema or fixed


def test_every_request_string_has_a_bound(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    unbounded = []
    for route, method, operation in _operations(spec):
        content = operation.get("requestBody", {}).get("content", {})
        schemas = [c["schema"] for t, c in content.items() if t == "application/json"]
        schemas += [
            p["schema"] for p in operation.get("parameters", []) if p["in"] in ("query", "header")
        ]
        for schema in schemas:
            for path in _text_paths(schema, spec):
                leaf = _leaf(schema, path, spec)
                if leaf is not None and not _bounded(leaf):
                    unbounded.append(f"{method.upper()} {route} {'.'.join(map(str, path))}")
    assert unbounded == [], "\n".join(unbounded)


def test_a_field_at_its_longest_is_never_a_5xx(
    client: TestClient, reachable: tuple[dict[str, str], dict[str, str]]
) -> None:
    """Each body's text fields in turn at their maxLength, the rest as small as the schema
    allows, on a world with a map: stored (2xx) or refused for another reason, never a 5xx."""
    ids, headers = reachable
    assert put_map(client, {"id": ids["world_id"], "headers": headers}, small_map()).is_success
    spec = client.get("/openapi.json").json()
    checked, stored = 0, 0
    for route, method, operation in _operations(spec):
        content = operation.get("requestBody", {}).get("content", {})
        if "application/json" not in content or method == "delete":
            continue
        schema = content["application/json"]["schema"]
        for path in _text_paths(schema, spec):
            leaf = _leaf(schema, path, spec)
            value = _longest(leaf) if leaf is not None else None
            if value is None:
                continue
            url = route.format(**ids)
            body = _at_path(schema, spec, path, value, ids["agent_id"])
            response = client.request(method, url, json=body, headers=headers)
            where = (method, route, ".".join(map(str, path)), response.text[:300])
            assert response.status_code < 500, where
            checked += 1
            stored += response.is_success
    assert checked >= 40
    assert stored >= 20  # most reach their columns (the rest name what the world lacks)


def test_a_players_label_fits_every_column_it_is_stored_in() -> None:
    longest = len(player_label("p" * MAX_PLAYER, "q" * MAX_PERSONA))
    for table, column in LABEL_COLUMNS:
        kind = Base.metadata.tables[table].c[column].type
        assert isinstance(kind, sa.String) and kind.length is not None
        assert longest <= kind.length, (table, column)


def test_an_over_long_player_or_persona_is_a_422_naming_it(
    client: TestClient, world: dict[str, Any]
) -> None:
    agent = create_agent(client, world, name="Rosa")
    chat = url(world, f"/agents/{agent['id']}/chat")
    for body, field in (
        ({"player": "P", "persona": "a" * 250, "message": "hi"}, "body.persona"),
        ({"player": "p" * 200, "persona": "a" * 10, "message": "hi"}, "body.player"),
    ):
        response = client.post(chat, json=body, headers=world["headers"])
        assert response.status_code == 422, response.text
        assert field in fields(response)
    longest = {"player": "p" * MAX_PLAYER, "persona": "q" * MAX_PERSONA, "message": "hi"}
    response = client.post(chat, json=longest, headers=world["headers"])
    assert response.status_code == 200, response.text
