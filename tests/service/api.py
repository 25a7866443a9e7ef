"""Helpers the service tests share to write and read through the API: a small map, a world's
URLs, an agent, the fields an error blames, the events so far."""

from __future__ import annotations

import copy
import json
import uuid
from typing import Any

from fastapi.testclient import TestClient

SMALL_MAP: dict[str, Any] = {
    "name": "Testville",
    "children": [
        {
            "name": "Hobbs Cafe",
            "norms": {"capacity": 20, "opening_hours": "08:00-20:00"},
            "children": [
                {"name": "counter", "children": [{"name": "coffee machine"}]},
                {"name": "kitchen", "children": [{"name": "stove"}]},
            ],
        },
        {
            "name": "Lin house",
            "children": [
                {"name": "kitchen", "children": [{"name": "stove"}, {"name": "fridge"}]},
                {"name": "bedroom", "children": [{"name": "bed", "state": "made"}]},
            ],
        },
        {"name": "park", "children": [{"name": "bench"}]},
    ],
}
SMALL_MAP_PLACES = 13


def small_map() -> dict[str, Any]:
    return copy.deepcopy(SMALL_MAP)


def url(world: dict[str, Any], path: str) -> str:
    return f"/v1/worlds/{world['id']}{path}"


def put_map(client: TestClient, world: dict[str, Any], body: dict[str, Any]) -> Any:
    return client.put(url(world, "/map"), json=body, headers=world["headers"])


def create_world(client: TestClient, admin: dict[str, str], **body: Any) -> dict[str, Any]:
    """A world made through the API with the admin key, `headers` holding its own key."""
    body.setdefault("name", "Smallville")
    body.setdefault("clock", {"mode": "driven", "start": "2023-02-13T07:00:00"})
    response = client.post("/v1/worlds", json=body, headers=admin)
    assert response.status_code == 201, response.json()
    world: dict[str, Any] = response.json()
    world["headers"] = {"Authorization": f"Bearer {world['api_key']}"}
    return world


def create_agent(client: TestClient, world: dict[str, Any], **body: Any) -> dict[str, Any]:
    """An agent of `world` made through the API (`body` as `POST …/agents` takes it)."""
    response = client.post(url(world, "/agents"), json=body, headers=world["headers"])
    assert response.status_code == 201, response.json()
    agent: dict[str, Any] = response.json()
    return agent


def agent_ids(client: TestClient, world: dict[str, Any], *names: str) -> list[uuid.UUID]:
    """Agents of `world` by name, made through the API; their ids in order."""
    return [uuid.UUID(create_agent(client, world, name=name)["id"]) for name in names]


def fields(response: Any) -> set[str]:
    """The fields an error envelope blames."""
    return {detail["field"] for detail in response.json()["error"]["details"]}


def events(client: TestClient, world: dict[str, Any], **params: Any) -> list[dict[str, Any]]:
    """The world's events so far, via `?once=true`, parsed from the SSE text."""
    response = client.get(
        url(world, "/events"), params={"once": "true", **params}, headers=world["headers"]
    )
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/event-stream")
    return parse_sse(response.text)


def parse_sse(text: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        record: dict[str, Any] = {}
        for line in block.split("\n"):
            key, _, value = line.partition(":")
            if key in ("id", "event", "data"):
                record[key] = value.removeprefix(" ")
        if "id" in record:
            found.append(
                {
                    "id": int(record["id"]),
                    "type": record.get("event"),
                    "data": json.loads(record.get("data", "null")),
                }
            )
    return found
