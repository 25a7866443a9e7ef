"""Enrichment as a task body, and end to end: POST memories → a real worker embeds and rates."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session, sessionmaker

from cognition.types import NewMemory
from db.models import Agent, Memory
from db.queries.api_keys import generate_key, store_key
from db.queries.memories import add_memories
from db.settings import Settings
from service.app import create_app
from tests.factories import GAME_START, make_agent, make_world
from tests.polling import wait_until
from tests.service.api import agent_ids, create_world
from workers.runtime import build_runtime, set_runtime
from workers.tasks.enrichment import enrich_backlog, enrich_memories

ENRICH_TIMEOUT_S = 30.0


@pytest.fixture
def runtime(settings: Settings) -> Iterator[None]:
    set_runtime(build_runtime(settings))
    yield
    set_runtime(None)


def test_the_task_body_enriches_and_a_redelivery_does_nothing(
    sessions: sessionmaker[Session], runtime: None
) -> None:
    with sessions.begin() as session:
        agent = make_agent(session, make_world(session))
        items = [NewMemory(description=t) for t in ("The cafe is on fire!", "Klaus reads")]
        ids = [
            m.id
            for m in add_memories(
                session, world_id=agent.world_id, agent_id=agent.id, items=items, now=GAME_START
            )
        ]
    first = enrich_memories(ids)
    again = enrich_memories(ids)
    assert (first["embedded"], first["scored"]) == (2, 2)
    assert again == {"embedded": 0, "scored": 0, "crossed": []}
    with sessions() as session:
        total = session.scalar(sa.select(Agent.importance_since_reflection))
        scores = session.scalars(sa.select(Memory.importance)).all()
    assert total == sum(scores)
    assert enrich_backlog() == {"embedded": 0, "scored": 0}


def test_the_backlog_enriches_memories_whose_job_was_lost(
    sessions: sessionmaker[Session], runtime: None
) -> None:
    with sessions.begin() as session:
        agent = make_agent(session, make_world(session))
        items = [NewMemory(description=f"lost {i}") for i in range(7)]
        add_memories(
            session, world_id=agent.world_id, agent_id=agent.id, items=items, now=GAME_START
        )
        session.execute(sa.update(Memory).values(inserted_at=sa.func.now() - timedelta(hours=1)))
    assert enrich_backlog(limit=3) == {"embedded": 7, "scored": 7}  # three batches in one run
    with sessions() as session:
        assert session.scalar(sa.select(sa.func.count()).where(Memory.embedding.is_(None))) == 0


@pytest.mark.worker
def test_posted_memories_are_enriched_by_the_worker(
    settings: Settings, sessions: sessionmaker[Session], celery_worker: None
) -> None:
    admin = generate_key("admin")
    with sessions.begin() as session:
        store_key(session, admin)
    with TestClient(create_app(settings)) as client:
        url = _agent_url(client, {"Authorization": f"Bearer {admin}"})
        texts = ["Isabella is planning a party", "Klaus is reading", "Isabella is idle"]
        response = client.post(
            url,
            json={"memories": [{"description": t} for t in texts]},
            headers={"Authorization": f"Bearer {admin}"},
        )
        assert response.status_code == 201
        ids = [m["id"] for m in response.json()["items"]]
        assert not any(m["embedded"] or m["importance_scored"] for m in response.json()["items"])

    def enriched() -> bool:
        with sessions() as session:
            rows = session.scalars(sa.select(Memory).where(Memory.id.in_(ids))).all()
        return all(r.embedding is not None and r.importance_scored for r in rows)

    wait_until(enriched, "the enrichment of the memories", timeout_s=ENRICH_TIMEOUT_S)
    with sessions() as session:
        rows = session.scalars(sa.select(Memory).where(Memory.id.in_(ids))).all()
        assert session.scalar(sa.select(Agent.importance_since_reflection)) == sum(
            r.importance for r in rows
        )


def _agent_url(client: TestClient, headers: dict[str, str]) -> str:
    world = create_world(client, headers)
    [agent_id] = agent_ids(client, world | {"headers": headers}, "Isabella")
    return f"/v1/worlds/{world['id']}/agents/{agent_id}/memories"
