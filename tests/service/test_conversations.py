"""`GET …/agents/{a}/conversations`: transcripts of agent talk and player chat, newest first."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session, sessionmaker

from tests import seed
from tests.service.api import agent_ids, create_world, url

NOON = datetime(2023, 2, 13, 12, 0)


def test_transcripts_page_newest_first_with_every_line(
    client: TestClient, world: dict[str, Any], sessions: sessionmaker[Session]
) -> None:
    rosa, tomas, ines = agent_ids(client, world, "Rosa", "Tomas", "Ines")
    world_id = uuid.UUID(world["id"])
    with sessions.begin() as session:
        first = seed.conversation(
            session,
            world_id=world_id,
            initiator=rosa,
            partner=tomas,
            topic="the party",
            at=NOON,
            lines=[(rosa, "Party on Friday?"), (tomas, "I'll be there")],
        )
        chat = seed.conversation(
            session,
            world_id=world_id,
            initiator=rosa,
            player="Player One",
            at=NOON + timedelta(hours=1),
            ended=False,
            lines=[("Player One", "Hello"), (rosa, "Welcome in!")],
        )
        seed.conversation(
            session,
            world_id=world_id,
            initiator=tomas,
            partner=ines,
            at=NOON,
            lines=[(tomas, "Not about Rosa")],
        )
    path = url(world, f"/agents/{rosa}/conversations")
    page = client.get(path, params={"limit": 1}, headers=world["headers"]).json()
    assert [c["id"] for c in page["items"]] == [chat]
    newest = page["items"][0]
    assert (newest["partner"], newest["partner_agent_id"], newest["status"]) == (
        "Player One",
        None,
        "open",
    )
    assert [(line["speaker"], line["text"]) for line in newest["lines"]] == [
        ("Player One", "Hello"),
        ("Rosa", "Welcome in!"),
    ]
    assert newest["lines"][0]["speaker_agent_id"] is None
    rest = client.get(path, params={"cursor": page["next_cursor"]}, headers=world["headers"])
    older = rest.json()
    assert [c["id"] for c in older["items"]] == [first] and older["next_cursor"] is None
    talk = older["items"][0]
    assert (talk["initiator"], talk["partner"], talk["topic"]) == ("Rosa", "Tomas", "the party")
    assert [line["seq"] for line in talk["lines"]] == [1, 2]
    assert talk["ended_at"] is not None and talk["partner_agent_id"] == str(tomas)
    as_partner = client.get(url(world, f"/agents/{tomas}/conversations"), headers=world["headers"])
    assert len(as_partner.json()["items"]) == 2  # initiator of one, partner in the other


def test_conversations_of_another_world_are_not_found(
    client: TestClient, world: dict[str, Any], admin_headers: dict[str, str]
) -> None:
    other = create_world(client, admin_headers, name="Elsewhere")
    [theirs] = agent_ids(client, other, "Theirs")
    for base in (other, world):
        answer = client.get(url(base, f"/agents/{theirs}/conversations"), headers=world["headers"])
        assert answer.status_code == 404 and answer.json()["error"]["code"] == "not_found"
    bad = client.get(
        url(other, f"/agents/{theirs}/conversations"),
        headers=other["headers"],
        params={"cursor": "not-a-cursor"},
    )
    assert bad.status_code == 422 and bad.json()["error"]["details"][0]["field"] == "query.cursor"
