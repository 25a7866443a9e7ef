"""The Python SDK against a real server: every route it wraps, typed errors, pagination."""

from __future__ import annotations

import uuid

import pytest
from hearth_client import (
    Conflict,
    Forbidden,
    Hearth,
    NotFound,
    Unauthorized,
    ValidationError,
)

from tests.clients.conftest import FAST_RETRY
from tests.service.api import small_map

World = tuple[str, Hearth]


def test_worlds_clock_and_keys(admin: Hearth, world: World, base_url: str) -> None:
    world_id, client = world
    assert client.get_world(world_id)["name"] == "Smallville"
    assert client.set_clock(world_id, "2023-02-13T09:00:00")["now"] == "2023-02-13T09:00:00"
    assert client.advance_clock(world_id, 30)["now"] == "2023-02-13T09:30:00"
    assert client.configure_clock(world_id, paused=True)["paused"] is True
    rotated = admin.create_key(world_id)
    assert rotated["prefix"] in {key["prefix"] for key in admin.list_keys(world_id)}
    with Hearth(base_url, api_key=rotated["api_key"]) as rotated_client:
        assert rotated_client.get_world(world_id)["id"] == world_id
        admin.revoke_key(world_id, rotated["id"])
        with pytest.raises(Unauthorized) as refused:
            rotated_client.get_world(world_id)
    assert refused.value.status == 401 and refused.value.code == "unauthorized"
    health = client.health()
    assert health["status"] == "ok" and str(health["instance"]).startswith("hi_")
    assert client.readiness()["status"] in {"ready", "not_ready"}


def test_the_clock_moves_back_only_with_rewind(world: World) -> None:
    world_id, client = world
    with pytest.raises(Conflict) as refused:
        client.set_clock(world_id, "2023-02-13T06:00:00")
    assert refused.value.code == "clock_backwards"
    assert client.set_clock(world_id, "2023-02-13T06:00:00", rewind=True)["now"] == (
        "2023-02-13T06:00:00"
    )


def test_export_import_and_delete_a_world(admin: Hearth, world: World, base_url: str) -> None:
    world_id, client = world
    client.put_map(world_id, small_map())
    client.create_agent(world_id, {"name": "Ada", "background": "paints", "start_place": "park"})
    export = b"".join(admin.export_world(world_id))
    copy = admin.import_world(export, name="Smallville copy")
    assert copy["name"] == "Smallville copy" and copy["id"] != world_id
    with Hearth(base_url, api_key=copy["api_key"]) as copied:
        [ada] = list(copied.list_agents(copy["id"]))
        assert (ada["name"], ada["place"]) == ("Ada", "park")
        assert [m["description"] for m in copied.list_memories(copy["id"], ada["id"])] == ["paints"]
    with pytest.raises(ValidationError):
        admin.import_world(export[: len(export) // 2])
    admin.delete_world(copy["id"])
    assert copy["id"] not in {w["id"] for w in admin.list_worlds()}


def test_the_admin_sets_a_model_budget_and_the_world_reads_it(admin: Hearth, world: World) -> None:
    world_id, client = world
    budget = {"per_game_day": {"calls": 40}, "per_wall_hour": {"cost_usd": 0.5}}
    changed = admin.update_world(world_id, {"name": "Larkspur", "settings": {"budget": budget}})
    assert changed["name"] == "Larkspur"
    report = client.usage(world_id)["budget"]
    assert report is not None and report["source"] == "world"
    day, hour = report["game_day"], report["wall_hour"]
    assert day is not None and (day["remaining_calls"], day["exhausted"]) == (40, False)
    assert hour is not None and hour["remaining_cost_usd"] == "0.5"
    with pytest.raises(Forbidden):
        client.update_world(world_id, {"settings": {"budget": None}})
    admin.update_world(world_id, {"settings": {"budget": None}})
    assert client.usage(world_id)["budget"] is None


def test_agents_map_and_places(world: World) -> None:
    world_id, client = world
    assert client.put_map(world_id, small_map())["created"] == 13  # type: ignore[arg-type]
    assert [area["name"] for area in client.get_map(world_id)["children"]] == [
        "Hobbs Cafe",
        "Lin house",
        "park",
    ]
    ada = client.create_agent(
        world_id,
        {"name": "Ada", "start_place": "park: bench", "known_places": ["Hobbs Cafe: counter"]},
    )
    assert ada["place"] == "park: bench" and "Hobbs Cafe" in ada["known_places"]
    for index in range(4):
        client.create_agent(world_id, {"name": f"Extra {index}"})
    names = [agent["name"] for agent in client.list_agents(world_id, page_size=2)]
    assert names == ["Ada", "Extra 0", "Extra 1", "Extra 2", "Extra 3"]
    moved = client.update_agent(world_id, ada["id"], {"start_place": "Hobbs Cafe: kitchen"})
    assert moved["place"] == "Hobbs Cafe: kitchen"
    known = client.agent_places(world_id, ada["id"])
    assert [area["name"] for area in known["children"]] == ["Hobbs Cafe", "park"]
    client.delete_agent(world_id, ada["id"])
    with pytest.raises(NotFound):
        client.get_agent(world_id, ada["id"])


def test_personas_voice_and_objects(world: World) -> None:
    world_id, client = world
    pack = {
        "map": small_map(),
        "personas": [
            {
                "name": "Cook",
                "start_place": "Lin house: kitchen",
                "relationships": [{"other": "Guest", "summary": "an old friend", "sentiment": 8}],
            },
            {"name": "Guest", "start_place": "Hobbs Cafe"},
        ],
    }
    summary = client.import_personas(world_id, pack)  # type: ignore[arg-type]
    assert summary["created"] == ["Cook", "Guest"]
    again = client.import_personas(world_id, pack)  # type: ignore[arg-type]
    assert again["unchanged"] == ["Cook", "Guest"]
    cook = next(a for a in client.list_agents(world_id) if a["name"] == "Cook")
    thought = client.inner_voice(world_id, cook["id"], "The stove needs watching")
    assert thought["kind"] == "directive" and thought["source"] == "admin"
    fire = client.set_object_state(world_id, statement="<Lin house: kitchen: stove> is burning")
    assert [p["name"] for p in fire["perceived_by"]] == ["Cook"]
    off = client.set_object_state(world_id, "Lin house: kitchen: stove", "off")
    assert off["previous_state"] == "burning"


def test_memories(world: World) -> None:
    world_id, client = world
    agent = client.create_agent(world_id, {"name": "Ada", "background": "Ada paints; Ada sings"})
    written = client.add_memories(
        world_id,
        agent["id"],
        [
            {"description": "Ada saw a heron at the pond"},
            {
                "description": "Ben said the cafe opens late",
                "kind": "utterance",
                "source": "player",
            },
        ],
    )
    assert [m["kind"] for m in written] == ["observation", "utterance"]
    every = list(client.list_memories(world_id, agent["id"], page_size=1))
    assert len(every) == 4  # two seeds and two written
    seeds = list(client.list_memories(world_id, agent["id"], kinds=["seed"]))
    assert {m["description"] for m in seeds} == {"Ada paints", "Ada sings"}
    assert client.get_memory(world_id, agent["id"], written[0]["id"])["evidence"] == []
    found = client.search_memories(world_id, agent["id"], "heron at the pond", k=2, touch=False)
    assert len(found["results"]) == 2 and "components" in found["results"][0]
    assert client.plans(world_id, agent["id"])["items"] == []
    stepped = client.step(
        world_id, [{"agent_id": agent["id"], "place": "pond"}], create_places=True
    )
    assert stepped["agents"][0]["agent_id"] == agent["id"]
    assert client.usage(world_id)["basis"] == "game"


def test_errors_mirror_the_envelope(admin: Hearth, world: World) -> None:
    world_id, client = world
    elsewhere = admin.create_world("Elsewhere")["id"]
    with pytest.raises(NotFound) as hidden:
        client.get_map(elsewhere)
    assert hidden.value.status == 404
    client.create_agent(world_id, {"name": "Ada"})
    with pytest.raises(Conflict) as taken:
        client.create_agent(world_id, {"name": "Ada"})
    assert taken.value.fields == ["body.name"]
    with pytest.raises(ValidationError) as bad:
        client.create_agent(world_id, {"name": "Bo", "known_places": ["nowhere"]})
    assert bad.value.fields == ["body.known_places.0"] and bad.value.code == "validation_error"


def test_a_retried_create_returns_the_first_answer(world: World) -> None:
    world_id, client = world
    key = str(uuid.uuid4())
    first = client.create_agent(world_id, {"name": "Ada"}, idempotency_key=key)
    again = client.create_agent(world_id, {"name": "Ada"}, idempotency_key=key)
    assert again["id"] == first["id"]
    assert len(list(client.list_agents(world_id))) == 1
    assert FAST_RETRY.attempts == 3


def test_chat_and_interview(world: World) -> None:
    world_id, client = world
    agent = client.create_agent(world_id, {"name": "Ada", "background": "Ada runs the bakery"})
    first = client.chat(world_id, agent["id"], "Hello, who are you?", player="Sam")
    assert first["reply"] and first["player_memory_id"] != first["reply_memory_id"]
    again = client.chat(
        world_id,
        agent["id"],
        "Nice to meet you",
        player="Sam",
        conversation_id=first["conversation_id"],
    )
    assert again["conversation_id"] == first["conversation_id"]
    answer = client.interview(world_id, agent["id"], "What do you do?", mode="no_reflection")
    assert answer["answer"] and answer["mode"] == "no_reflection"
