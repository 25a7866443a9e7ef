"""Agents over HTTP: personas, seed memories, pagination, updates, deletion."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session, sessionmaker

from db.models import Memory

ISABELLA = {
    "name": "Isabella Rodriguez",
    "age": 34,
    "innate": "friendly, outgoing, hospitable",
    "background": "Isabella runs Hobbs Cafe; she loves to make people feel welcome; "
    "she is planning a Valentine's Day party",
    "lifestyle": "goes to bed around 11pm, wakes up around 6am",
}


def _create(client: TestClient, world: dict[str, Any], **body: Any) -> Any:
    return client.post(f"/v1/worlds/{world['id']}/agents", json=body, headers=world["headers"])


def test_background_phrases_become_seed_memories(
    client: TestClient, world: dict[str, Any], sessions: sessionmaker[Session]
) -> None:
    response = _create(client, world, **ISABELLA)
    assert response.status_code == 201, response.json()
    agent = response.json()
    assert agent["name"] == "Isabella Rodriguez" and agent["age"] == 34
    with sessions() as session:
        seeds = session.scalars(
            sa.select(Memory.description).where(Memory.kind == "seed").order_by(Memory.id)
        ).all()
    assert seeds == [
        "Isabella runs Hobbs Cafe",
        "she loves to make people feel welcome",
        "she is planning a Valentine's Day party",
    ]


def test_duplicate_names_conflict_on_the_name(client: TestClient, world: dict[str, Any]) -> None:
    _create(client, world, name="Klaus")
    response = _create(client, world, name="Klaus")
    assert response.status_code == 409
    assert response.json()["error"]["details"][0]["field"] == "body.name"


def test_bad_persona_names_the_field(client: TestClient, world: dict[str, Any]) -> None:
    response = _create(client, world, name="Klaus", age=-1, innate="x" * 5000)
    assert response.status_code == 422
    fields = {d["field"] for d in response.json()["error"]["details"]}
    assert fields == {"body.age", "body.innate"}


def test_list_pages_with_a_cursor(client: TestClient, world: dict[str, Any]) -> None:
    names = [f"Agent {i:02d}" for i in range(7)]
    for name in names:
        _create(client, world, name=name)
    url, seen, cursor = f"/v1/worlds/{world['id']}/agents", [], None
    while True:
        params = {"limit": 3, **({"cursor": cursor} if cursor else {})}
        page = client.get(url, params=params, headers=world["headers"]).json()
        seen += [a["name"] for a in page["items"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert sorted(seen) == names and len(seen) == len(set(seen))
    bad = client.get(url, params={"cursor": "garbage!"}, headers=world["headers"])
    assert bad.status_code == 422 and bad.json()["error"]["details"][0]["field"] == "query.cursor"


def test_patch_and_delete(
    client: TestClient, world: dict[str, Any], sessions: sessionmaker[Session]
) -> None:
    agent = _create(client, world, **ISABELLA).json()
    url = f"/v1/worlds/{world['id']}/agents/{agent['id']}"
    patched = client.patch(url, json={"currently": "decorating the cafe"}, headers=world["headers"])
    assert patched.json()["currently"] == "decorating the cafe"
    assert patched.json()["innate"] == ISABELLA["innate"]
    assert client.delete(url, headers=world["headers"]).status_code == 204
    assert client.get(url, headers=world["headers"]).status_code == 404
    with sessions() as session:
        assert session.scalar(sa.select(sa.func.count()).select_from(Memory)) == 0


def test_unknown_agent_is_404(client: TestClient, world: dict[str, Any]) -> None:
    url = f"/v1/worlds/{world['id']}/agents/00000000-0000-0000-0000-000000000000"
    response = client.get(url, headers=world["headers"])
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
    assert (
        client.get(
            f"/v1/worlds/{world['id']}/agents/not-a-uuid", headers=world["headers"]
        ).status_code
        == 422
    )
