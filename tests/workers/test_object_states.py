"""An action's object state is written to the map when the action starts and released when it
ends (unless another agent's action holds it, or the game changed it meanwhile); everyone
within sight perceives each change once, through the beat sweep."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from cognition.testing import ScriptedMind
from cognition.types import PlanItem, PlanLevel
from db.models import Agent, AgentPlace, Event, Memory, Place, World
from db.queries.plans import save_items
from db.queries.worlds import set_clock
from db.settings import Settings
from tests.factories import GAME_START, make_agent
from tests.workers.support import installed, seeded
from workers.tasks.sweep import sweep_worlds

STOVE = "Hobbs Cafe: kitchen: stove"


def _plan(sessions: sessionmaker[Session], agent_id: uuid.UUID, *items: PlanItem) -> None:
    with sessions.begin() as session:
        save_items(session, agent_id=agent_id, level=PlanLevel.DAY, items=list(items))


def _at(sessions: sessionmaker[Session], world_id: uuid.UUID, minutes: int) -> None:
    with sessions.begin() as session:
        world = session.get_one(World, world_id)
        set_clock(session, world, to=GAME_START + timedelta(minutes=minutes))


def _stove(sessions: sessionmaker[Session], world_id: uuid.UUID) -> str:
    with sessions() as session:
        query = sa.select(Place.state).where(Place.world_id == world_id, Place.path == STOVE)
        return str(session.scalar(query))


def _seen(sessions: sessionmaker[Session]) -> list[tuple[str, str]]:
    """(observer, observation) of every object observation, in order."""
    with sessions() as session:
        rows = session.execute(
            sa.select(Agent.name, Memory.description)
            .join(Agent, Agent.id == Memory.agent_id)
            .where(Memory.kind == "observation", Memory.subject == STOVE)
            .order_by(Memory.id)
        )
        return [(name, text) for name, text in rows]


def _cooking(start: datetime, minutes: int) -> PlanItem:
    return PlanItem(start, minutes, "cook eggs", STOVE, object_state="cooking")


def test_an_actions_object_state_is_written_perceived_and_released(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    world, isabella, klaus = seeded(sessions)
    with sessions.begin() as session:
        far = make_agent(
            session,
            session.get_one(World, world.id),
            name="Maria Lopez",
            summary="s",
            summary_at=GAME_START,
            place="Johnson Park: bench",
        )
    _plan(
        sessions,
        isabella.id,
        _cooking(GAME_START, 30),
        PlanItem(GAME_START + timedelta(minutes=30), 30, "wipe the counter", "Hobbs Cafe: counter"),
    )
    with sessions.begin() as session:  # in the kitchen: the stove is in sight
        session.get_one(Agent, klaus.id).place = "Hobbs Cafe: kitchen"
    _plan(sessions, klaus.id, PlanItem(GAME_START, 60, "read the paper"))
    with installed(settings, sessions, ScriptedMind()) as queue:
        sweep_worlds()
        assert _stove(sessions, world.id) == "cooking"
        assert _seen(sessions) == [("Klaus Mueller", "stove is cooking")]  # not the cook herself
        sent = [name for name, *_ in queue.queue]
        assert "hearth.enrich_world" in sent and "hearth.decide_reaction" in sent
        sweep_worlds()
        assert len(_seen(sessions)) == 1  # nothing new
        _at(sessions, world.id, 40)
        sweep_worlds()
    assert _stove(sessions, world.id) == "idle"
    assert _seen(sessions) == [
        ("Klaus Mueller", "stove is cooking"),
        ("Klaus Mueller", "stove is idle"),
    ]
    with sessions() as session:
        changes = session.scalars(
            sa.select(Event).where(Event.type == "object_state_changed").order_by(Event.id)
        ).all()
        assert [(e.payload["state"], e.payload["perceived_by"]) for e in changes] == [
            ("cooking", [str(klaus.id)]),
            ("idle", [str(klaus.id)]),
        ]
        stove = session.scalar(sa.select(Place.id).where(Place.path == STOVE))
        view = session.get_one(AgentPlace, (klaus.id, stove))
        assert view.seen_state == "idle"
        assert session.get(AgentPlace, (far.id, stove)) is None


def test_an_object_another_agent_still_uses_stays_in_use(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    world, isabella, klaus = seeded(sessions)
    _plan(
        sessions,
        isabella.id,
        _cooking(GAME_START, 30),
        PlanItem(GAME_START + timedelta(minutes=30), 30, "rest"),
    )
    _plan(sessions, klaus.id, _cooking(GAME_START, 60))
    with installed(settings, sessions, ScriptedMind()):
        sweep_worlds()
        _at(sessions, world.id, 40)
        sweep_worlds()
        assert _stove(sessions, world.id) == "cooking"
        _at(sessions, world.id, 70)
        sweep_worlds()
        assert _stove(sessions, world.id) == "idle"


def test_a_state_the_game_set_meanwhile_is_not_released(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    world, isabella, _ = seeded(sessions)
    _plan(
        sessions,
        isabella.id,
        _cooking(GAME_START, 30),
        PlanItem(GAME_START + timedelta(minutes=30), 30, "rest"),
    )
    with installed(settings, sessions, ScriptedMind()):
        sweep_worlds()
        with sessions.begin() as session:
            session.execute(sa.update(Place).where(Place.path == STOVE).values(state="burning"))
        _at(sessions, world.id, 40)
        sweep_worlds()
    assert _stove(sessions, world.id) == "burning"
