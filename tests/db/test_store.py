"""`PgMemoryStore` behaves like cognition's protocol says, and world settings override globals."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy.orm import Session, sessionmaker

from cognition.hashing_embedder import HashingEmbedder
from cognition.types import MemoryKind, NewMemory, RetrievalWeights
from db.models import Agent, World
from db.queries.worlds import effective_weights, reflection_threshold
from db.settings import Settings
from db.store import PgMemoryStore
from tests.factories import GAME_START, committed_agent


@pytest.fixture
def agent(sessions: sessionmaker[Session]) -> Agent:
    return committed_agent(sessions)


def store(session: Session, agent: Agent) -> PgMemoryStore:
    return PgMemoryStore(
        session, world_id=agent.world_id, agent_id=agent.id, embedder=HashingEmbedder()
    )


def test_add_get_and_recent(sessions: sessionmaker[Session], agent: Agent) -> None:
    with sessions.begin() as session:
        added = store(session, agent).add(
            [
                NewMemory(description="Klaus reads", created_at=GAME_START),
                NewMemory(
                    description="Hi",
                    kind=MemoryKind.UTTERANCE,
                    created_at=GAME_START + timedelta(minutes=1),
                ),
                NewMemory(
                    description="Klaus studies",
                    kind=MemoryKind.REFLECTION,
                    importance=8,
                    evidence_ids=(),
                    depth=1,
                    created_at=GAME_START + timedelta(minutes=2),
                ),
            ],
            now=GAME_START,
        )
    ids = [m.id for m in added]
    with sessions() as session:
        mine = store(session, agent)
        assert [m.id for m in mine.get([ids[2], 10**9, ids[0]])] == [ids[2], ids[0]]
        assert [m.description for m in mine.recent(2)] == ["Klaus studies", "Hi"]
        assert [m.id for m in mine.recent(5, kinds={MemoryKind.UTTERANCE})] == [ids[1]]
        assert mine.get([ids[2]])[0].importance == 8 and mine.get([ids[2]])[0].depth == 1


def test_retrieve_touches_only_when_asked(sessions: sessionmaker[Session], agent: Agent) -> None:
    with sessions.begin() as session:
        [memory] = store(session, agent).add([NewMemory(description="fire!")], now=GAME_START)
    later = GAME_START + timedelta(hours=3)
    with sessions.begin() as session:
        [found] = store(session, agent).retrieve("fire", k=3, now=later, touch=False)
        assert found.memory.id == memory.id
    with sessions.begin() as session:
        assert store(session, agent).get([memory.id])[0].last_accessed_at == GAME_START
        store(session, agent).retrieve("fire", k=3, now=later)
    with sessions() as session:
        assert store(session, agent).get([memory.id])[0].last_accessed_at == later


def test_world_settings_override_the_global_ones(
    sessions: sessionmaker[Session], settings: Settings
) -> None:
    plain = World(settings={})
    tuned = World(
        settings={
            "weights": {"recency": 0.5, "importance": 2, "relevance": 3},
            "reflection_threshold": 40,
        }
    )
    assert effective_weights(plain, settings) == RetrievalWeights()
    assert effective_weights(tuned, settings) == RetrievalWeights(0.5, 2.0, 3.0)
    assert reflection_threshold(plain, settings) == settings.reflection_threshold == 150
    assert reflection_threshold(tuned, settings) == 40
