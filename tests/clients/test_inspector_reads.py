"""The SDK's reads for inspecting a world (added with the web inspector), against a real server:
the caller's scope, worlds, the town view, transcripts, relationships, usage over game time."""

from __future__ import annotations

import asyncio
import uuid
from datetime import datetime

import pytest
from hearth_client import AsyncHearth, Forbidden, Hearth
from sqlalchemy.orm import Session, sessionmaker

from tests import seed
from tests.clients.conftest import FAST_RETRY

World = tuple[str, Hearth]
NOON = datetime(2023, 2, 13, 12, 0)


def test_scope_and_worlds(admin: Hearth, world: World) -> None:
    world_id, client = world
    assert admin.me() == {"scope": "admin", "world_id": None}
    assert client.me() == {"scope": "world", "world_id": world_id}
    admin.create_world("Second")
    assert [w["name"] for w in admin.list_worlds(page_size=1)] == ["Smallville", "Second"]
    with pytest.raises(Forbidden):
        list(client.list_worlds())


def test_town_transcripts_relationships_and_usage(
    world: World, sessions: sessionmaker[Session], base_url: str
) -> None:
    world_id, client = world
    rosa = client.create_agent(world_id, {"name": "Rosa"})["id"]
    tomas = client.create_agent(world_id, {"name": "Tomas"})["id"]
    client.step(world_id, [{"agent_id": rosa, "place": "Hobbs Cafe"}], create_places=True)
    client.add_memories(
        world_id, rosa, [{"description": "Rosa bakes bread"}, {"description": "Rosa reads"}]
    )
    with sessions.begin() as session:
        wid, r, t = uuid.UUID(world_id), uuid.UUID(rosa), uuid.UUID(tomas)
        seed.conversation(
            session,
            world_id=wid,
            initiator=r,
            partner=t,
            at=NOON,
            lines=[(r, "Morning!"), (t, "Morning, Rosa")],
        )
        seed.relationship(
            session,
            agent_id=r,
            other="Tomas",
            other_agent_id=t,
            at=NOON,
            views=[("a neighbour", 6)],
        )
        seed.model_calls(session, world_id=wid, calls=[(r, "react", NOON, 30)])
    town = {a["name"]: a for a in client.actions(world_id, page_size=1)}
    assert town["Rosa"]["place"] == "Hobbs Cafe" and town["Tomas"]["place"] is None
    [talk] = client.list_conversations(world_id, rosa)
    assert [line["text"] for line in talk["lines"]] == ["Morning!", "Morning, Rosa"]
    [view] = client.list_relationships(world_id, rosa)
    assert (view["other_name"], view["sentiment"]) == ("Tomas", 6)
    [bucket] = client.usage_timeline(world_id, bucket_minutes=30)["buckets"]
    assert bucket["start"] == "2023-02-13T12:00:00" and bucket["total"]["calls"] == 1
    assert [m["description"] for m in client.list_memories(world_id, rosa, text="BREAD")] == [
        "Rosa bakes bread"
    ]

    async def from_async() -> tuple[list[str], list[int]]:
        async with AsyncHearth(base_url, api_key=_key(client), retry=FAST_RETRY) as aclient:
            names = [a["name"] async for a in aclient.actions(world_id)]
            timeline = await aclient.usage_timeline(world_id)
            return names, [b["total"]["calls"] for b in timeline["buckets"]]

    assert asyncio.run(from_async()) == (["Rosa", "Tomas"], [1])


def _key(client: Hearth) -> str:
    return client._http.headers["Authorization"].removeprefix("Bearer ")
