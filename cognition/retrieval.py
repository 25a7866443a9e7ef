"""The paper's retrieval function, evaluated exactly and by brute force.

Generative Agents (Park et al., 2023, §4.1) ranks an agent's memories for a query by the sum of
three min-max-normalised components: recency (exponential decay per game hour since the memory
was last accessed), importance (the 1–10 poignancy) and relevance (cosine similarity between the
query's and the memory's embeddings). `rank` is that formula over every candidate it is given.

Exactness contract: `rank` is the reference. The fast database path (indexes, pruning) must
return the same memories in the same order as `rank` over all of the agent's memories, so every
step here is specified down to its float64 arithmetic (see each function's docstring) and no
step depends on summation order, BLAS, or thread count. Touching `last_accessed_at` on the
results is a separate, explicit step that this module never does.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime

import numpy as np
import numpy.typing as npt

from cognition.errors import EmbeddingSpaceMismatch, InvalidInput
from cognition.tokens import estimate_tokens
from cognition.types import (
    DEFAULT_RECENCY_DECAY,
    Component,
    Memory,
    RetrievalWeights,
    ScoredMemory,
)

SECONDS_PER_HOUR = 3600.0
"""Recency decays per game hour; timedeltas are converted through seconds."""

_Matrix = npt.NDArray[np.float64]


def recency(
    last_accessed_at: datetime, now: datetime, *, decay: float = DEFAULT_RECENCY_DECAY
) -> float:
    """Raw recency `decay ** hours` since the memory was last accessed, as the paper defines it.

    Arithmetic (float64): hours = (now - last_accessed_at).total_seconds() / 3600.0, clamped to
    >= 0.0 (a memory touched "after" now — a rewound or replayed game clock — counts as just
    touched, recency 1.0, rather than scoring above a fresh memory); result = decay ** hours.
    """
    hours = max(0.0, (now - last_accessed_at).total_seconds() / SECONDS_PER_HOUR)
    return float(decay**hours)


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity of two vectors, independent of summation order.

    Arithmetic (float64): dot = fsum(a_i * b_i); |a| = sqrt(fsum(a_i * a_i)), likewise |b|;
    cosine = dot / (|a| * |b|), clamped to [-1.0, 1.0]. `math.fsum` is the correctly rounded sum
    of the float64 products, so the result is the same whatever order or library computes it.
    A zero vector (or a denominator that underflows to 0.0) has cosine 0.0.
    """
    va = np.asarray(a, dtype=np.float64)
    vb = np.asarray(b, dtype=np.float64)
    if va.shape != vb.shape:
        raise EmbeddingSpaceMismatch(f"cannot compare vectors of {va.shape} and {vb.shape} floats")
    return _cosine_from(
        math.fsum((va * vb).tolist()), _norm(va[np.newaxis, :])[0], _norm(vb[np.newaxis, :])[0]
    )


def normalize(values: Sequence[float]) -> list[float]:
    """Min-max normalise to [0, 1] across the candidate set, as the paper does per component.

    Arithmetic (float64): (x - min) / (max - min). When max == min every value becomes 0.0, so a
    constant component adds nothing to any score and cannot reorder the results.
    """
    if not values:
        return []
    low, high = min(values), max(values)
    if high == low:
        return [0.0] * len(values)
    span = high - low
    return [(float(x) - low) / span for x in values]


def relevances(memories: Sequence[Memory], query_embedding: Sequence[float] | None) -> list[float]:
    """Raw relevance of each memory: `cosine(query_embedding, m.embedding)`, bit for bit.

    A memory not yet embedded, or every memory when there is no query embedding, gets 0.0.
    Vectorised with numpy for the elementwise products only; sums stay `math.fsum`.
    """
    result = [0.0] * len(memories)
    if query_embedding is None:
        return result
    query = np.asarray(query_embedding, dtype=np.float64)
    embedded = [i for i, m in enumerate(memories) if m.embedding is not None]
    if not embedded:
        return result
    matrix = _stack([memories[i].embedding for i in embedded], query.shape)
    query_norm = _norm(query[np.newaxis, :])[0]
    dots = [math.fsum(row) for row in (matrix * query).tolist()]
    for i, dot, norm in zip(embedded, dots, _norm(matrix), strict=True):
        result[i] = _cosine_from(dot, query_norm, norm)
    return result


def rank(
    memories: Sequence[Memory],
    *,
    query_embedding: Sequence[float] | None,
    now: datetime,
    weights: RetrievalWeights = RetrievalWeights(),
    k: int,
) -> list[ScoredMemory]:
    """The top-k memories by the paper's score, best first, each with its score explained.

    Components are normalised across all of `memories` (not just the top k). Arithmetic
    (float64): score = (w.recency * rec_n + w.importance * imp_n) + w.relevance * rel_n, left to
    right. Order: score descending, ties broken newer first (created_at desc, then id desc).
    """
    if k < 0:
        raise InvalidInput(f"k must be >= 0, got {k}", field="k")
    raw_rec = [recency(m.last_accessed_at, now) for m in memories]
    raw_imp = [float(m.importance) for m in memories]
    raw_rel = relevances(memories, query_embedding)
    rows = zip(
        memories,
        _components(raw_rec),
        _components(raw_imp),
        _components(raw_rel),
        strict=True,
    )
    scored = [
        ScoredMemory(
            memory=m,
            score=_score(weights, rec, imp, rel),
            recency=rec,
            importance=imp,
            relevance=rel,
        )
        for m, rec, imp, rel in rows
    ]
    scored.sort(key=_order_key, reverse=True)
    return scored[:k]


def fit_budget(scored: Sequence[ScoredMemory], budget_tokens: int) -> list[ScoredMemory]:
    """The longest prefix of `scored` whose descriptions fit `budget_tokens` in total.

    Stops at the first memory that does not fit (never skips it for a shorter one), so the
    result is always the best-ranked memories. Token counts are `tokens.estimate_tokens`.
    """
    if budget_tokens < 0:
        raise InvalidInput(
            f"budget_tokens must be >= 0, got {budget_tokens}", field="budget_tokens"
        )
    kept: list[ScoredMemory] = []
    used = 0
    for item in scored:
        used += estimate_tokens(item.memory.description)
        if used > budget_tokens:
            break
        kept.append(item)
    return kept


def _components(raw: list[float]) -> list[Component]:
    return [Component(raw=r, normalized=n) for r, n in zip(raw, normalize(raw), strict=True)]


def _score(weights: RetrievalWeights, rec: Component, imp: Component, rel: Component) -> float:
    return (
        weights.recency * rec.normalized
        + weights.importance * imp.normalized
        + weights.relevance * rel.normalized
    )


def _order_key(item: ScoredMemory) -> tuple[float, datetime, int]:
    return (item.score, item.memory.created_at, item.memory.id)


def _stack(vectors: Sequence[Sequence[float] | None], shape: tuple[int, ...]) -> _Matrix:
    """Rows of one embedding space, or `EmbeddingSpaceMismatch` if any length differs."""
    lengths = {len(v) for v in vectors if v is not None}
    if len(shape) != 1 or lengths != {shape[0]}:
        raise EmbeddingSpaceMismatch(
            f"query has {shape} floats but memory embeddings have lengths {sorted(lengths)}"
        )
    return np.asarray(vectors, dtype=np.float64)


def _norm(matrix: _Matrix) -> list[float]:
    """Euclidean norm of each row: sqrt(fsum(x_i * x_i))."""
    return [math.sqrt(math.fsum(row)) for row in (matrix * matrix).tolist()]


def _cosine_from(dot: float, norm_a: float, norm_b: float) -> float:
    denominator = norm_a * norm_b
    if denominator == 0.0:
        return 0.0
    return min(1.0, max(-1.0, dot / denominator))
