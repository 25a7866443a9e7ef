"""One lock order for agents everywhere: every writer of many agents locks their rows in id
order, whatever order it was handed them in, so two such writers wait for each other instead
of deadlocking (200 agents stepping while the sweep and enrichment ran deadlocked when the
step locked in request order).

The proof per writer: another transaction holds the agent with the lowest id; the writer,
handed the agents highest id first, must then hold none of the others while it waits."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from datetime import timedelta

import psycopg
import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from cognition.places import flatten_map
from db.models import Agent, Plan, World
from db.queries.due import announce_actions
from db.queries.enrichment import accumulate
from db.queries.places import apply_map
from db.queries.step import Whereabouts, move_agents
from tests.factories import GAME_START, make_agent, make_world
from tests.polling import wait_until

Writer = Callable[[Session, World, list[Agent]], None]
"""Writes all `agents` (handed highest id first) in one transaction of `session`."""


def _moves(session: Session, world: World, agents: list[Agent]) -> None:
    move_agents(session, [Whereabouts(a.id, "park", None) for a in agents])


def _action_markers(session: Session, world: World, agents: list[Agent]) -> None:
    announce_actions(
        session, world=world, agents=agents, leaves=dict.fromkeys(a.id for a in agents)
    )


def _reflection_accumulators(session: Session, world: World, agents: list[Agent]) -> None:
    accumulate(session, {a.id: 5 for a in agents})


def _map_relocations(session: Session, world: World, agents: list[Agent]) -> None:
    apply_map(session, world_id=world.id, specs=flatten_map([{"name": "park"}]))


WRITERS: dict[str, Writer] = {
    "the step's moves": _moves,
    "the sweep's action markers": _action_markers,
    "enrichment's accumulators": _reflection_accumulators,
    "a new map moving agents out of removed places": _map_relocations,
}


@pytest.mark.parametrize("writer", WRITERS.values(), ids=list(WRITERS))
def test_writers_of_many_agents_lock_them_in_id_order(
    sessions: sessionmaker[Session], writer: Writer
) -> None:
    world_id, ids = _three_agents(sessions)
    lowest, *others = sorted(ids)
    holder = sessions()
    holder.execute(sa.select(Agent.id).where(Agent.id == lowest).with_for_update())
    failure: list[BaseException] = []
    waiting_pid: list[int] = []

    def write() -> None:
        try:
            with sessions.begin() as session:
                waiting_pid.append(int(session.scalar(sa.text("SELECT pg_backend_pid()")) or 0))
                world = session.get_one(World, world_id)
                agents = [session.get_one(Agent, i) for i in sorted(ids, reverse=True)]
                writer(session, world, agents)
        except BaseException as exc:  # reported by the test thread
            failure.append(exc)

    thread = threading.Thread(target=write)
    thread.start()
    try:
        wait_until(
            lambda: (
                bool(failure) or (bool(waiting_pid) and _waits_on_a_lock(sessions, waiting_pid[0]))
            ),
            "the writer waiting for the lowest id",
        )
        assert not failure, failure
        assert _free(sessions, others), "the writer locked a higher id before the lowest"
    finally:
        holder.rollback()
        holder.close()
        thread.join(30)
    assert not failure, failure


def _three_agents(sessions: sessionmaker[Session]) -> tuple[uuid.UUID, list[uuid.UUID]]:
    with sessions.begin() as session:
        world = make_world(session)
        apply_map(
            session,
            world_id=world.id,
            specs=flatten_map([{"name": "park"}, {"name": "Hobbs Cafe"}]),
        )
        agents = [
            make_agent(session, world, name=f"Agent {n}", place="Hobbs Cafe") for n in range(3)
        ]
        for agent in agents:  # a current action to be replaced by none
            plan = Plan(
                agent_id=agent.id,
                level="day",
                start=GAME_START,
                duration_min=60,
                description="baking",
            )
            session.add(plan)
            session.flush()
            agent.current_plan_id = plan.id
        world.game_time = GAME_START + timedelta(minutes=5)
        return world.id, [a.id for a in agents]


def _waits_on_a_lock(sessions: sessionmaker[Session], pid: int) -> bool:
    with sessions() as session:
        kind = session.scalar(
            sa.text("SELECT wait_event_type FROM pg_stat_activity WHERE pid = :pid"), {"pid": pid}
        )
    return kind == "Lock"


def _free(sessions: sessionmaker[Session], ids: list[uuid.UUID]) -> bool:
    """Could another transaction lock these agents now (without waiting)?"""
    with sessions() as session:
        try:
            session.execute(
                sa.select(Agent.id).where(Agent.id.in_(ids)).with_for_update(nowait=True)
            )
            return True
        except sa.exc.OperationalError as exc:
            assert isinstance(exc.orig, psycopg.errors.LockNotAvailable), exc
            return False
        finally:
            session.rollback()
