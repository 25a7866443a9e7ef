"""Deleting an agent while the enrichment job holds its memories waits; it never deadlocks."""

from __future__ import annotations

import threading
import uuid

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from db.models import Agent, Memory
from db.queries.agents import delete_agent
from tests.factories import make_agent, make_memory, make_world

BLOCKED_PROBE_S = 0.5


def _delete(sessions: sessionmaker[Session], agent_id: uuid.UUID, errors: list[Exception]) -> None:
    try:
        with sessions() as session:
            delete_agent(session, agent_id)
            session.commit()
    except Exception as exc:  # reported to the test thread
        errors.append(exc)


def test_delete_takes_the_enrichment_jobs_lock_order(sessions: sessionmaker[Session]) -> None:
    with sessions.begin() as setup:
        agent = make_agent(setup, make_world(setup))
        memory_ids = [make_memory(setup, agent).id for _ in range(3)]
        agent_id = agent.id
    errors: list[Exception] = []
    deleter = threading.Thread(target=_delete, args=(sessions, agent_id, errors))
    with sessions() as job:  # what enrichment does: memories (id order), then the agent row
        job.execute(
            sa.select(Memory.id)
            .where(Memory.id.in_(memory_ids))
            .order_by(Memory.id)
            .with_for_update()
        )
        deleter.start()
        deleter.join(BLOCKED_PROBE_S)
        job.execute(
            sa.update(Agent)
            .where(Agent.id == agent_id)
            .values(importance_since_reflection=Agent.importance_since_reflection + 5)
        )
        job.commit()
    deleter.join(timeout=10)
    assert errors == []
    with sessions() as session:
        assert session.get(Agent, agent_id) is None
        assert session.scalar(sa.select(sa.func.count()).select_from(Memory)) == 0
