"""The issue's acceptance, end to end through the SDK against a running API and a real worker:
create a world, upload the map, import personas, step the town for two game hours, read
actions, chat as a player, follow the event stream with resume, and see a reflection with its
evidence appear. Beat's sweep is sent by the test after each clock advance, as beat would."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
from hearth_client import Hearth
from hearth_client.demo import load_town
from hearth_client.demo.drive import DemoConfig, TownRun, settle, step_town
from hearth_client.game_types import AgentNow
from hearth_client.types import PersonaPack, PersonaSpec
from sqlalchemy.orm import Session, sessionmaker

from db.settings import Settings
from tests.clients.conftest import FAST_RETRY, WORLD_START
from tests.polling import wait_until
from workers.app import make_celery

TOWN_SIZE = 6
STEP_MINUTES = 15
GAME_HOURS = 2
REFLECTION_WAIT_S = 90.0
POLL_S = 0.5


@pytest.fixture
def town(
    admin: Hearth, base_url: str, celery_worker: None, sessions: sessionmaker[Session]
) -> Iterator[tuple[Hearth, TownRun]]:
    world = admin.create_world("Larkspur", clock={"mode": "driven", "start": WORLD_START})
    pack = load_town()
    with Hearth(base_url, api_key=world["api_key"], retry=FAST_RETRY) as client:
        summary = client.put_map(world["id"], pack["map"])
        assert summary["places"] > 50
        imported = client.import_personas(world["id"], {"personas": _subset(pack, TOWN_SIZE)})
        assert len(imported["created"]) == TOWN_SIZE
        agents = list(client.list_agents(world["id"]))
        yield client, TownRun(world_id=world["id"], world_key=world["api_key"], agents=agents)


def _subset(pack: PersonaPack, size: int) -> list[PersonaSpec]:
    """The first `size` personas, with only the relationships among themselves."""
    chosen = pack["personas"][:size]
    names = {p["name"] for p in chosen}
    return [
        {**p, "relationships": [r for r in p.get("relationships", []) if r["other"] in names]}
        for p in chosen
    ]


def _sweep(settings: Settings) -> None:
    make_celery(redis_url=str(settings.redis_url)).send_task("hearth.sweep_worlds").get(timeout=60)


@pytest.mark.worker
def test_a_town_lives_through_the_api(town: tuple[Hearth, TownRun], settings: Settings) -> None:
    client, run = town
    now: dict[str, AgentNow] = {}
    for index in range(GAME_HOURS * 60 // STEP_MINUTES):
        if index:
            client.advance_clock(run.world_id, STEP_MINUTES)
        _sweep(settings)
        result = settle(client, run, step_town(client, run, now), DemoConfig().settle_s)
        now = {a["agent_id"]: a for a in result["agents"]}

    # every agent is doing something from its plan, and the plan is the paper's three levels
    assert result["now"] == "2023-02-13T08:45:00"
    assert all(entry["action"] for entry in result["agents"]), result["agents"]
    junie = next(a for a in run.agents if a["name"].startswith("Junie"))
    plan = client.plans(run.world_id, junie["id"])
    live = [i for i in plan["items"] if i["status"] != "superseded" and i["level"] == "day"]
    assert len(live) >= 5  # the outline's items, and what her reactions put between them
    for before, after in itertools.pairwise(sorted(live, key=lambda i: i["start"])):
        ends = datetime.fromisoformat(before["start"]) + timedelta(minutes=before["duration_min"])
        assert ends <= datetime.fromisoformat(after["start"]), (before, after)  # no overlap
    assert plan["current_action"] is not None

    # a player chats; the reply is grounded in what the agent remembers
    reply = client.chat(
        run.world_id,
        junie["id"],
        "Is anything happening at the cafe soon?",
        player="Sam",
        persona="a reporter",
    )
    assert reply["reply"] and reply["memories"]

    # the event stream resumes after any event without loss or repeats
    events = list(client.events(run.world_id, once=True))
    assert len(events) > 10 and {"plan_created", "utterance"} & {e.type for e in events}
    middle = events[len(events) // 2].id
    resumed = list(client.events(run.world_id, after=middle, once=True))
    assert [e.id for e in resumed][: len(events) - len(events) // 2 - 1] == [
        e.id for e in events[len(events) // 2 + 1 :]
    ]

    # poignant news pushes one agent past the reflection threshold: a reflection appears,
    # citing its evidence
    news = [
        {
            "description": f"Junie hears that the old mill burned down, and {n} people lost "
            "their jobs and are heartbroken"
        }
        for n in range(2, 32)
    ]
    client.add_memories(run.world_id, junie["id"], news)
    reflection = _wait_for_reflection(client, run.world_id, junie["id"])
    detail = client.get_memory(run.world_id, junie["id"], reflection)
    assert detail["kind"] == "reflection" and detail["evidence"]
    assert detail["depth"] == 1 + max(e["depth"] for e in detail["evidence"])


def _wait_for_reflection(client: Hearth, world_id: str, agent_id: str) -> int:
    found: list[dict[str, Any]] = []

    def reflected() -> bool:
        found[:] = client.list_memories(world_id, agent_id, kinds=["reflection"])
        return bool(found)

    wait_until(reflected, "a reflection", timeout_s=REFLECTION_WAIT_S, every_s=POLL_S)
    return int(found[0]["id"])
