"""One lock order everywhere — memory rows, then agents (in id order), then places, then the
world's event lock — so concurrent writers wait for each other instead of deadlocking (200
agents stepping while the sweep and enrichment ran deadlocked when the step locked agents in
request order, and again when jobs emitted their events before locking what they touched).

The proof per writer of many agents: another transaction holds the agent with the lowest id;
the writer, handed the agents highest id first, must then hold none of the others while it
waits. A job waiting for the memory rows it touched holds no event lock. And steps of one world
(which write the same agents' rows in several statements) are recorded one at a time."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import psycopg
import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from cognition.offline import OfflineMind
from cognition.places import flatten_map
from db.flows import step as game_step
from db.flows.agent_scope import agent_scope
from db.models import Agent, Event, Memory, Plan, World
from db.queries.due import claim_actions
from db.queries.enrichment import accumulate
from db.queries.events import EVENTS_LOCK_CLASS
from db.queries.places import apply_map
from db.queries.step import Whereabouts, move_agents
from db.settings import Settings
from tests.factories import GAME_START, make_agent, make_memory, make_world
from tests.polling import wait_until
from tests.workers.support import installed
from workers.runtime import get_runtime

Writer = Callable[[Session, World, list[Agent]], None]
"""Writes all `agents` (handed highest id first) in one transaction of `session`."""


def _moves(session: Session, world: World, agents: list[Agent]) -> None:
    move_agents(session, [Whereabouts(a.id, "park", None) for a in agents])


def _action_markers(session: Session, world: World, agents: list[Agent]) -> None:
    claim_actions(session, agents=agents, leaves=dict.fromkeys(a.id for a in agents))


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


def test_a_job_takes_the_worlds_event_lock_last(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    """A flow's events are emitted after the touches of its retrievals: while a job waits for
    the memory rows it touched, it does not hold the world's event lock. (It did: with the
    step taking agents then that lock, and another job holding those memory rows while it
    waited on an agent, 200 agents stepping under load deadlocked.)"""
    with sessions.begin() as session:
        agent = make_agent(session, make_world(session))
        memory = make_memory(session, agent, description="The bakery smells of bread")
    holder = sessions()
    holder.execute(sa.select(Memory.id).where(Memory.id == memory.id).with_for_update())
    failure: list[BaseException] = []
    waiting_pid: list[int] = []

    def job() -> None:
        try:
            with sessions.begin() as session:
                waiting_pid.append(int(session.scalar(sa.text("SELECT pg_backend_pid()")) or 0))
                with agent_scope(session, get_runtime().faculties, agent.id) as scope:
                    assert scope is not None
                    scope.store.retrieve("bakery", k=5, now=scope.now)
                    scope.announce("inner_voice", {"agent_id": str(agent.id)})
        except BaseException as exc:  # reported by the test thread
            failure.append(exc)

    with installed(settings, sessions, OfflineMind()):
        thread = threading.Thread(target=job)
        thread.start()
        try:
            wait_until(
                lambda: (
                    bool(failure)
                    or (bool(waiting_pid) and _waits_on_a_lock(sessions, waiting_pid[0]))
                ),
                "the job waiting for the memory row it touched",
            )
            assert not failure, failure
            with sessions() as session:
                free = session.scalar(
                    sa.text("SELECT pg_try_advisory_xact_lock(CAST(:c AS integer), hashtext(:w))"),
                    {"c": EVENTS_LOCK_CLASS, "w": str(agent.world_id)},
                )
            assert free, "the job held the world's event lock while it waited"
        finally:
            holder.rollback()
            holder.close()
            thread.join(30)
    assert not failure, failure
    with sessions() as session:
        assert session.scalar(sa.select(sa.func.count()).select_from(Event)) == 1


@dataclass(frozen=True)
class _Reported:
    agent_id: uuid.UUID
    place: str | None = "park"
    position: dict[str, Any] | None = None
    perceived: tuple[Any, ...] = ()
    in_focus: bool | None = None


def test_steps_of_one_world_are_recorded_one_at_a_time(sessions: sessionmaker[Session]) -> None:
    """A step waits for another step of its world to commit (they write the same agents and
    what they know of places, in several statements); a step of another world does not."""
    world_id, ids = _three_agents(sessions)
    other_world, other_ids = _three_agents(sessions)
    first = sessions()  # reports an agent where it already is: no write another step waits on
    staying = _Reported(ids[0], place="Hobbs Cafe")
    game_step.report(first, world=first.get_one(World, world_id), agents=[staying], focal=True)
    failure: list[BaseException] = []
    waiting_pid: list[int] = []

    def second_step() -> None:
        try:
            with sessions.begin() as session:
                waiting_pid.append(int(session.scalar(sa.text("SELECT pg_backend_pid()")) or 0))
                world = session.get_one(World, world_id)
                game_step.report(session, world=world, agents=[_Reported(ids[1])], focal=True)
        except BaseException as exc:  # reported by the test thread
            failure.append(exc)

    thread = threading.Thread(target=second_step)
    thread.start()
    try:
        wait_until(
            lambda: (
                bool(failure) or (bool(waiting_pid) and _waits_on_a_lock(sessions, waiting_pid[0]))
            ),
            "the second step waiting for the first",
        )
        with sessions.begin() as session:  # another world's step goes through meanwhile
            world = session.get_one(World, other_world)
            game_step.report(session, world=world, agents=[_Reported(other_ids[0])], focal=True)
        assert thread.is_alive()
    finally:
        first.commit()
        first.close()
        thread.join(30)
    assert not failure, failure
    with sessions() as session:
        moved = session.scalars(sa.select(Agent.id).where(Agent.place == "park")).all()
    assert set(moved) == {ids[1], other_ids[0]}


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
