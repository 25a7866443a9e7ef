"""`GET …/agents/{a}/relationships`: the current view of each other, earlier views kept."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session, sessionmaker

from tests import seed
from tests.service.api import agent_ids, create_world, url

NOON = datetime(2023, 2, 13, 12, 0)


def test_relationships_page_by_name_with_history(
    client: TestClient, world: dict[str, Any], sessions: sessionmaker[Session]
) -> None:
    rosa, tomas = agent_ids(client, world, "Rosa", "Tomas")
    with sessions.begin() as session:
        seed.relationship(
            session,
            agent_id=rosa,
            other="Tomas",
            other_agent_id=tomas,
            at=NOON,
            views=[("a regular", 5), ("a good friend who helps", 8)],
        )
        seed.relationship(
            session, agent_id=rosa, other="Player One", at=NOON, views=[("a curious visitor", 6)]
        )
        seed.relationship(
            session, agent_id=tomas, other="Rosa", at=NOON, views=[("runs the cafe", 7)]
        )
    path = url(world, f"/agents/{rosa}/relationships")
    first = client.get(path, params={"limit": 1}, headers=world["headers"]).json()
    assert [r["other_name"] for r in first["items"]] == ["Player One"]
    assert first["items"][0]["other_agent_id"] is None and first["items"][0]["history"] == []
    second = client.get(
        path, params={"limit": 1, "cursor": first["next_cursor"]}, headers=world["headers"]
    ).json()
    assert second["next_cursor"] is None
    view = second["items"][0]
    assert (view["other_name"], view["summary"], view["sentiment"]) == (
        "Tomas",
        "a good friend who helps",
        8,
    )
    assert view["other_agent_id"] == str(tomas)
    assert view["updated_at"] == "2023-02-13T13:00:00"
    assert view["history"] == [
        {"summary": "a regular", "sentiment": 5, "until": "2023-02-13T13:00:00"}
    ]


def test_relationships_of_another_world_are_not_found(
    client: TestClient, world: dict[str, Any], admin_headers: dict[str, str]
) -> None:
    other = create_world(client, admin_headers, name="Elsewhere")
    [theirs] = agent_ids(client, other, "Theirs")
    answer = client.get(url(other, f"/agents/{theirs}/relationships"), headers=world["headers"])
    assert answer.status_code == 404
    mine = client.get(url(other, f"/agents/{theirs}/relationships"), headers=other["headers"])
    assert mine.status_code == 200 and mine.json() == {"items": [], "next_cursor": None}
