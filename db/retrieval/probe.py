"""What `search` knows before its pass: the query as SQL sees it, the exact extremes from the
index probes, and how relevance may be estimated (LEAN, CHECKED or NONE, and its ε)."""

from __future__ import annotations

import math
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
from sqlalchemy.orm import Session

from cognition.errors import EmbeddingSpaceMismatch
from cognition.retrieval import recency
from cognition.types import RetrievalWeights
from db.models.memory import COVERED_DIMENSIONS, MEMORY_KINDS
from db.retrieval import statements as sql
from db.retrieval.bounds import (
    SAFE_NORM_RANGE,
    SAFE_QUERY_NORM_RANGE,
    Scale,
    lean_relevance_error,
    relevance_error,
    unit_vector,
)

PROBE_PER_LEVEL = 16
"""Probe size per importance level: enough memories to place the cuts (a quantile of their r)
and to seed the k-th best score, few enough that reading them stays cheap (16 and 32 measured
the same)."""

LEAN_NORM_TOLERANCE = 2.0**-10
"""Stored norms within this of 1 (what every normalising embedder writes, up to float32
rounding) let the pass skip the division by the norm and the per-row checks; the deviation is
added to ε, so it costs precision only in digits that pruning never needs."""

WITNESSED = ("accessed_min", "accessed_max", "importance_min", "importance_max")
"""The extremes whose rows `rank` must see so that it normalises as over every memory."""


@dataclass(frozen=True)
class UnitQuery:
    """The query as pgvector text, unit-normalised and rounded to float32 (subnormals flushed
    to 0, an error far below ε), and its dimension."""

    text: str
    dimension: int


@dataclass(frozen=True)
class Givens:
    """What is given, exactly, before the pass: weights, recency and importance extremes, ε."""

    weights: RetrievalWeights
    recency: Scale
    importance: Scale
    epsilon: float
    has_query: bool
    k: int

    @property
    def relevance_weight(self) -> float:
        return self.weights.relevance if self.has_query else 0.0


def analysable(embedding: Sequence[float] | None, now: datetime, weights: RetrievalWeights) -> bool:
    """Whether the error analysis covers the call: a finite one-dimensional query with a norm
    in SAFE_QUERY_NORM_RANGE (or none), a naive game time, finite weights."""
    finite = all(math.isfinite(w) for w in (weights.recency, weights.importance, weights.relevance))
    if not finite or now.tzinfo is not None:
        return False
    if embedding is None:
        return True
    vector = np.asarray(embedding, dtype=np.float64)
    if vector.ndim != 1 or vector.size == 0 or not np.all(np.isfinite(vector)):
        return False
    low, high = SAFE_QUERY_NORM_RANGE
    return bool(low <= np.linalg.norm(vector) <= high)


def unit_query(embedding: Sequence[float] | None) -> UnitQuery | None:
    if embedding is None:
        return None
    unit = unit_vector(embedding)
    return UnitQuery("[" + ",".join(map(repr, unit.astype(np.float64).tolist())) + "]", unit.size)


def params(agent_id: uuid.UUID, kinds: list[str] | None, query: UnitQuery | None) -> dict[str, Any]:
    """The parameters every statement of one search shares."""
    every = list(MEMORY_KINDS) if kinds is None else kinds
    values: dict[str, Any] = dict(agent_id=agent_id, all_kinds=every)
    if kinds is not None:
        values["kinds"] = kinds
    covered = query is not None and query.dimension <= COVERED_DIMENSIONS
    values["per_level"] = PROBE_PER_LEVEL if covered else -(-PROBE_PER_LEVEL // len(every))
    if query is not None:
        values.update(
            query=query.text,
            dimension=query.dimension,
            norm_low=SAFE_NORM_RANGE[0],
            norm_high=SAFE_NORM_RANGE[1],
        )
    return values


def by_which(stats: list[sql.StatsRow]) -> dict[str, list[sql.StatsRow]]:
    """Rows by what they are; each extreme's rows sorted so the attaining one comes first."""
    grouped: dict[str, list[sql.StatsRow]] = {}
    for row in stats:
        grouped.setdefault(row.which, []).append(row)
    for which in ("accessed_min", "accessed_max"):
        grouped.get(which, []).sort(
            key=lambda row: row.last_accessed_at, reverse=which.endswith("max")
        )
    for which in ("importance_min", "importance_max"):
        grouped.get(which, []).sort(key=lambda row: row.importance, reverse=which.endswith("max"))
    return grouped


def build(
    session: Session,
    extremes: dict[str, list[sql.StatsRow]],
    query: UnitQuery | None,
    *,
    now: datetime,
    weights: RetrievalWeights,
    k: int,
    params: dict[str, Any],
    kinds: list[str] | None,
) -> tuple[Givens, sql.Source]:
    """Exact recency and importance extremes, and how the pass may estimate relevance."""
    relevance, epsilon = relevance_mode(session, extremes, query, params, kinds)
    ctx = Givens(
        weights=weights,
        recency=Scale(
            recency(extremes["accessed_min"][0].last_accessed_at, now),
            recency(extremes["accessed_max"][0].last_accessed_at, now),
        ),
        importance=Scale(
            float(extremes["importance_min"][0].importance),
            float(extremes["importance_max"][0].importance),
        ),
        epsilon=epsilon,
        has_query=query is not None,
        k=k,
    )
    covered = query is not None and query.dimension <= COVERED_DIMENSIONS
    return ctx, sql.Source(relevance, covered, kinds)


def relevance_mode(
    session: Session,
    extremes: dict[str, list[sql.StatsRow]],
    query: UnitQuery | None,
    params: dict[str, Any],
    kinds: list[str] | None,
) -> tuple[sql.Relevance, float]:
    """LEAN when every stored vector of the agent is in the query's space with a norm within
    LEAN_NORM_TOLERANCE of 1, else CHECKED; NONE without a query. Raises
    `EmbeddingSpaceMismatch` when a candidate has another dimension, as `rank` does."""
    if query is None:
        return sql.Relevance.NONE, 0.0
    vectors = extremes.get("vector_min", []) + extremes.get("vector_max", [])
    dims = {int(row.value) for row in vectors if row.value is not None}
    if dims - {query.dimension}:
        if kinds is None or sql.has_other_dimension(session, params, kinds=kinds):
            lengths = sorted(dims | {query.dimension})
            raise EmbeddingSpaceMismatch(f"embeddings of lengths {lengths} cannot be compared")
        return sql.Relevance.CHECKED, relevance_error(query.dimension)  # other spaces, other kinds
    norms = [row.norm for row in vectors if row.norm is not None]
    deviation = max((abs(norm - 1.0) for norm in norms), default=0.0)
    if deviation <= LEAN_NORM_TOLERANCE:
        largest = max(norms, default=1.0)
        return sql.Relevance.LEAN, lean_relevance_error(query.dimension, largest, deviation)
    return sql.Relevance.CHECKED, relevance_error(query.dimension)
