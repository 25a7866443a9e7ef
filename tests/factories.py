"""Small factories for rows the tests need; each returns the flushed ORM object."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session, sessionmaker

from db.models import Agent, Memory, World

GAME_START = datetime(2023, 2, 13, 7, 0)


def make_world(session: Session, **fields: Any) -> World:
    world = World(name=fields.pop("name", "Testville"), game_time=GAME_START, **fields)
    session.add(world)
    session.flush()
    return world


def make_agent(session: Session, world: World, **fields: Any) -> Agent:
    agent = Agent(world_id=world.id, name=fields.pop("name", "Isabella Rodriguez"), **fields)
    session.add(agent)
    session.flush()
    return agent


def committed_agent(sessions: sessionmaker[Session], **fields: Any) -> Agent:
    """An agent of a new world, committed: for code under test that opens its own
    transactions (enrichment, task bodies, the vector cache)."""
    with sessions.begin() as session:
        return make_agent(session, make_world(session), **fields)


def make_memory(session: Session, agent: Agent, **fields: Any) -> Memory:
    at = fields.pop("created_at", GAME_START)
    memory = Memory(
        world_id=agent.world_id,
        agent_id=agent.id,
        description=fields.pop("description", "Isabella is opening the cafe"),
        created_at=at,
        last_accessed_at=fields.pop("last_accessed_at", at),
        importance=fields.pop("importance", 3),
        content_hash=fields.pop("content_hash", "0" * 64),
        **fields,
    )
    session.add(memory)
    session.flush()
    return memory
