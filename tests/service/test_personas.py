"""Persona packs: created, then unchanged, then updated; relationships by name; field errors."""

from __future__ import annotations

import copy
from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session, sessionmaker

from db.models import Agent, Memory, Relationship
from tests.service.api import create_agent, events, fields, small_map, url

PACK: dict[str, Any] = {
    "map": small_map(),
    "personas": [
        {
            "name": "Ada Lin",
            "age": 41,
            "innate": "curious, patient",
            "background": "Ada runs the Hobbs Cafe; she roasts her own beans",
            "start_place": "Lin house: bedroom: bed",
            "known_places": ["Hobbs Cafe: counter", "Lin house"],
            "relationships": [
                {"other": "Ben Ortiz", "summary": "her best barista", "sentiment": 8},
            ],
        },
        {
            "name": "Ben Ortiz",
            "age": 23,
            "innate": "shy",
            "background": "Ben works at the Hobbs Cafe",
            "start_place": "park: bench",
            "relationships": [{"other": "Ada Lin", "summary": "a fair boss", "sentiment": 7}],
        },
    ],
}


def _import(client: TestClient, world: dict[str, Any], pack: dict[str, Any]) -> Any:
    return client.post(url(world, "/personas/import"), json=pack, headers=world["headers"])


def _relationships(sessions: sessionmaker[Session]) -> dict[tuple[str, str], tuple[str, int]]:
    with sessions() as session:
        me, other = sa.orm.aliased(Agent), sa.orm.aliased(Agent)
        rows = session.execute(
            sa.select(me.name, other.name, Relationship.summary, Relationship.sentiment)
            .join(me, me.id == Relationship.agent_id)
            .join(other, other.id == Relationship.other_agent_id)
        )
        return {(a, b): (summary, sentiment) for a, b, summary, sentiment in rows}


def test_import_creates_then_leaves_unchanged_then_updates(
    client: TestClient, world: dict[str, Any], sessions: sessionmaker[Session]
) -> None:
    first = _import(client, world, PACK)
    assert first.status_code == 200, first.json()
    assert first.json()["created"] == ["Ada Lin", "Ben Ortiz"]
    assert first.json()["map"]["created"] == 13
    assert _relationships(sessions) == {
        ("Ada Lin", "Ben Ortiz"): ("her best barista", 8),
        ("Ben Ortiz", "Ada Lin"): ("a fair boss", 7),
    }
    again = _import(client, world, PACK).json()
    assert again == {
        "created": [],
        "updated": [],
        "unchanged": ["Ada Lin", "Ben Ortiz"],
        "map": {"places": 13, "created": 0, "updated": 0, "removed": 0},
    }
    changed = copy.deepcopy(PACK)
    changed["personas"][1]["relationships"][0]["sentiment"] = 3
    changed["personas"][0]["currently"] = "planning a tasting night"
    third = _import(client, world, changed).json()
    assert third["updated"] == ["Ada Lin", "Ben Ortiz"] and third["unchanged"] == []
    assert _relationships(sessions)[("Ben Ortiz", "Ada Lin")] == ("a fair boss", 3)
    with sessions() as session:
        assert session.scalar(sa.select(sa.func.count()).select_from(Agent)) == 2
        seeds = session.scalar(sa.select(sa.func.count()).where(Memory.kind == "seed"))
        # the background's phrases once, at creation, and each relationship as it is set:
        # two at the first import, one again when Ben's view of Ada changed
        assert seeds == 3 + 2 + 1
        history = session.scalar(sa.select(Relationship.history).where(Relationship.sentiment == 3))
        assert history[0]["sentiment"] == 7
    types = [e["type"] for e in events(client, world)]
    assert types.count("agent_created") == 2 and types.count("agent_updated") == 2


def test_import_keeps_an_existing_agent_where_it_is(
    client: TestClient, world: dict[str, Any]
) -> None:
    _import(client, world, PACK)
    agents = client.get(url(world, "/agents"), headers=world["headers"]).json()["items"]
    ada = next(a for a in agents if a["name"] == "Ada Lin")
    client.patch(
        url(world, f"/agents/{ada['id']}"),
        json={"start_place": "Hobbs Cafe"},
        headers=world["headers"],
    )
    assert _import(client, world, PACK).json()["unchanged"] == ["Ada Lin", "Ben Ortiz"]
    after = client.get(url(world, f"/agents/{ada['id']}"), headers=world["headers"]).json()
    assert after["place"] == "Hobbs Cafe"
    assert "Hobbs Cafe: counter" in after["known_places"]


def test_relationships_reach_agents_outside_the_pack(
    client: TestClient, world: dict[str, Any], sessions: sessionmaker[Session]
) -> None:
    create_agent(client, world, name="Old Tom")
    pack = {
        "personas": [
            {"name": "Newcomer", "relationships": [{"other": "Old Tom", "summary": "a neighbour"}]}
        ]
    }
    summary = _import(client, world, pack).json()
    assert summary["created"] == ["Newcomer"] and summary["map"] is None
    assert _relationships(sessions) == {("Newcomer", "Old Tom"): ("a neighbour", 5)}


def test_bad_packs_name_the_field_and_write_nothing(
    client: TestClient, world: dict[str, Any], sessions: sessionmaker[Session]
) -> None:
    stranger = copy.deepcopy(PACK)
    stranger["personas"][1]["relationships"][0]["other"] = "Nobody"
    assert fields(_import(client, world, stranger)) == {"body.personas.1.relationships.0.other"}
    lost = copy.deepcopy(PACK)
    lost["personas"][0]["known_places"] = ["Lin house", "Lin house: cellar"]
    assert fields(_import(client, world, lost)) == {"body.personas.0.known_places.1"}
    twins = copy.deepcopy(PACK)
    twins["personas"][1]["name"] = "Ada Lin"
    assert fields(_import(client, world, twins)) == {"body.personas.1.name"}
    bad_map = copy.deepcopy(PACK)
    bad_map["map"]["children"][0]["name"] = "a:b"
    assert fields(_import(client, world, bad_map)) == {"body.map.children.0.name"}
    selfish = copy.deepcopy(PACK)
    selfish["personas"][0]["relationships"][0]["other"] = "Ada Lin"
    assert fields(_import(client, world, selfish)) == {"body.personas.0.relationships.0.other"}
    with sessions() as session:
        assert session.scalar(sa.select(sa.func.count()).select_from(Agent)) == 0
    assert client.get(url(world, "/map"), headers=world["headers"]).json()["children"] == []
