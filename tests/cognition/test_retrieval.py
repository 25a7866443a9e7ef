"""The paper's retrieval function: a hand-checked example, edge cases, and property tests."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cognition.errors import EmbeddingSpaceMismatch, InvalidInput
from cognition.retrieval import (
    cosine,
    fit_budget,
    normalize,
    rank,
    recency,
    relevances,
)
from cognition.tokens import estimate_tokens
from cognition.types import Memory, MemoryKind, RetrievalWeights, ScoredMemory

NOW = datetime(2024, 2, 13, 12, 0)
SQRT_HALF = 1 / math.sqrt(2)


def memory(
    id: int,
    *,
    hours_ago: float = 0.0,
    importance: int = 5,
    embedding: Sequence[float] | None = None,
    created_at: datetime | None = None,
    description: str = "",
) -> Memory:
    """A memory last accessed `hours_ago` game hours before NOW (created then, unless given)."""
    accessed = NOW - timedelta(hours=hours_ago)
    return Memory(
        id=id,
        kind=MemoryKind.OBSERVATION,
        description=description or f"memory {id}",
        created_at=created_at or accessed,
        last_accessed_at=accessed,
        importance=importance,
        embedding=embedding,
    )


def ids(scored: Sequence[ScoredMemory]) -> list[int]:
    return [s.memory.id for s in scored]


# --- the five-memory example, by hand -------------------------------------------------------
#
# query q = (1, 0); now = NOW; all weights 1.
#
#   id  hours since access  importance  embedding   cosine(q, e)
#   1    0                  2           (0, 1)       0
#   2   10                  8           (1, 1)       1/√2 = 0.707107
#   3   24                  5           (1, 0)       1
#   4   48                  10          None         0 (not embedded)
#   5    2                  1           (-1, 0)     -1
#
# recency raw = 0.995^h: 1.0, 0.951110, 0.886654, 0.786154, 0.990025
#   min 0.786154 (id 4), max 1.0 (id 1), span 0.213846
#   normalised (x - min) / span: 1.0, 0.771378, 0.469961, 0.0, 0.953354
# importance raw 2, 8, 5, 10, 1: min 1, max 10, span 9
#   normalised: 1/9 = 0.111111, 7/9 = 0.777778, 4/9 = 0.444444, 1.0, 0.0
# relevance raw 0, 0.707107, 1, 0, -1: min -1, max 1, span 2
#   normalised: 0.5, 0.853553, 1.0, 0.5, 0.0
# score = rec_n + imp_n + rel_n:
#   id 1: 1.0      + 0.111111 + 0.5      = 1.611111
#   id 2: 0.771378 + 0.777778 + 0.853553 = 2.402709
#   id 3: 0.469961 + 0.444444 + 1.0      = 1.914405
#   id 4: 0.0      + 1.0      + 0.5      = 1.5
#   id 5: 0.953354 + 0.0      + 0.0      = 0.953354
# order: 2, 3, 1, 4, 5

FIVE = [
    memory(1, hours_ago=0, importance=2, embedding=(0.0, 1.0)),
    memory(2, hours_ago=10, importance=8, embedding=(1.0, 1.0)),
    memory(3, hours_ago=24, importance=5, embedding=(1.0, 0.0)),
    memory(4, hours_ago=48, importance=10, embedding=None),
    memory(5, hours_ago=2, importance=1, embedding=(-1.0, 0.0)),
]
QUERY = (1.0, 0.0)


def test_five_memory_example_matches_hand_arithmetic() -> None:
    result = rank(FIVE, query_embedding=QUERY, now=NOW, k=5)

    assert ids(result) == [2, 3, 1, 4, 5]
    by_id = {s.memory.id: s for s in result}
    expected = {
        # id: (rec raw, rec n, imp raw, imp n, rel raw, rel n, score)
        1: (1.0, 1.0, 2.0, 1 / 9, 0.0, 0.5, 1.611111),
        2: (0.951110, 0.771378, 8.0, 7 / 9, SQRT_HALF, 0.853553, 2.402709),
        3: (0.886654, 0.469961, 5.0, 4 / 9, 1.0, 1.0, 1.914405),
        4: (0.786154, 0.0, 10.0, 1.0, 0.0, 0.5, 1.5),
        5: (0.990025, 0.953354, 1.0, 0.0, -1.0, 0.0, 0.953354),
    }
    for memory_id, (rec, rec_n, imp, imp_n, rel, rel_n, score) in expected.items():
        got = by_id[memory_id]
        assert got.recency.raw == pytest.approx(rec, abs=1e-6)
        assert got.recency.normalized == pytest.approx(rec_n, abs=1e-6)
        assert got.importance.raw == imp
        assert got.importance.normalized == pytest.approx(imp_n, abs=1e-12)
        assert got.relevance.raw == pytest.approx(rel, abs=1e-12)
        assert got.relevance.normalized == pytest.approx(rel_n, abs=1e-6)
        assert got.score == pytest.approx(score, abs=1e-6)


def test_top_k_is_a_prefix_of_the_full_ranking() -> None:
    top3 = rank(FIVE, query_embedding=QUERY, now=NOW, k=3)
    assert ids(top3) == [2, 3, 1]
    assert top3 == rank(FIVE, query_embedding=QUERY, now=NOW, k=5)[:3]


def test_normalisation_uses_the_whole_candidate_set_not_only_the_top_k() -> None:
    top1 = rank(FIVE, query_embedding=QUERY, now=NOW, k=1)[0]
    assert top1.recency.normalized == pytest.approx(0.771378, abs=1e-6)


def test_constant_component_normalises_to_zero_and_cannot_reorder() -> None:
    def with_importance(value: int) -> list[Memory]:
        return [replace(m, importance=value) for m in FIVE]

    low = rank(with_importance(1), query_embedding=QUERY, now=NOW, k=5)
    high = rank(with_importance(10), query_embedding=QUERY, now=NOW, k=5)
    ignored = rank(
        FIVE, query_embedding=QUERY, now=NOW, weights=RetrievalWeights(importance=0.0), k=5
    )

    assert all(s.importance.normalized == 0.0 for s in low + high)
    assert ids(low) == ids(high) == ids(ignored)
    assert [s.score for s in low] == [s.score for s in high] == [s.score for s in ignored]


def test_ties_are_broken_newer_first_then_higher_id() -> None:
    early, late = NOW - timedelta(hours=5), NOW - timedelta(hours=1)
    twins = [
        memory(10, importance=5, created_at=early),
        memory(11, importance=5, created_at=late),
        memory(12, importance=5, created_at=early),
        memory(9, importance=5, created_at=late),
    ]

    result = rank(twins, query_embedding=None, now=NOW, k=4)

    assert {s.score for s in result} == {0.0}
    assert ids(result) == [11, 9, 12, 10]


def test_memory_without_embedding_has_relevance_zero() -> None:
    memories = [
        memory(1, embedding=(1.0, 0.0)),
        memory(2, embedding=None),
        memory(3, embedding=(0.0, 1.0)),
    ]
    assert relevances(memories, (1.0, 0.0)) == [1.0, 0.0, 0.0]
    by_id = {s.memory.id: s for s in rank(memories, query_embedding=(1.0, 0.0), now=NOW, k=3)}
    assert by_id[2].relevance.raw == 0.0
    assert by_id[2].relevance.normalized == 0.0
    assert by_id[1].relevance.normalized == 1.0


def test_without_query_embedding_relevance_is_zero_for_every_memory() -> None:
    result = rank(FIVE, query_embedding=None, now=NOW, k=5)
    assert all(s.relevance == result[0].relevance for s in result)
    assert result[0].relevance.raw == 0.0
    assert result[0].relevance.normalized == 0.0
    # Recency + importance alone: id 1 = 1.0 + 1/9, id 2 = 0.771 + 0.778, id 4 = 0 + 1, ...
    assert ids(result) == [2, 1, 4, 5, 3]


def test_weights_change_the_order() -> None:
    def only(**weights: float) -> list[int]:
        zero = {"recency": 0.0, "importance": 0.0, "relevance": 0.0}
        chosen = RetrievalWeights(**(zero | weights))
        return ids(rank(FIVE, query_embedding=QUERY, now=NOW, weights=chosen, k=5))

    # Ties among equal components fall back to newer first (created = last accessed here).
    assert only(recency=1.0) == [1, 5, 2, 3, 4]
    assert only(importance=1.0) == [4, 2, 3, 1, 5]
    assert only(relevance=1.0) == [3, 2, 1, 4, 5]


def test_k_larger_than_the_set_returns_everything_and_k_zero_nothing() -> None:
    assert ids(rank(FIVE, query_embedding=QUERY, now=NOW, k=50)) == [2, 3, 1, 4, 5]
    assert rank(FIVE, query_embedding=QUERY, now=NOW, k=0) == []
    assert rank([], query_embedding=QUERY, now=NOW, k=10) == []


def test_negative_k_is_invalid_input() -> None:
    with pytest.raises(InvalidInput) as caught:
        rank(FIVE, query_embedding=QUERY, now=NOW, k=-1)
    assert caught.value.field == "k"


def test_mismatched_embedding_dimensions_are_refused() -> None:
    with pytest.raises(EmbeddingSpaceMismatch):
        rank(FIVE, query_embedding=(1.0, 0.0, 0.0), now=NOW, k=5)
    with pytest.raises(EmbeddingSpaceMismatch):
        cosine((1.0, 0.0), (1.0, 0.0, 0.0))


def test_recency_decays_per_game_hour_and_clamps_future_access() -> None:
    assert recency(NOW, NOW) == 1.0
    assert recency(NOW - timedelta(hours=1), NOW) == 0.995
    assert recency(NOW - timedelta(minutes=90), NOW) == 0.995**1.5
    assert recency(NOW + timedelta(hours=3), NOW) == 1.0
    assert recency(NOW - timedelta(hours=2), NOW, decay=0.5) == 0.25


def test_cosine_of_zero_parallel_opposite_and_orthogonal_vectors() -> None:
    assert cosine((0.0, 0.0), (1.0, 2.0)) == 0.0
    assert cosine((2.0, 4.0), (1.0, 2.0)) == pytest.approx(1.0, abs=1e-15)
    assert cosine((3.0, 0.0), (1.0, 0.0)) == 1.0
    assert cosine((1.0, 0.0), (-3.0, 0.0)) == -1.0
    assert cosine((1.0, 0.0), (0.0, 5.0)) == 0.0
    assert cosine((1.0, 1.0), (1.0, 0.0)) == pytest.approx(SQRT_HALF, abs=1e-15)


def test_zero_vector_memory_has_relevance_zero() -> None:
    assert relevances([memory(1, embedding=(0.0, 0.0))], (1.0, 0.0)) == [0.0]


def test_normalize() -> None:
    assert normalize([]) == []
    assert normalize([3.0, 3.0]) == [0.0, 0.0]
    assert normalize([1.0, 3.0, 5.0]) == [0.0, 0.5, 1.0]
    assert normalize([-2.0, 2.0]) == [0.0, 1.0]


def test_estimate_tokens_is_ceiling_of_a_quarter_of_the_characters() -> None:
    assert [estimate_tokens("x" * n) for n in (0, 1, 4, 5, 8, 9)] == [0, 1, 1, 2, 2, 3]


def test_fit_budget_keeps_the_prefix_that_fits() -> None:
    scored = rank(
        [
            memory(1, importance=9, description="x" * 8),  # 2 tokens
            memory(2, importance=5, description="x" * 12),  # 3 tokens
            memory(3, importance=3, description="x" * 40),  # 10 tokens
            memory(4, importance=1, description="x" * 4),  # 1 token
        ],
        query_embedding=None,
        now=NOW,
        k=4,
    )
    assert ids(scored) == [1, 2, 3, 4]
    assert ids(fit_budget(scored, 5)) == [1, 2]
    assert ids(fit_budget(scored, 14)) == [1, 2]  # 15 needed for #3; #4 is never skipped to
    assert ids(fit_budget(scored, 16)) == [1, 2, 3, 4]
    assert fit_budget(scored, 1) == []
    with pytest.raises(InvalidInput):
        fit_budget(scored, -1)


# --- property tests against an independent, naive evaluation of the formula ----------------


def naive_rank(
    memories: Sequence[Memory],
    query: Sequence[float] | None,
    now: datetime,
    weights: RetrievalWeights,
    k: int,
) -> list[tuple[int, float, float, float, float]]:
    """The documented arithmetic in plain Python: (id, score, rec_n, imp_n, rel_n) per memory."""

    def cos(a: Sequence[float], b: Sequence[float]) -> float:
        na = math.sqrt(math.fsum(x * x for x in a))
        nb = math.sqrt(math.fsum(x * x for x in b))
        if na * nb == 0.0:
            return 0.0
        return min(1.0, max(-1.0, math.fsum(x * y for x, y in zip(a, b, strict=True)) / (na * nb)))

    def norm(xs: list[float]) -> list[float]:
        lo, hi = (min(xs), max(xs)) if xs else (0.0, 0.0)
        return [0.0 if hi == lo else (x - lo) / (hi - lo) for x in xs]

    rec = norm(
        [0.995 ** max(0.0, (now - m.last_accessed_at).total_seconds() / 3600) for m in memories]
    )
    imp = norm([float(m.importance) for m in memories])
    rel = norm(
        [0.0 if query is None or m.embedding is None else cos(query, m.embedding) for m in memories]
    )
    rows = []
    for i, m in enumerate(memories):
        score = weights.recency * rec[i] + weights.importance * imp[i] + weights.relevance * rel[i]
        rows.append((score, m.created_at, m.id, rec[i], imp[i], rel[i]))
    rows.sort(reverse=True)
    return [(r[2], r[0], r[3], r[4], r[5]) for r in rows[:k]]


DIM = 3
vector = st.lists(
    st.floats(-1.0, 1.0, allow_nan=False, allow_subnormal=False) | st.just(0.0),
    min_size=DIM,
    max_size=DIM,
)


@st.composite
def memories(draw: st.DrawFn) -> list[Memory]:
    memory_ids = draw(st.lists(st.integers(1, 10_000), unique=True, max_size=12))
    hours = st.floats(-5.0, 2000.0, allow_nan=False)
    return [
        Memory(
            id=memory_id,
            kind=MemoryKind.OBSERVATION,
            description="m",
            created_at=NOW - timedelta(hours=draw(st.integers(0, 3))),
            last_accessed_at=NOW - timedelta(hours=draw(hours)),
            importance=draw(st.integers(1, 10)),
            embedding=draw(st.none() | vector),
        )
        for memory_id in memory_ids
    ]


weight = st.floats(0.0, 3.0, allow_nan=False)
weights_strategy = st.builds(RetrievalWeights, weight, weight, weight)


@given(memories(), st.none() | vector, weights_strategy, st.integers(0, 15))
def test_rank_equals_naive_evaluation(
    candidates: list[Memory],
    query: list[float] | None,
    weights: RetrievalWeights,
    k: int,
) -> None:
    got = rank(candidates, query_embedding=query, now=NOW, weights=weights, k=k)
    expected = naive_rank(candidates, query, NOW, weights, k)
    assert [
        (
            s.memory.id,
            s.score,
            s.recency.normalized,
            s.importance.normalized,
            s.relevance.normalized,
        )
        for s in got
    ] == expected


@given(memories(), st.none() | vector, weights_strategy, st.integers(0, 15))
def test_rank_is_sorted_bounded_and_sized(
    candidates: list[Memory],
    query: list[float] | None,
    weights: RetrievalWeights,
    k: int,
) -> None:
    got = rank(candidates, query_embedding=query, now=NOW, weights=weights, k=k)
    assert len(got) == min(k, len(candidates))
    assert all(a.score >= b.score for a, b in pairwise(got))
    for s in got:
        for component in (s.recency, s.importance, s.relevance):
            assert 0.0 <= component.normalized <= 1.0
        assert 0.0 < s.recency.raw <= 1.0
        assert -1.0 <= s.relevance.raw <= 1.0


@given(memories(), st.none() | vector, st.randoms(use_true_random=False))
def test_rank_does_not_depend_on_input_order(
    candidates: list[Memory], query: list[float] | None, rng: random.Random
) -> None:
    shuffled = list(candidates)
    rng.shuffle(shuffled)
    assert rank(shuffled, query_embedding=query, now=NOW, k=len(candidates)) == rank(
        candidates, query_embedding=query, now=NOW, k=len(candidates)
    )


def test_numpy_float32_embeddings_rank_like_their_float64_lists() -> None:
    """pgvector hands back float32 numpy arrays; widening them to float64 is exact."""
    as_arrays = [
        replace(m, embedding=None if m.embedding is None else np.asarray(m.embedding, np.float32))
        for m in FIVE
    ]
    query = np.asarray(QUERY, dtype=np.float32)

    def explained(scored: list[ScoredMemory]) -> list[tuple[object, ...]]:
        return [(s.memory.id, s.score, s.recency, s.importance, s.relevance) for s in scored]

    assert explained(rank(as_arrays, query_embedding=query, now=NOW, k=5)) == explained(
        rank(FIVE, query_embedding=QUERY, now=NOW, k=5)
    )
