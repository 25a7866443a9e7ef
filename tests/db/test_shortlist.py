"""The in-process shortlist without a database: the int8 bound holds on adversarial vectors,
the sampled k-th largest is the k-th largest, and `rank` over the shortlist of a large cached
stream equals `rank` over all of it (near-ties, clusters, kinds, both weight signs)."""

from __future__ import annotations

from datetime import datetime, timedelta

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cognition.retrieval import cosine, rank
from cognition.types import Memory, MemoryKind, RetrievalWeights
from db.models.memory import MEMORY_KINDS
from db.retrieval import quantized
from db.retrieval.bounds import kth_largest
from db.retrieval.candidates import EPOCH
from db.retrieval.in_process import parse
from db.retrieval.shortlist import select
from db.retrieval.vector_cache import AgentVectors

NOW = datetime(2023, 3, 1, 12, 0)


def test_the_kernel_sums_int8_products_exactly_here() -> None:
    assert quantized.kernel_is_exact()


@pytest.mark.parametrize("dimension", [1, 8, 256, 384, 1536])
def test_int8_estimates_stay_within_their_bound(dimension: int) -> None:
    """Random, spiky (one large coordinate), nearly orthogonal and badly scaled vectors."""
    rng = np.random.default_rng(dimension)
    query = rng.standard_normal(dimension)
    spiky = rng.standard_normal((4, dimension)) * 1e-3
    spiky[:, 0] = 1.0
    orthogonal = rng.standard_normal((4, dimension))
    if dimension > 1:
        orthogonal -= np.outer(orthogonal @ query / (query @ query), query)
    vectors = np.concatenate(
        [rng.standard_normal((8, dimension)) * scale for scale in (1e-12, 1.0, 1e12)]
        + [spiky, orthogonal, np.tile(query, (2, 1))]
    ).astype(np.float32)
    norms = np.sqrt((vectors.astype(np.float64) ** 2).sum(axis=1))
    coded = quantized.code_rows(vectors, 1.0 / norms)
    unit = query / np.linalg.norm(query)
    coded_query = quantized.code_query(unit)
    estimates = quantized.estimates(coded.codes, coded.scale, coded_query)
    bound = quantized.error_bound(float(coded.error.max()), coded_query)
    for vector, estimate in zip(vectors, estimates, strict=True):
        reference = cosine(query.tolist(), vector.astype(np.float64).tolist())
        assert abs(estimate - reference) <= bound
    assert bound < 0.05 or dimension == 1


@given(
    values=st.lists(st.integers(-50, 50), min_size=0, max_size=20_000).map(
        lambda xs: np.array(xs, dtype=np.float64) / 7.0
    ),
    k=st.integers(0, 40),
)
@settings(max_examples=60, deadline=None)
def test_kth_largest_is_the_kth_largest(values: np.ndarray, k: int) -> None:
    expected = np.inf if k == 0 else (-np.inf if values.size < k else np.sort(values)[-k])
    assert kth_largest(values, k) == expected


@st.composite
def streams(draw: st.DrawFn) -> tuple[AgentVectors, list[Memory], int]:
    """A few thousand memories in clusters (many near-ties in relevance, repeated vectors),
    with repeated access times and importance levels (ties in the other components)."""
    seed = draw(st.integers(0, 2**32 - 1))
    n = draw(st.integers(1, 3000))
    dimension = draw(st.sampled_from([3, 16, 48]))
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((draw(st.integers(1, 6)), dimension))
    spread = draw(st.sampled_from([0.0, 1e-4, 0.05, 1.0]))
    vectors = centres[rng.integers(len(centres), size=n)] + spread * rng.standard_normal(
        (n, dimension)
    )
    vectors[rng.random(n) < 0.05] = 0.0  # zero vectors: relevance 0
    vectors = vectors.astype(np.float32)
    embedded = rng.random(n) >= draw(st.sampled_from([0.0, 0.1]))
    hours = rng.choice(rng.integers(0, 24 * 30, size=max(1, n // 10)), size=n)
    accessed = [
        NOW - timedelta(hours=int(h), minutes=int(m)) for h, m in zip(hours, hours % 7, strict=True)
    ]
    importance = rng.integers(1, 11, size=n)
    kinds = rng.integers(len(MEMORY_KINDS), size=n)
    memories = [
        Memory(
            id=i + 1,
            kind=MemoryKind(MEMORY_KINDS[int(kinds[i])]),
            description=f"memory {i}",
            created_at=accessed[i] - timedelta(hours=1),
            last_accessed_at=accessed[i],
            importance=int(importance[i]),
            embedding=tuple(vectors[i].astype(np.float64).tolist()) if embedded[i] else None,
        )
        for i in range(n)
    ]
    entry = AgentVectors()
    entry.apply(parse([_Row(m) for m in memories], dimension))
    return entry, memories, dimension


class _Row:
    """A memory as the cache's sync statement returns it."""

    def __init__(self, memory: Memory) -> None:
        self.id = memory.id
        self.kind = memory.kind.value
        self.importance = memory.importance
        self.created_us = (memory.created_at - EPOCH) // timedelta(microseconds=1)
        self.accessed_us = (memory.last_accessed_at - EPOCH) // timedelta(microseconds=1)
        vector = None if memory.embedding is None else np.array(memory.embedding, ">f4")
        self.norm = None if vector is None else float(np.linalg.norm(vector.astype(np.float64)))
        self.embedding = None if vector is None else b"\0\0\0\0" + vector.tobytes()
        self.description, self.depth, self.source = memory.description, memory.depth, "game"
        self.subject, self.predicate, self.object = memory.subject, None, None
        self.detail = None


@given(
    stream=streams(),
    weights=st.tuples(*[st.sampled_from([0.0, 1.0, 0.5, 3.0, -1.0])] * 3),
    k=st.sampled_from([0, 1, 10, 25]),
    kinds=st.sampled_from([None, ["observation"], ["reflection", "plan"]]),
    near=st.booleans(),
)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_rank_over_the_shortlist_equals_rank_over_everything(
    stream: tuple[AgentVectors, list[Memory], int],
    weights: tuple[float, float, float],
    k: int,
    kinds: list[str] | None,
    near: bool,
) -> None:
    """`near`: the query sits next to a stored vector, so many memories tie near the top."""
    entry, memories, dimension = stream
    vectors = [m.embedding for m in memories if m.embedding is not None and any(m.embedding)]
    rng = np.random.default_rng(len(memories))
    base = np.array(vectors[0]) if near and vectors else np.zeros(dimension)
    query = (base + rng.standard_normal(dimension) * (1e-3 if near else 1.0)).tolist()
    alpha = RetrievalWeights(*weights)
    candidates = [m for m in memories if kinds is None or m.kind in kinds]
    picked = select(entry, parse([], dimension), query, now=NOW, weights=alpha, k=k, kinds=kinds)
    assert picked.memories is not None
    assert len(picked.memories) <= len(candidates)
    fast = rank(picked.memories, query_embedding=query, now=NOW, weights=alpha, k=k)
    assert fast == rank(candidates, query_embedding=query, now=NOW, weights=alpha, k=k)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("weights", [(0.0, 0.0, 1.0), (1.0, 1.0, 1.0)])
def test_a_tight_cluster_whose_order_int8_cannot_see(
    seed: int, weights: tuple[float, float, float]
) -> None:
    """2,000 memories within ~0.02 of one direction and a query among them: relevances differ
    by less than the int8 error, so only the bound keeps the true top 10 in the shortlist."""
    rng = np.random.default_rng(seed)
    n, dimension = 2000, 48
    centre = rng.standard_normal(dimension)
    vectors = (centre + 0.02 * rng.standard_normal((n, dimension))).astype(np.float32)
    memories = [
        Memory(
            id=i + 1,
            kind=MemoryKind.OBSERVATION,
            description=f"memory {i}",
            subject="Rosa" if i % 2 else None,
            created_at=NOW - timedelta(hours=i),
            last_accessed_at=NOW - timedelta(hours=i),
            importance=int(rng.integers(1, 11)),
            embedding=tuple(vectors[i].astype(np.float64).tolist()),
        )
        for i in range(n)
    ]
    entry = AgentVectors()
    entry.apply(parse([_Row(m) for m in memories], dimension))
    query = (centre + 0.02 * rng.standard_normal(dimension)).tolist()
    alpha = RetrievalWeights(*weights)
    picked = select(entry, parse([], dimension), query, now=NOW, weights=alpha, k=10, kinds=None)
    assert picked.memories is not None and len(picked.memories) < n // 10
    fast = rank(picked.memories, query_embedding=query, now=NOW, weights=alpha, k=10)
    assert fast == rank(memories, query_embedding=query, now=NOW, weights=alpha, k=10)
