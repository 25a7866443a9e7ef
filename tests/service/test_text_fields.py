"""Every text a client can send, found by walking the OpenAPI document (not a hand list): a NUL
in it is a 422 naming that field, never a 500 (PostgreSQL cannot store NUL), and the schema
itself says so (each string's pattern refuses NUL), so a fuzzer's valid text is stored."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.service.api import create_world

NUL_TEXT = "x\x00y"
SAMPLES = {
    "2023-02-13T07:00:00": "game time",
    "2023-02-13": "game day",
}
Schema = dict[str, Any]
Path = tuple[str | int, ...]


def _refs(schema: Schema) -> str:
    return str(schema.get("$ref", "")) or "".join(
        str(b.get("$ref", "")) for b in schema.get("anyOf", [])
    )


def _resolve(schema: Schema, spec: Schema) -> Schema:
    while "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    branches = [b for b in schema.get("anyOf", []) if b.get("type") != "null"]
    return _resolve(branches[0], spec) if branches else schema


def _sample(schema: Schema, spec: Schema, seen: frozenset[str] = frozenset()) -> Any:
    """A small value the schema accepts (enough for a body that fails only where we poison)."""
    ref = _refs(schema)
    if ref and ref in seen:  # a recursive schema (a place's children): stop at one level
        return [] if _resolve(schema, spec).get("type") == "array" else None
    seen = seen | {ref} if ref else seen
    schema = _resolve(schema, spec)
    if "enum" in schema:
        return schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    kind = schema.get("type")
    if kind == "object":
        properties = schema.get("properties", {}).items()
        return {name: _sample(sub, spec, seen) for name, sub in properties}
    if kind == "array":
        item = _sample(schema.get("items", {}), spec, seen)
        return [] if item is None else [item] * max(1, schema.get("minItems", 1))
    if kind == "string":
        if schema.get("format") == "uuid":
            return str(uuid.uuid4())
        pattern = schema.get("pattern")
        for sample in SAMPLES:
            if pattern and re.fullmatch(pattern, sample):
                return sample
        return "a"
    if kind in ("integer", "number"):
        return max(schema.get("minimum", 1), 1)
    if kind == "boolean":
        return False
    return None


def _text_paths(
    schema: Schema,
    spec: Schema,
    path: tuple[str | int, ...] = (),
    seen: frozenset[str] = frozenset(),
) -> Iterator[Any]:
    """The paths of every free string inside a body of this schema (free-form objects too)."""
    ref = _refs(schema)
    if ref and ref in seen:
        return
    seen = seen | {ref} if ref else seen
    schema = _resolve(schema, spec)
    kind = schema.get("type")
    if kind == "object":
        for name, sub in schema.get("properties", {}).items():
            yield from _text_paths(sub, spec, (*path, name), seen)
        if schema.get("additionalProperties") not in (None, False) and not schema.get("properties"):
            yield (*path, "key")
    elif kind == "array":
        yield from _text_paths(schema.get("items", {}), spec, (*path, 0), seen)
    elif kind == "string" and "enum" not in schema and schema.get("format") != "uuid":
        yield path


def _poisoned(body: Any, path: Path) -> Any:
    if not path:
        return NUL_TEXT
    head, rest = path[0], path[1:]
    if isinstance(body, list):
        return [_poisoned(body[0] if body else None, rest)]
    body = dict(body or {})
    body[head] = _poisoned(body.get(head), rest)
    return body


def _operations(spec: Schema) -> Iterator[tuple[str, str, Schema]]:
    for route, methods in spec["paths"].items():
        for method, operation in methods.items():
            yield route, method, operation


@pytest.fixture
def reachable(
    client: TestClient, admin_headers: dict[str, str]
) -> tuple[dict[str, str], dict[str, str]]:
    """Real ids for every path parameter, and the admin key that reaches every route."""
    world = create_world(client, admin_headers)
    agent = client.post(
        f"/v1/worlds/{world['id']}/agents", json={"name": "Rosa"}, headers=admin_headers
    ).json()
    ids = {
        "world_id": world["id"],
        "agent_id": agent["id"],
        "memory_id": "1",
        "key_id": str(uuid.uuid4()),
    }
    return ids, admin_headers


def test_every_body_text_field_refuses_nul_and_names_it(
    client: TestClient, reachable: tuple[dict[str, str], dict[str, str]]
) -> None:
    ids, headers = reachable
    spec = client.get("/openapi.json").json()
    checked = 0
    for route, method, operation in _operations(spec):
        content = operation.get("requestBody", {}).get("content", {})
        if "application/json" not in content:
            continue
        schema = content["application/json"]["schema"]
        base = _sample(schema, spec)
        for path in _text_paths(schema, spec):
            dotted = ".".join(str(p) for p in ("body", *path))
            body = _poisoned(base, path)
            response = client.request(method, route.format(**ids), json=body, headers=headers)
            assert response.status_code == 422, (method, route, dotted, response.text)
            blamed = {d["field"] for d in response.json()["error"]["details"]}
            assert any(dotted == f or dotted.startswith(f + ".") for f in blamed), (
                method,
                route,
                dotted,
                blamed,
            )
            checked += 1
    assert checked >= 40  # every persona field, memory, map, step, chat, clock … text


def test_every_text_parameter_refuses_nul(
    client: TestClient, reachable: tuple[dict[str, str], dict[str, str]]
) -> None:
    ids, headers = reachable
    spec = client.get("/openapi.json").json()
    checked = 0
    for route, method, operation in _operations(spec):
        for parameter in operation.get("parameters", []):
            schema = _resolve(parameter["schema"], spec)
            where, name = parameter["in"], parameter["name"]
            if schema.get("type") != "string" or where != "query":
                continue  # (HTTP cannot carry a NUL in a header; their schemas are checked below)
            response = client.request(
                method, route.format(**ids), params={name: NUL_TEXT}, headers=headers, json={}
            )
            assert response.status_code == 422, (method, route, name, response.text)
            blamed = {d["field"] for d in response.json()["error"]["details"]}
            assert f"{where}.{name}" in blamed, (method, route, name, blamed)
            checked += 1
    assert checked >= 5


def test_every_request_string_schema_says_it_refuses_nul(client: TestClient) -> None:
    """The contract tells the truth: a client (or a fuzzer) reads the rule from the schema.
    (A world import's body is a file, not JSON: a raw NUL in it is not JSON, a 422.)"""
    spec = client.get("/openapi.json").json()
    loose = []
    for route, method, operation in _operations(spec):
        content = operation.get("requestBody", {}).get("content", {})
        schemas = [c["schema"] for t, c in content.items() if t == "application/json"]
        schemas += [
            p["schema"] for p in operation.get("parameters", []) if p["in"] in ("query", "header")
        ]
        for schema in schemas:
            for path in _text_paths(schema, spec):
                leaf = _leaf(schema, path, spec)
                if leaf is None:
                    continue  # a free-form object: its validator refuses NUL (tested above)
                pattern = leaf.get("pattern")
                if pattern is None or re.search(pattern, NUL_TEXT):
                    loose.append(f"{method.upper()} {route} {'.'.join(map(str, path))}")
    assert loose == []


def _leaf(schema: Schema, path: Path, spec: Schema) -> Schema | None:
    for part in path:
        schema = _resolve(schema, spec)
        if part == "key" and not schema.get("properties"):
            return None
        schema = schema["items"] if isinstance(part, int) else schema["properties"][part]
    return _resolve(schema, spec)
