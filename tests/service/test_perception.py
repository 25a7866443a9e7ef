"""The inner voice (a directive memory) and object states the game changes, perceived nearby."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session, sessionmaker

from db.models import Memory
from tests.service.api import create_agent, events, fields, put_map, small_map, url

STOVE = "Lin house: kitchen: stove"


def test_inner_voice_is_a_directive_memory_at_game_time(
    client: TestClient, world: dict[str, Any]
) -> None:
    agent = create_agent(client, world, name="Sam Moore")
    client.post(url(world, "/clock"), json={"set": "2023-02-13T09:30:00"}, headers=world["headers"])
    response = client.post(
        url(world, f"/agents/{agent['id']}/inner-voice"),
        json={"text": "You are going to run for town council"},
        headers=world["headers"],
    )
    assert response.status_code == 201, response.json()
    memory = response.json()
    assert (memory["kind"], memory["source"]) == ("directive", "admin")
    assert memory["description"] == "You are going to run for town council"
    assert memory["created_at"] == "2023-02-13T09:30:00"
    voiced = [e for e in events(client, world) if e["type"] == "inner_voice"]
    assert voiced[0]["data"]["memory_id"] == memory["id"]
    empty = client.post(
        url(world, f"/agents/{agent['id']}/inner-voice"),
        json={"text": " "},
        headers=world["headers"],
    )
    assert empty.status_code == 422 and fields(empty) == {"body.text"}


def _observations(sessions: sessionmaker[Session]) -> list[tuple[str, str, str, str]]:
    with sessions() as session:
        rows = session.execute(
            sa.select(Memory.description, Memory.subject, Memory.predicate, Memory.object)
            .where(Memory.kind == "observation")
            .order_by(Memory.id)
        )
        return [tuple(row) for row in rows]  # type: ignore[misc]


def test_the_papers_statement_is_perceived_in_the_same_area(
    client: TestClient, world: dict[str, Any], sessions: sessionmaker[Session]
) -> None:
    put_map(client, world, small_map())
    cook = create_agent(client, world, name="Cook", start_place="Lin house: kitchen")
    sleeper = create_agent(client, world, name="Sleeper", start_place="Lin house: bedroom: bed")
    create_agent(client, world, name="Barista", start_place="Hobbs Cafe: counter")
    create_agent(client, world, name="Nowhere")
    response = client.post(
        url(world, "/objects/state"),
        headers=world["headers"],
        json={"statement": f"<{STOVE}> is burning"},
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["place"], body["state"], body["previous_state"], body["changed"]) == (
        STOVE,
        "burning",
        "idle",
        True,
    )
    assert {p["agent_id"] for p in body["perceived_by"]} == {cook["id"], sleeper["id"]}
    assert _observations(sessions) == [("stove is burning", STOVE, "is", "burning")] * 2
    tree = client.get(url(world, "/map"), headers=world["headers"]).json()
    assert tree["children"][1]["children"][0]["children"][0]["state"] == "burning"
    known = client.get(url(world, f"/agents/{sleeper['id']}/places"), headers=world["headers"])
    kitchen = known.json()["children"][0]["children"][0]
    assert kitchen["children"][0]["path"] == STOVE and kitchen["children"][0]["state"] == "burning"
    changed = [e for e in events(client, world) if e["type"] == "object_state_changed"]
    assert changed[0]["data"]["state"] == "burning"


def test_an_unchanged_state_is_not_perceived_again(
    client: TestClient, world: dict[str, Any], sessions: sessionmaker[Session]
) -> None:
    put_map(client, world, small_map())
    create_agent(client, world, name="Cook", start_place="Lin house: kitchen")
    change = {"place": "Lin house:kitchen:stove", "state": "cooking"}
    first = client.post(url(world, "/objects/state"), json=change, headers=world["headers"])
    again = client.post(url(world, "/objects/state"), json=change, headers=world["headers"])
    assert first.json()["changed"] is True and len(first.json()["perceived_by"]) == 1
    assert again.json()["changed"] is False and again.json()["perceived_by"] == []
    assert len(_observations(sessions)) == 1


def test_who_already_saw_the_state_does_not_store_it_again(
    client: TestClient, world: dict[str, Any], sessions: sessionmaker[Session]
) -> None:
    """The route and the step share perception's rule for repeats."""
    put_map(client, world, small_map())
    cook = create_agent(client, world, name="Cook", start_place="Lin house: kitchen")
    told = {"kind": "object", "subject": STOVE, "state": "burning"}
    step = {"agents": [{"agent_id": cook["id"], "perceived": [told]}]}
    client.post(url(world, "/step"), json=step, headers=world["headers"])
    change = {"place": STOVE, "state": "burning"}
    body = client.post(url(world, "/objects/state"), json=change, headers=world["headers"]).json()
    assert body["changed"] is True and body["perceived_by"] == []
    assert _observations(sessions) == [("stove is burning", STOVE, "is", "burning")]


def test_bad_state_changes_name_the_field(client: TestClient, world: dict[str, Any]) -> None:
    put_map(client, world, small_map())

    def post(body: dict[str, Any]) -> Any:
        return client.post(url(world, "/objects/state"), json=body, headers=world["headers"])

    assert fields(post({"statement": f"{STOVE} is burning"})) == {"body.statement"}
    assert fields(post({"statement": f"<{STOVE}> burning"})) == {"body.statement"}
    assert fields(post({"statement": "<Lin house: attic> is dusty"})) == {"body.statement"}
    assert fields(post({"place": "Lin house: attic", "state": "dusty"})) == {"body.place"}
    assert post({"place": STOVE}).status_code == 422
    both = post({"place": STOVE, "state": "on", "statement": f"<{STOVE}> is on"})
    assert both.status_code == 422 and fields(both) == {"body"}
