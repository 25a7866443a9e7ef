"""The per-process copy of agents' rows (`db.retrieval.vector_cache`) stays exactly the
committed data.

Each test writes through real PostgreSQL transactions, searches from a cache, and compares the
result with `rank` over every row as a fresh session reads them. The tricky orders are the
point: a transaction that started earlier committing later, the searcher's own uncommitted
rows (used, never kept), an overwrite rolled back.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import timedelta

import numpy as np
import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from cognition.errors import EmbeddingSpaceMismatch
from cognition.retrieval import cosine, rank
from cognition.types import RetrievalWeights, ScoredMemory
from db.models import Agent, Memory
from db.retrieval import SearchTrace, load_memories, search, touch, vector_cache
from db.retrieval.bounds import relevance_error, unit_vector
from db.retrieval.vector_cache import (
    TEXT_OVERHEAD_BYTES,
    AgentVectors,
    Rows,
    Texts,
    VectorCache,
)
from db.settings import DEFAULT_RETRIEVAL_CACHE_MB, Settings
from service.app import create_app
from tests.factories import GAME_START, committed_agent
from workers.runtime import build_runtime

NOW = GAME_START + timedelta(days=3)
DIMENSION = 8


def _agent(sessions: sessionmaker[Session]) -> uuid.UUID:
    return committed_agent(sessions).id


def _add(session: Session, agent_id: uuid.UUID, n: int, *, seed: int, dim: int = DIMENSION) -> None:
    rng = np.random.default_rng(seed)
    agent = session.get(Agent, agent_id)
    assert agent is not None
    session.execute(
        sa.insert(Memory),
        [
            dict(
                world_id=agent.world_id,
                agent_id=agent_id,
                description=f"memory {seed}-{i}",
                content_hash=f"{seed}-{i}",
                created_at=GAME_START + timedelta(minutes=int(rng.integers(0, 3000))),
                last_accessed_at=GAME_START + timedelta(minutes=int(rng.integers(0, 4000))),
                importance=int(rng.integers(1, 11)),
                embedding=rng.standard_normal(dim).astype(np.float32).tolist(),
            )
            for i in range(n)
        ],
    )


def _cached(
    session: Session, cache: VectorCache, agent_id: uuid.UUID, query: Sequence[float], k: int = 10
) -> list[ScoredMemory]:
    trace = SearchTrace()
    found = search(
        session,
        agent_id=agent_id,
        query_embedding=query,
        now=NOW,
        weights=RetrievalWeights(),
        k=k,
        trace=trace,
        cache=cache,
    )
    assert trace.path == "cached", trace
    return found


def _truth(
    sessions: sessionmaker[Session], agent_id: uuid.UUID, query: Sequence[float], k: int = 10
) -> list[ScoredMemory]:
    """`rank` over every committed row, read by a fresh session."""
    with sessions() as fresh:
        memories = load_memories(fresh, agent_id=agent_id)
    return rank(memories, query_embedding=query, now=NOW, weights=RetrievalWeights(), k=k)


QUERY = np.linspace(-1.0, 1.0, DIMENSION).tolist()


def test_new_committed_rows_are_read_and_only_they(sessions: sessionmaker[Session]) -> None:
    agent_id, cache = _agent(sessions), VectorCache.megabytes(16)
    with sessions() as session:
        _add(session, agent_id, 300, seed=1)
        session.commit()
        assert _cached(session, cache, agent_id, QUERY, k=300) == _truth(
            sessions, agent_id, QUERY, 300
        )
        _add(session, agent_id, 50, seed=2)
        session.commit()
        assert _cached(session, cache, agent_id, QUERY, k=350) == _truth(
            sessions, agent_id, QUERY, 350
        )
    with cache.agent(agent_id) as entry:
        assert entry.size == 350 and entry.watermark > 0


def test_a_touch_moves_recency_in_the_copy(sessions: sessionmaker[Session]) -> None:
    agent_id, cache = _agent(sessions), VectorCache.megabytes(16)
    with sessions() as session:
        _add(session, agent_id, 200, seed=3)
        session.commit()
        _cached(session, cache, agent_id, QUERY, k=200)
        oldest = min(load_memories(session, agent_id=agent_id), key=lambda m: m.last_accessed_at)
        touch(session, ids=[oldest.id], now=NOW)
        session.commit()
        after = _cached(session, cache, agent_id, QUERY, k=200)
    assert after == _truth(sessions, agent_id, QUERY, k=200)
    [touched] = [s for s in after if s.memory.id == oldest.id]
    assert touched.recency.raw == 1.0


def test_an_earlier_transaction_committing_later_is_not_missed(
    sessions: sessionmaker[Session],
) -> None:
    """The writer's transaction id is older than the searcher's watermark could be if it were
    taken from commit order: the watermark is the oldest running transaction instead."""
    agent_id, cache = _agent(sessions), VectorCache.megabytes(16)
    with sessions() as slow, sessions() as quick, sessions() as searcher:
        _add(slow, agent_id, 20, seed=4)  # slow's transaction id is taken now
        _add(quick, agent_id, 20, seed=5)
        quick.commit()
        assert _cached(searcher, cache, agent_id, QUERY, k=100) == _truth(
            sessions, agent_id, QUERY, 100
        )
        searcher.commit()
        slow.commit()
        found = _cached(searcher, cache, agent_id, QUERY, k=100)
    assert len(found) == 40 and found == _truth(sessions, agent_id, QUERY, 100)


def test_own_uncommitted_rows_are_used_never_kept(sessions: sessionmaker[Session]) -> None:
    agent_id, cache = _agent(sessions), VectorCache.megabytes(16)
    with sessions() as session:
        _add(session, agent_id, 30, seed=6)
        session.commit()
        _add(session, agent_id, 30, seed=7)
        mine = _cached(session, cache, agent_id, QUERY, k=100)
        assert len(mine) == 60
        session.rollback()
        assert _cached(session, cache, agent_id, QUERY, k=100) == _truth(
            sessions, agent_id, QUERY, 100
        )
    with cache.agent(agent_id) as entry:
        assert entry.size == 30


def test_an_overwrite_rolled_back_leaves_the_committed_version(
    sessions: sessionmaker[Session],
) -> None:
    """Another transaction commits a change to a row, then ours overwrites it, searches and
    rolls back: the copy must end with the other transaction's version."""
    agent_id, cache = _agent(sessions), VectorCache.megabytes(16)
    with sessions() as session, sessions() as other:
        _add(session, agent_id, 40, seed=8)
        session.commit()
        _cached(session, cache, agent_id, QUERY)
        session.commit()
        target = load_memories(other, agent_id=agent_id)[0].id
        other.execute(sa.update(Memory).where(Memory.id == target).values(importance=10))
        other.commit()
        session.execute(sa.update(Memory).where(Memory.id == target).values(importance=1))
        _cached(session, cache, agent_id, QUERY)
        session.rollback()
        assert _cached(session, cache, agent_id, QUERY) == _truth(sessions, agent_id, QUERY)
    with cache.agent(agent_id) as entry:
        assert entry.columns.importance[entry.position[target]] == 10.0


def test_an_agent_over_the_budget_is_searched_in_sql(sessions: sessionmaker[Session]) -> None:
    agent_id, cache = _agent(sessions), VectorCache(max_bytes=1000)
    with sessions() as session:
        _add(session, agent_id, 100, seed=9)
        session.commit()
        trace = SearchTrace()
        found = search(
            session,
            agent_id=agent_id,
            query_embedding=QUERY,
            now=NOW,
            weights=RetrievalWeights(),
            k=10,
            trace=trace,
            cache=cache,
        )
    assert trace.path == "fast" and trace.cache_miss == "agent not cacheable"
    assert found == _truth(sessions, agent_id, QUERY) and agent_id not in cache


def test_the_least_recently_searched_agent_is_evicted(sessions: sessionmaker[Session]) -> None:
    first, second = _agent(sessions), _agent(sessions)
    with sessions() as session:
        _add(session, first, 100, seed=10)
        _add(session, second, 100, seed=11)
        session.commit()
        probe = VectorCache.megabytes(16)
        _cached(session, probe, first, QUERY)
        with probe.agent(first) as entry:
            one_agent = entry.nbytes
        cache = VectorCache(max_bytes=one_agent + one_agent // 2)
        _cached(session, cache, first, QUERY)
        _cached(session, cache, second, QUERY)
    assert second in cache and first not in cache and cache.nbytes <= cache.max_bytes


def test_a_reembed_under_way_falls_back_and_refuses_like_rank(
    sessions: sessionmaker[Session],
) -> None:
    agent_id, cache = _agent(sessions), VectorCache.megabytes(16)
    with sessions() as session:
        _add(session, agent_id, 10, seed=12)
        session.commit()
        _cached(session, cache, agent_id, QUERY)
        _add(session, agent_id, 3, seed=13, dim=DIMENSION + 1)
        session.commit()
        with pytest.raises(EmbeddingSpaceMismatch):
            search(
                session,
                agent_id=agent_id,
                query_embedding=QUERY,
                now=NOW,
                weights=RetrievalWeights(),
                k=5,
                cache=cache,
            )
        session.rollback()
        wider = [0.5] * (DIMENSION + 1)
        session.execute(
            sa.update(Memory).where(Memory.agent_id == agent_id).values(embedding=wider)
        )
        session.commit()
        assert _cached(session, cache, agent_id, wider) == _truth(sessions, agent_id, wider)


def test_a_deleted_agent_is_never_answered_from_its_copy(
    sessions: sessionmaker[Session],
) -> None:
    """The copy holds whole memories, so nothing else would notice they are gone."""
    agent_id, cache = _agent(sessions), VectorCache.megabytes(16)
    with sessions() as session:
        _add(session, agent_id, 40, seed=5)
        session.commit()
        assert len(_cached(session, cache, agent_id, QUERY)) == 10
        session.execute(sa.delete(Agent).where(Agent.id == agent_id))
        session.commit()
        trace = SearchTrace()
        found = search(
            session,
            agent_id=agent_id,
            query_embedding=QUERY,
            now=NOW,
            weights=RetrievalWeights(),
            k=10,
            trace=trace,
            cache=cache,
        )
        assert found == [] and trace.cache_miss == "the agent is gone"
        assert agent_id not in cache


@pytest.mark.parametrize("dimension", [2, 16, 384, 1000])
def test_numpy_estimates_stay_within_epsilon_of_the_reference(dimension: int) -> None:
    """The bound `in_process` prunes with, for numpy's float32 product: nearly
    orthogonal pairs (cancellation), norms far from 1."""
    rng = np.random.default_rng(dimension)
    base = rng.standard_normal(dimension)
    query = rng.standard_normal(dimension)
    query -= (query @ base) / (base @ base) * base
    vectors = np.stack(
        [base * s for s in (1e-3, 1.0, 1e3)]
        + [rng.standard_normal(dimension) * s for s in (1e-3, 1.0, 1e3)]
    ).astype(np.float32)
    unit = unit_vector(query.tolist())
    norms = np.sqrt((vectors.astype(np.float64) ** 2).sum(axis=1))
    estimates = (vectors @ unit).astype(np.float64) / norms
    for vector, estimate in zip(vectors, estimates, strict=True):
        reference = cosine(query.tolist(), vector.astype(np.float64).tolist())
        assert abs(estimate - reference) <= relevance_error(dimension)


def test_apply_overwrites_known_rows_and_grows() -> None:
    entry = AgentVectors()
    n = 1500

    def rows(ids: range, importance: float) -> Rows:
        size = len(ids)
        return Rows(
            ids=np.array(ids, dtype=np.int64),
            kinds=np.zeros(size, dtype=np.uint8),
            importance=np.full(size, importance),
            created_us=np.zeros(size, dtype=np.int64),
            accessed_us=np.zeros(size, dtype=np.int64),
            scale=np.ones(size),
            exact=np.zeros(size, dtype=np.bool_),
            embedded=np.ones(size, dtype=np.bool_),
            vectors=np.ones((size, 4), dtype=np.float32),
            dimensions=np.full(size, 4, dtype=np.int32),
            codes=np.full((size, 4), 127, dtype=np.int8),
            code_scale=np.full(size, 1 / 127),
            code_error=np.zeros(size),
            texts=np.array([Texts("x" * 10, 0, None, None, None, "game")] * size),
        )

    entry.apply(rows(range(n), 1.0))
    entry.apply(rows(range(n - 10, n + 10), 7.0))
    columns = entry.columns
    assert entry.size == n + 10 and entry.dimension == 4
    assert columns.importance[entry.position[n - 11]] == 1.0
    assert columns.importance[entry.position[n - 10]] == 7.0
    assert columns.importance[entry.position[n + 9]] == 7.0
    assert sorted(columns.ids.tolist()) == list(range(n + 10))
    assert (columns.codes == 127).all() and columns.codes.shape == (n + 10, 4)
    assert entry.text_bytes == (n + 10) * (TEXT_OVERHEAD_BYTES + 10 + len("game"))


def test_the_edge_sizes_the_process_cache(
    monkeypatch: pytest.MonkeyPatch, settings: Settings
) -> None:
    """The budget comes from the settings the API's app factory and the worker runtime are
    given; nothing reads the environment inside `vector_cache`."""
    monkeypatch.setattr(vector_cache, "_process_cache", None)
    monkeypatch.setenv("HEARTH_RETRIEVAL_CACHE_MB", "5")  # ignored: settings are passed in
    create_app(settings.model_copy(update={"retrieval_cache_mb": 3}))
    cache = vector_cache.process_cache()
    assert cache is not None and cache.max_bytes == 3 * 1024 * 1024
    create_app(settings.model_copy(update={"retrieval_cache_mb": 3}))
    assert vector_cache.process_cache() is cache  # the same budget keeps what it holds
    build_runtime(settings.model_copy(update={"retrieval_cache_mb": 0})).engine.dispose()
    assert vector_cache.process_cache() is None
    monkeypatch.setattr(vector_cache, "_process_cache", None)
    cache = vector_cache.process_cache()
    assert cache is not None and cache.max_bytes == DEFAULT_RETRIEVAL_CACHE_MB * 1024 * 1024
