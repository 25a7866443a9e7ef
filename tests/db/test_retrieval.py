"""The fast retrieval path returns exactly what the reference `rank` returns, on real Postgres.

Every comparison is `search(...) == rank(every candidate row, ...)`: same memories, same order,
scores and components equal as floats. Hypothesis draws the awkward streams (ties, repeated and
missing vectors, zero weights, negative weights, tiny or unnormalised vectors, kind filters, k
beyond the stream); deterministic tests pin each path of the algorithm by its trace.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from datetime import timedelta
from typing import Any

import numpy as np
import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy.orm import Session, sessionmaker

from cognition.errors import EmbeddingSpaceMismatch, InvalidInput
from cognition.retrieval import cosine, rank
from cognition.types import MemoryKind, RetrievalWeights, ScoredMemory
from db.models import Agent, Memory, World
from db.models.memory import COVERED_DIMENSIONS, MEMORY_KINDS
from db.queries.memory_rows import driver
from db.retrieval import SearchTrace, brute_force, load_memories, search, touch
from db.retrieval.bounds import lean_relevance_error, relevance_error
from db.retrieval.probe import PROBE_PER_LEVEL
from db.retrieval.vector_cache import VectorCache
from tests.factories import GAME_START, make_agent, make_world

NOW = GAME_START + timedelta(days=20)
WIDE = COVERED_DIMENSIONS + 4
"""A dimension too large for the covering index: the heap path."""

Row = dict[str, Any]


@pytest.fixture
def db(sessions: sessionmaker[Session]) -> Iterator[Session]:
    with sessions() as session:
        yield session
        session.rollback()


def _insert(session: Session, agent: Agent, rows: Sequence[Row]) -> None:
    """Memories in one statement; each row needs created_at and may override the rest."""
    defaults: Row = dict(importance=3, kind="observation", embedding=None)
    values = [
        {
            **defaults,
            "world_id": agent.world_id,
            "agent_id": agent.id,
            "description": f"memory {i}",
            "content_hash": f"{i:064d}",
            **row,
        }
        for i, row in enumerate(rows)
    ]
    for value in values:
        value.setdefault("last_accessed_at", value["created_at"])
        value["depth"] = 1 if value["kind"] == "reflection" else 0
    if values:
        session.execute(sa.insert(Memory), values)


def _reference(
    session: Session,
    agent: Agent,
    query: Sequence[float] | None,
    *,
    weights: RetrievalWeights,
    k: int,
    kinds: Sequence[str] | None = None,
) -> list[ScoredMemory]:
    """`rank` over every candidate row, in Python."""
    memories = load_memories(session, agent_id=agent.id, kinds=kinds)
    return rank(memories, query_embedding=query, now=NOW, weights=weights, k=k)


def _search(
    session: Session,
    agent: Agent,
    query: Sequence[float] | None,
    *,
    weights: RetrievalWeights = RetrievalWeights(),
    k: int = 10,
    kinds: Sequence[str] | None = None,
    trace: SearchTrace | None = None,
    cache: VectorCache | bool = False,
) -> list[ScoredMemory]:
    """The SQL fast path unless a cache is given (tests/db/test_vector_cache.py pins that)."""
    return search(
        session,
        agent_id=agent.id,
        query_embedding=query,
        now=NOW,
        weights=weights,
        k=k,
        kinds=kinds,
        trace=trace,
        cache=cache,
    )


def _search_in(
    mode: str,
    session: Session,
    agent: Agent,
    query: Sequence[float] | None,
    **options: Any,
) -> list[ScoredMemory]:
    """Search by one of MODES: in SQL; from a cache with the rows still uncommitted (laid over
    it); from a cache that loaded them committed (the caller then deletes the world)."""
    if mode == "committed":
        session.commit()
    trace = SearchTrace()
    cache = False if mode == "sql" else VectorCache.megabytes(64)
    found = _search(session, agent, query, trace=trace, cache=cache, **options)
    settled = trace.path == "no candidates" or trace.path.startswith("brute force")
    assert settled or (trace.path == "cached") == (mode != "sql"), trace
    return found


MODES = ["sql", "overlay", "committed"]


def _forget(session: Session, agent: Agent) -> None:
    """Delete a committed test world (its agents and memories cascade)."""
    session.rollback()
    session.execute(sa.delete(World).where(World.id == agent.world_id))
    session.commit()


def _unit(v: np.ndarray) -> list[float]:
    return (v / np.linalg.norm(v)).astype(np.float32).astype(float).tolist()


# --- the property ------------------------------------------------------------------------

FLOAT32 = st.floats(-1.0, 1.0, allow_nan=False, width=32)
WEIGHT = st.sampled_from([0.0, 1.0, 1.0, 0.5, 2.0, 3.7, -1.0])
MINUTES = 60 * 24 * 25


@st.composite
def streams(draw: st.DrawFn) -> tuple[int, list[Row]]:
    """A memory stream with ties, repeats, gaps and odd vectors, and its dimension."""
    dimension = draw(st.sampled_from([3, 3, 8, 8, 8, WIDE]))
    unit = draw(st.booleans())  # unit vectors take the lean path, others the checked one
    pool = draw(
        st.lists(st.lists(FLOAT32, min_size=dimension, max_size=dimension), min_size=1, max_size=4)
    )
    rows = []
    for _ in range(draw(st.integers(0, 40))):
        created = GAME_START + timedelta(
            minutes=draw(st.integers(0, MINUTES)),
            microseconds=draw(st.sampled_from([0, 1, 999_999])),
        )
        later = timedelta(minutes=draw(st.sampled_from([0, 0, 5, 3000, 40_000])))
        shape = draw(st.sampled_from(["pool", "pool", "fresh", "none", "tiny"]))
        vector: list[float] | None = None
        if shape == "pool":
            vector = list(draw(st.sampled_from(pool)))
        elif shape == "fresh":
            vector = draw(st.lists(FLOAT32, min_size=dimension, max_size=dimension))
        elif shape == "tiny":
            vector = [1e-30] * dimension  # a norm the error bound does not cover
        if vector is not None and unit and shape != "tiny" and any(vector):
            vector = _unit(np.asarray(vector, dtype=np.float64))
        rows.append(
            dict(
                created_at=created,
                last_accessed_at=created + later,
                embedding=vector,
                importance=draw(st.integers(1, 10)),
                kind=draw(st.sampled_from(MEMORY_KINDS)),
            )
        )
    return dimension, rows


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    stream=streams(),
    weights=st.builds(RetrievalWeights, WEIGHT, WEIGHT, WEIGHT),
    kinds=st.none() | st.lists(st.sampled_from(MEMORY_KINDS), max_size=3, unique=True),
    data=st.data(),
)
@pytest.mark.parametrize("mode", MODES)
def test_search_equals_rank_over_every_candidate(
    mode: str,
    db: Session,
    stream: tuple[int, list[Row]],
    weights: RetrievalWeights,
    kinds: list[str] | None,
    data: st.DataObject,
) -> None:
    dimension, rows = stream
    agent = make_agent(db, make_world(db))
    _insert(db, agent, rows)
    vectors = [row["embedding"] for row in rows if row["embedding"] is not None]
    query = data.draw(
        st.none()
        | st.lists(FLOAT32, min_size=dimension, max_size=dimension).filter(any)
        | (st.sampled_from(vectors) if vectors else st.nothing()),
        label="query",
    )
    k = data.draw(st.integers(0, len(rows) + 2), label="k")
    expected = _reference(db, agent, query, weights=weights, k=k, kinds=kinds)
    try:
        assert _search_in(mode, db, agent, query, weights=weights, k=k, kinds=kinds) == expected
    finally:
        _forget(db, agent) if mode == "committed" else db.rollback()


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 2**32 - 1),
    size=st.integers(200, 1500),
    unit=st.booleans(),
    weights=st.builds(RetrievalWeights, WEIGHT, WEIGHT, WEIGHT),
    kinds=st.none() | st.lists(st.sampled_from(MEMORY_KINDS), min_size=1, max_size=3, unique=True),
    k=st.sampled_from([1, 10, 50]),
)
@pytest.mark.parametrize("mode", MODES)
def test_search_equals_rank_on_large_streams(
    mode: str,
    db: Session,
    seed: int,
    size: int,
    unit: bool,
    weights: RetrievalWeights,
    kinds: list[str] | None,
    k: int,
) -> None:
    """Streams big enough for the cuts and the repair to matter: clustered vectors with exact
    repeats and gaps, coarse timestamps (ties), every kind."""
    rng = np.random.default_rng(seed)
    topics = rng.standard_normal((5, 8))
    pool = topics[rng.integers(5, size=size)] + 0.5 * rng.standard_normal((size, 8))
    pool[rng.random(size) < 0.2] = topics[0]  # repeated observations, identical vectors
    if unit:
        pool /= np.linalg.norm(pool, axis=1, keepdims=True)
    rows = [
        dict(
            created_at=GAME_START + timedelta(hours=int(rng.integers(0, 600))),
            last_accessed_at=GAME_START + timedelta(hours=int(rng.integers(0, 700))),
            importance=int(rng.integers(1, 11)),
            kind=str(rng.choice(MEMORY_KINDS)),
            embedding=None
            if rng.random() < 0.03
            else pool[i].astype(np.float32).astype(float).tolist(),
        )
        for i in range(size)
    ]
    agent = make_agent(db, make_world(db))
    _insert(db, agent, rows)
    query = None if rng.random() < 0.1 else (topics[1] + rng.standard_normal(8)).tolist()
    expected = _reference(db, agent, query, weights=weights, k=k, kinds=kinds)
    try:
        assert _search_in(mode, db, agent, query, weights=weights, k=k, kinds=kinds) == expected
    finally:
        _forget(db, agent) if mode == "committed" else db.rollback()


# --- each path, pinned ----------------------------------------------------------------------


def _clustered(n: int, dimension: int = 16, seed: int = 3) -> tuple[list[Row], np.ndarray]:
    """A realistic stream: vectors around a few topics, mostly mundane importance."""
    rng = np.random.default_rng(seed)
    topics = rng.standard_normal((6, dimension))
    rows = []
    for i in range(n):
        vector = topics[i % 6] + 0.6 * rng.standard_normal(dimension)
        created = GAME_START + timedelta(minutes=int(rng.integers(0, MINUTES)))
        rows.append(
            dict(
                created_at=created,
                embedding=_unit(vector),
                importance=int(rng.integers(1, 11)),
                kind=str(rng.choice(["observation", "observation", "plan", "reflection"])),
                last_accessed_at=created + timedelta(minutes=int(rng.integers(0, 2)) * 600),
            )
        )
    return rows, topics


def test_a_large_stream_is_answered_from_a_few_rows_and_equals_rank(db: Session) -> None:
    agent = make_agent(db, make_world(db))
    rows, topics = _clustered(3000)
    _insert(db, agent, rows)
    rng = np.random.default_rng(9)
    for weights in (
        RetrievalWeights(),
        RetrievalWeights(0.5, 2.0, 1.0),
        RetrievalWeights(1.0, 1.0, 0.0),
        RetrievalWeights(-1.0, 1.0, 1.0),
    ):
        query = _unit(topics[int(rng.integers(6))] + 0.5 * rng.standard_normal(16))
        trace = SearchTrace()
        found = _search(db, agent, query, weights=weights, trace=trace)
        assert found == _reference(db, agent, query, weights=weights, k=10)
        assert trace.path == "fast" and trace.relevance == "LEAN covered"
        assert trace.ranked < 300  # the point: a few rows, not 3000


def test_the_repair_finds_recent_important_memories_the_pass_left_behind(db: Session) -> None:
    """Recency and importance can outweigh a mediocre relevance: such memories sit between the
    cuts, and only the repair's index range scans can bring them in."""
    agent = make_agent(db, make_world(db))
    rows, topics = _clustered(2000)
    for row in rows[:40]:
        row.update(importance=10, last_accessed_at=NOW - timedelta(minutes=5))
    _insert(db, agent, rows)
    query = _unit(topics[0])
    trace = SearchTrace()
    weights = RetrievalWeights(recency=2.0, importance=2.0, relevance=1.0)
    found = _search(db, agent, query, weights=weights, trace=trace)
    assert found == _reference(db, agent, query, weights=weights, k=10)
    assert trace.repaired > 0
    assert {s.memory.importance for s in found} == {10}


def test_another_agents_memories_never_leak_in(db: Session) -> None:
    world = make_world(db)
    mine, theirs = make_agent(db, world, name="Mine"), make_agent(db, world, name="Theirs")
    query = _unit(np.array([1.0, 0.0, 0.0]))
    _insert(
        db,
        mine,
        [
            dict(
                created_at=GAME_START + timedelta(hours=h),
                importance=2,
                embedding=_unit(np.array([0.2, 1.0, 0.1 * h])),
            )
            for h in range(30)
        ],
    )
    _insert(db, theirs, [dict(created_at=NOW, importance=10, embedding=query) for _ in range(30)])
    found = _search(db, mine, query, k=50)
    assert len(found) == 30
    mine_ids = {m.id for m in load_memories(db, agent_id=mine.id)}
    assert {s.memory.id for s in found} == mine_ids
    assert found == _reference(db, mine, query, weights=RetrievalWeights(), k=50)


def test_touch_updates_only_the_given_ids(db: Session) -> None:
    agent = make_agent(db, make_world(db))
    _insert(db, agent, [dict(created_at=GAME_START + timedelta(hours=h)) for h in range(5)])
    before = {m.id: m.last_accessed_at for m in load_memories(db, agent_id=agent.id)}
    chosen = sorted(before)[1:3]
    assert touch(db, ids=chosen, now=NOW) == 2
    after = {m.id: m.last_accessed_at for m in load_memories(db, agent_id=agent.id)}
    assert {i for i in after if after[i] == NOW} == set(chosen)
    assert all(after[i] == before[i] for i in after if i not in chosen)
    assert touch(db, ids=[], now=NOW) == 0


def test_search_never_touches(db: Session) -> None:
    agent = make_agent(db, make_world(db))
    _insert(db, agent, [dict(created_at=GAME_START, embedding=_unit(np.ones(3)))])
    _search(db, agent, _unit(np.ones(3)))
    assert load_memories(db, agent_id=agent.id)[0].last_accessed_at == GAME_START


def test_without_a_query_relevance_is_zero_and_recency_and_importance_rank(db: Session) -> None:
    agent = make_agent(db, make_world(db))
    rows, _ = _clustered(500)
    _insert(db, agent, rows)
    trace = SearchTrace()
    found = _search(db, agent, None, trace=trace)
    assert found == _reference(db, agent, None, weights=RetrievalWeights(), k=10)
    assert all(s.relevance.raw == 0.0 for s in found)
    assert trace.passes == 0 and trace.ranked < 500


def test_k_zero_and_negative_k(db: Session) -> None:
    agent = make_agent(db, make_world(db))
    _insert(db, agent, [dict(created_at=GAME_START, embedding=_unit(np.ones(3)))])
    assert _search(db, agent, _unit(np.ones(3)), k=0) == []
    with pytest.raises(InvalidInput):
        _search(db, agent, _unit(np.ones(3)), k=-1)


def test_an_agent_without_memories_or_kinds_gets_nothing(db: Session) -> None:
    agent = make_agent(db, make_world(db))
    assert _search(db, agent, _unit(np.ones(3))) == []
    _insert(db, agent, [dict(created_at=GAME_START, embedding=_unit(np.ones(3)))])
    assert _search(db, agent, _unit(np.ones(3)), kinds=[]) == []
    assert _search(db, agent, _unit(np.ones(3)), kinds=[MemoryKind.PLAN]) == []


def test_another_embedding_space_is_refused_like_rank_does(db: Session) -> None:
    agent = make_agent(db, make_world(db))
    _insert(
        db,
        agent,
        [
            dict(created_at=GAME_START, embedding=_unit(np.ones(3))),
            dict(created_at=GAME_START, embedding=_unit(np.ones(4)), kind="plan"),
        ],
    )
    with pytest.raises(EmbeddingSpaceMismatch):
        _reference(db, agent, _unit(np.ones(3)), weights=RetrievalWeights(), k=5)
    with pytest.raises(EmbeddingSpaceMismatch):
        _search(db, agent, _unit(np.ones(3)))
    # the stray vector is of a kind filtered out: not a candidate, no refusal
    only = ["observation"]
    found = _search(db, agent, _unit(np.ones(3)), kinds=only)
    assert found == _reference(
        db, agent, _unit(np.ones(3)), weights=RetrievalWeights(), k=10, kinds=only
    )


def test_when_the_probe_cannot_place_the_cuts_a_second_pass_does(db: Session) -> None:
    """The newest memories (all of one importance) have vectors too small to estimate: the
    probe has no relevance to cut at, the first pass learns the extremes, a second captures
    around them."""
    agent = make_agent(db, make_world(db))
    rows, _ = _clustered(300)
    for row in rows:
        row["importance"] = 5
    rows += [
        dict(created_at=NOW + timedelta(days=30), importance=5, embedding=[1e-30] * 16)
        for _ in range(PROBE_PER_LEVEL)
    ]
    _insert(db, agent, rows)
    query = _unit(np.arange(16.0))
    trace = SearchTrace()
    found = _search(db, agent, query, trace=trace)
    assert found == _reference(db, agent, query, weights=RetrievalWeights(), k=10)
    assert trace.passes == 2 and trace.relevance == "CHECKED covered"


def test_vectors_too_large_for_the_covering_index_are_read_from_the_heap(db: Session) -> None:
    agent = make_agent(db, make_world(db))
    rng = np.random.default_rng(5)
    rows = [
        dict(
            created_at=GAME_START + timedelta(hours=i),
            importance=i % 10 + 1,
            embedding=_unit(rng.standard_normal(WIDE)),
        )
        for i in range(200)
    ]
    _insert(db, agent, rows)
    query = _unit(rng.standard_normal(WIDE))
    trace = SearchTrace()
    assert _search(db, agent, query, trace=trace) == _reference(
        db, agent, query, weights=RetrievalWeights(), k=10
    )
    assert trace.relevance == "LEAN"


@pytest.mark.parametrize("query", [[math.inf, 0.0, 1.0], [1e-300, 0.0, 0.0], [0.0, 0.0, 0.0]])
def test_queries_outside_the_error_analysis_go_to_brute_force(
    db: Session, query: list[float]
) -> None:
    agent = make_agent(db, make_world(db))
    _insert(db, agent, [dict(created_at=GAME_START, embedding=_unit(np.ones(3)))])
    trace = SearchTrace()
    found = _search(db, agent, query, trace=trace)
    assert trace.path.startswith("brute force")
    assert found == brute_force(
        db, agent_id=agent.id, query_embedding=query, now=NOW, weights=RetrievalWeights(), k=10
    )


# --- the error bound the pruning rests on ---------------------------------------------------


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    dimension=st.sampled_from([2, 16, 384, 1000]),
    seed=st.integers(0, 2**32 - 1),
    spread=st.sampled_from([1e-3, 1.0, 1e3]),
)
def test_pgvector_estimates_stay_within_epsilon_of_the_reference(
    db: Session, dimension: int, seed: int, spread: float
) -> None:
    """Both SQL estimates (lean: the inner product of unit vectors; checked: divided by the
    stored norm) against the reference cosine, with cancellation-prone near-orthogonal pairs."""
    rng = np.random.default_rng(seed)
    base = rng.standard_normal(dimension)
    vectors = [
        base * spread,
        rng.standard_normal(dimension) * spread,
        (base + 1e-3 * rng.standard_normal(dimension)) * spread,
    ]
    query = rng.standard_normal(dimension)
    query -= (query @ base) / (base @ base) * base  # nearly orthogonal to the first vector
    unit_query = (query / np.linalg.norm(query)).astype(np.float32).astype(float).tolist()
    conn = driver(db)
    for vector in vectors:
        stored = np.asarray(vector, dtype=np.float32).astype(float).tolist()
        unit = _unit(np.asarray(vector))
        row = conn.execute(
            "SELECT -(%(v)s::vector <#> %(q)s::vector) / vector_norm(%(v)s::vector),"
            " -(%(u)s::vector <#> %(q)s::vector)",
            {"v": str(stored), "u": str(unit), "q": str(unit_query)},
        ).fetchone()
        assert row is not None
        checked, lean = row
        norm = float(np.linalg.norm(unit))
        lean_epsilon = lean_relevance_error(dimension, norm, abs(norm - 1.0))
        assert abs(checked - cosine(query.tolist(), stored)) <= relevance_error(dimension)
        assert abs(lean - cosine(query.tolist(), unit)) <= lean_epsilon
