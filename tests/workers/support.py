"""Running agent-loop task bodies in process: a runtime with a chosen Mind and a local queue,
a seeded world (a small map, an agent that knows it), and draining the queue."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from cognition.hashing_embedder import HashingEmbedder
from cognition.mind import Mind
from cognition.places import flatten_map
from cognition.types import NewMemory
from db import jobs
from db.models import Agent, Memory, World
from db.queries.memories import add_memories
from db.queries.places import apply_map, learn_places, world_places
from db.settings import Settings
from workers.local_queue import LocalDispatch
from workers.local_queue import drain as _drain
from workers.runtime import Runtime, set_runtime

TOWN = [
    {
        "name": "Hobbs Cafe",
        "children": [
            {"name": "kitchen", "children": [{"name": "stove"}, {"name": "sink"}]},
            {"name": "counter", "children": [{"name": "cash register"}]},
        ],
    },
    {
        "name": "Isabella's apartment",
        "children": [
            {"name": "bedroom", "children": [{"name": "bed"}]},
            {"name": "bathroom", "children": [{"name": "shower"}]},
        ],
    },
    {"name": "Johnson Park", "children": [{"name": "bench"}]},
]


@contextmanager
def installed(
    settings: Settings, sessions: sessionmaker[Session], mind: Mind
) -> Iterator[LocalDispatch]:
    """Task bodies in this process think with `mind` and queue follow-ups locally."""
    engine = sessions.kw["bind"]
    dispatch = LocalDispatch()
    set_runtime(
        Runtime(
            settings=settings,
            engine=engine,
            sessions=sessions,
            mind=mind,
            embedder=HashingEmbedder(),
            dispatch=dispatch,
        )
    )
    try:
        yield dispatch
    finally:
        set_runtime(None)


def drain(dispatch: LocalDispatch, *, skip: frozenset[str] = frozenset(), limit: int = 500) -> int:
    """Run queued jobs (and the jobs they queue) until none is left; how many ran."""
    return _drain(dispatch, skip=skip, limit=limit)


def talk_through(
    dispatch: LocalDispatch,
    sessions: sessionmaker[Session],
    world_id: object,
    *,
    skip: frozenset[str] = frozenset(),
    lines: int = 12,
) -> int:
    """Run a conversation as the game clock moves: drain the queue, then move the world's
    clock one line's time and send what came due, until nothing is left; how many jobs ran."""
    from db.queries.conversations import due_lines

    ran = drain(dispatch, skip=skip)
    for _ in range(lines):
        with sessions.begin() as session:
            world = session.get_one(World, world_id)
            world.game_time = world.game_time + timedelta(minutes=1)
            due, closing = due_lines(
                session, world_id=world.id, now=world.game_time, line=timedelta(minutes=1)
            )
        for conversation_id, seq in due:
            dispatch.send(jobs.converse_turn(conversation_id, seq))
        for conversation_id in closing:
            dispatch.send(jobs.end_conversation(conversation_id))
        ran += drain(dispatch, skip=skip)
    return ran


def seed_town(session: Session, world: World, *agents: Agent) -> None:
    """The small map, known in full by each agent."""
    apply_map(session, world_id=world.id, specs=flatten_map(TOWN))
    learn_places(
        session,
        agent_ids=[a.id for a in agents],
        places=world_places(session, world.id),
        at=world.game_time,
    )


def observe(
    sessions: sessionmaker[Session], agent_id: object, texts: list[str], at: datetime
) -> list[int]:
    """Write observations (provisional importance, unenriched), committed; their ids."""
    with sessions.begin() as session:
        agent = session.get_one(Agent, agent_id)
        rows = add_memories(
            session,
            world_id=agent.world_id,
            agent_id=agent.id,
            items=[NewMemory(description=t) for t in texts],
            now=at,
        )
        return [row.id for row in rows]


def count(session: Session, model: type[Any], *where: Any) -> int:
    query = sa.select(sa.func.count()).select_from(model)
    for condition in where:
        query = query.where(condition)
    return int(session.scalar(query) or 0)


def reflections_of(session: Session, agent_id: object) -> list[Memory]:
    query = sa.select(Memory).where(Memory.agent_id == agent_id, Memory.kind == "reflection")
    return list(session.scalars(query.order_by(Memory.id)))


def seeded(sessions: sessionmaker[Session], **world_fields: Any) -> tuple[World, Agent, Agent]:
    """A world at GAME_START (7 am) with Isabella and Klaus, summarised, knowing the town."""
    from tests.factories import make_agent, make_world

    with sessions.begin() as session:
        world = make_world(session, **world_fields)
        isabella = make_agent(
            session,
            world,
            name="Isabella Rodriguez",
            age=34,
            innate="friendly, outgoing",
            currently="runs Hobbs Cafe",
            summary="Isabella runs Hobbs Cafe.",
            summary_at=world.game_time,
            place="Hobbs Cafe: counter",
        )
        klaus = make_agent(
            session,
            world,
            name="Klaus Mueller",
            age=20,
            currently="writes a paper on gentrification",
            summary="Klaus is a student.",
            summary_at=world.game_time,
            place="Hobbs Cafe: counter",
        )
        seed_town(session, world, isabella, klaus)
    return world, isabella, klaus
