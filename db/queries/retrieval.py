"""Exact retrieval in PostgreSQL: the paper's top k, equal to `cognition.retrieval.rank`.

`search` returns exactly what `rank` returns over all of an agent's memories (same memories,
order, scores and components) while reading whole rows for only a few dozen of them:

1. Stats and probe (one statement): per kind, the memories with the least and most recent
   access and the lowest and highest importance (index probes: they fix the normalisation of
   two components exactly), the extreme dimensions and norms of the stored vectors, and a probe
   of the most recently accessed memories of each importance level, relevance estimated.
2. The pass (one statement, one scan): pgvector's float32 estimate r of every candidate's
   relevance, within a proven ε of the reference cosine (`retrieval_bounds`). It returns the
   estimated extremes and captures the memories with r beyond two cuts taken from the probe:
   those near an extreme relevance and the most relevant ones (`retrieval_plan`).
3. Python brackets every seen memory's score, proves a lower bound t of the k-th best, and the
   repair (one statement of index range scans) reads the memories between the cuts whose
   recency still lets them reach t. The survivors are those whose upper bound reaches t.
4. The survivors, the memories near an extreme relevance and the witnesses of the recency and
   importance extremes are fetched whole and ranked by `rank` itself. They contain every
   component's minimum and maximum, so `rank` normalises them exactly as it would all of them,
   and they contain the top k, so its top k is the answer.

Touching the results is the separate `touch`. `brute_force` is the reference path, and the
fallback for inputs outside the error analysis.
"""

from __future__ import annotations

import math
import time
import uuid
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np
from sqlalchemy.orm import Session

from cognition.errors import EmbeddingSpaceMismatch, InvalidInput
from cognition.retrieval import rank, recency
from cognition.types import Memory, RetrievalWeights, ScoredMemory
from db.models.memory import COVERED_DIMENSIONS, MEMORY_KINDS
from db.queries import retrieval_sql as sql
from db.queries.memory_rows import to_memory
from db.queries.retrieval_bounds import (
    SAFE_NORM_RANGE,
    SAFE_QUERY_NORM_RANGE,
    RelevanceRange,
    Scale,
    lean_relevance_error,
    relevance_error,
)
from db.queries.retrieval_candidates import EPOCH, Candidates
from db.queries.retrieval_plan import (
    NO_CUTS,
    Context,
    Cuts,
    exact_cuts,
    probe_cuts,
    repair_windows,
)

PROBE_PER_LEVEL = 16
"""Probe size per importance level: enough memories to place the cuts (a quantile of their r)
and to guess the k-th best score, few enough that reading them stays cheap."""

MAX_UNKNOWN = 256
"""Memories the pass could not estimate are fetched and ranked exactly; past this many (a
re-embed in progress, a stream of zero vectors) the brute-force path is cheaper."""

SMALLEST_RECENCY = 2.0**-1000
"""Below this the reference's recency nears float64 underflow (≈ 16 game years untouched),
where its monotonicity in last_accessed_at is no longer guaranteed: brute force then."""

LEAN_NORM_TOLERANCE = 2.0**-10
"""Stored norms within this of 1 (what every normalising embedder writes, up to float32
rounding) let the pass skip the division by the norm and the per-row checks; the deviation is
added to ε, so it costs precision only in digits that pruning never needs."""


@dataclass
class SearchTrace:
    """What one `search` did (pass one in to read it): for benchmarks and tests."""

    path: str = "fast"
    """"fast", "no candidates", or "brute force: <why>"."""
    relevance: str = ""
    passes: int = 0
    captured: int = 0
    repaired: int = 0
    ranked: int = 0
    milliseconds: dict[str, float] = field(default_factory=dict)

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        yield
        self.milliseconds[name] = (time.perf_counter() - started) * 1000.0


def search(
    session: Session,
    *,
    agent_id: uuid.UUID,
    query_embedding: Sequence[float] | None,
    now: datetime,
    weights: RetrievalWeights,
    k: int,
    kinds: Collection[str] | None = None,
    trace: SearchTrace | None = None,
) -> list[ScoredMemory]:
    """The agent's top k for the query at game time `now`: exactly `rank` over all of its
    memories of `kinds` (all kinds when None). Never touches them (see `touch`)."""
    if k < 0:
        raise InvalidInput(f"k must be >= 0, got {k}", field="k")
    trace = trace if trace is not None else SearchTrace()
    kind_list = None if kinds is None else sorted({str(kind) for kind in kinds})
    args: dict[str, Any] = dict(
        agent_id=agent_id,
        query_embedding=query_embedding,
        now=now,
        weights=weights,
        k=k,
        kinds=kind_list,
    )
    if not _analysable(query_embedding) or now.tzinfo is not None or not _finite(weights):
        trace.path = "brute force: query, clock or weights outside the error analysis"
        return brute_force(session, **args)
    result = _fast(session, trace, query=_unit_query(query_embedding), **args)
    return brute_force(session, **args) if result is None else result


def touch(session: Session, *, ids: Sequence[int], now: datetime) -> int:
    """Mark memories accessed at game time `now` (the paper touches what it retrieved);
    returns how many rows changed. A separate statement, never part of `search`."""
    if not ids:
        return 0
    return sql.touch_rows(session, ids, now)


def load_memories(
    session: Session, *, agent_id: uuid.UUID, kinds: Collection[str] | None = None
) -> list[Memory]:
    """Every memory of the agent (of `kinds`), as domain values."""
    kind_list = None if kinds is None else sorted({str(kind) for kind in kinds})
    return [to_memory(row) for row in sql.fetch_candidates(session, agent_id, kind_list)]


def brute_force(
    session: Session,
    *,
    agent_id: uuid.UUID,
    query_embedding: Sequence[float] | None,
    now: datetime,
    weights: RetrievalWeights,
    k: int,
    kinds: Collection[str] | None = None,
) -> list[ScoredMemory]:
    """The reference: load every candidate and `rank` them. What `search` must equal."""
    memories = load_memories(session, agent_id=agent_id, kinds=kinds)
    return rank(memories, query_embedding=query_embedding, now=now, weights=weights, k=k)


def _fast(
    session: Session,
    trace: SearchTrace,
    *,
    agent_id: uuid.UUID,
    query_embedding: Sequence[float] | None,
    query: UnitQuery | None,
    now: datetime,
    weights: RetrievalWeights,
    k: int,
    kinds: list[str] | None,
) -> list[ScoredMemory] | None:
    """The four steps of the module docstring; None (reason traced) hands over to brute force."""
    if kinds == []:
        trace.path = "no candidates"
        return []
    params = _params(agent_id, kinds, query)
    with trace.stage("stats"):
        stats = sql.stats_and_probe(
            session,
            params,
            kinds=kinds,
            dimension=None if query is None else query.dimension,
            newest_first=weights.recency >= 0.0,
        )
    extremes = _by_which(stats)
    if "accessed_min" not in extremes:
        trace.path = "no candidates"
        return []
    ctx, source = _context(
        session, extremes, query, now=now, weights=weights, k=k, params=params, kinds=kinds
    )
    trace.relevance = source.relevance.name + (" covered" if source.covered else "")
    if ctx.recency.low < SMALLEST_RECENCY:
        trace.path = "brute force: recency near underflow"
        return None
    candidates = Candidates.from_probe(extremes.get("probe", []), source.relevance)
    with trace.stage("pass"):
        needed = _needed(session, trace, ctx, source, candidates, params, now)
    if needed is None:
        trace.path = "brute force: too many memories without an estimate"
        return None
    witnesses = {extremes[which][0].id for which in _WITNESSED}
    with trace.stage("fetch"):
        memories = [
            to_memory(row) for row in sql.fetch_rows(session, agent_id, sorted(needed | witnesses))
        ]
    trace.ranked = len(memories)
    with trace.stage("rank"):
        return rank(memories, query_embedding=query_embedding, now=now, weights=weights, k=k)


_WITNESSED = ("accessed_min", "accessed_max", "importance_min", "importance_max")


def _needed(
    session: Session,
    trace: SearchTrace,
    ctx: Context,
    source: sql.Source,
    candidates: Candidates,
    params: dict[str, Any],
    now: datetime,
) -> set[int] | None:
    """Pass (again with exact cuts if the probe could not place them), repair; the ids `rank`
    must see, or None for brute force. Raises `EmbeddingSpaceMismatch` as `rank` would."""
    cuts, rel, result = NO_CUTS, RelevanceRange.constant_zero(), None
    if ctx.has_query:  # without a query every relevance is exactly 0: nothing to scan for
        cuts = probe_cuts(ctx, candidates.probe_r)
        result = _pass(session, trace, source, params, cuts, candidates)
        if result is None:
            return None
        if not cuts.valid_for(ctx.epsilon, result.r_min, result.r_max):
            second = exact_cuts(ctx, result.r_min, result.r_max)
            if _pass(session, trace, source, params, second, candidates) is None:
                return None
            cuts = Cuts(max(cuts.low, second.low), min(cuts.high, second.high))
        rel = RelevanceRange.from_estimates(
            result.r_min, result.r_max, epsilon=ctx.epsilon, unknown=result.n_unknown > 0
        )
    now_epoch = (now - EPOCH).total_seconds()
    scores = candidates.score_bounds(ctx, rel, now_epoch)
    windows = repair_windows(ctx, cuts, rel, scores.t_valid, now)
    if windows:
        with trace.stage("repair"):
            repaired = sql.repair(
                session,
                params,
                source,
                levels=[w.level for w in windows],
                after=[w.after for w in windows],
                before=[w.before for w in windows],
            )
        trace.repaired = len(repaired.ids)
        candidates.add(repaired)
        scores = candidates.score_bounds(ctx, rel, now_epoch)
    near = set() if result is None else candidates.near_extremes(ctx, result)
    return scores.survivors | near | candidates.unknown


def _pass(
    session: Session,
    trace: SearchTrace,
    source: sql.Source,
    params: dict[str, Any],
    cuts: Cuts,
    candidates: Candidates,
) -> sql.PassResult | None:
    result = sql.run_pass(session, {**params, "lo_cut": cuts.low, "hi_cut": cuts.high}, source)
    trace.passes += 1
    trace.captured += len(result.ids)
    if result.n_unknown > MAX_UNKNOWN:
        if sql.has_other_dimension(session, params, kinds=source.kinds):
            raise EmbeddingSpaceMismatch("memory embeddings differ in length from the query")
        return None
    candidates.add(result)
    return result


def _by_which(stats: list[sql.StatsRow]) -> dict[str, list[sql.StatsRow]]:
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


def _context(
    session: Session,
    extremes: dict[str, list[sql.StatsRow]],
    query: UnitQuery | None,
    *,
    now: datetime,
    weights: RetrievalWeights,
    k: int,
    params: dict[str, Any],
    kinds: list[str] | None,
) -> tuple[Context, sql.Source]:
    """Exact recency and importance extremes, and how the pass may estimate relevance."""
    relevance, epsilon = _relevance_mode(session, extremes, query, params, kinds)
    ctx = Context(
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


def _relevance_mode(
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


@dataclass(frozen=True)
class UnitQuery:
    """The query as pgvector text, unit-normalised and rounded to float32 (subnormals flushed
    to 0, an error far below ε), and its dimension."""

    text: str
    dimension: int


def _analysable(embedding: Sequence[float] | None) -> bool:
    """Whether the error analysis covers the query: finite, one-dimensional, with a norm in
    SAFE_QUERY_NORM_RANGE (or no query at all). Others go to the brute-force path."""
    if embedding is None:
        return True
    vector = np.asarray(embedding, dtype=np.float64)
    if vector.ndim != 1 or vector.size == 0 or not np.all(np.isfinite(vector)):
        return False
    low, high = SAFE_QUERY_NORM_RANGE
    return bool(low <= np.linalg.norm(vector) <= high)


def _unit_query(embedding: Sequence[float] | None) -> UnitQuery | None:
    if embedding is None:
        return None
    vector = np.asarray(embedding, dtype=np.float64)
    unit = (vector / np.linalg.norm(vector)).astype(np.float32)
    unit[np.abs(unit) < np.finfo(np.float32).tiny] = 0.0
    return UnitQuery("[" + ",".join(map(repr, unit.astype(np.float64).tolist())) + "]", unit.size)


def _finite(weights: RetrievalWeights) -> bool:
    return all(math.isfinite(w) for w in (weights.recency, weights.importance, weights.relevance))


def _params(
    agent_id: uuid.UUID, kinds: list[str] | None, query: UnitQuery | None
) -> dict[str, Any]:
    every = list(MEMORY_KINDS) if kinds is None else kinds
    params: dict[str, Any] = dict(agent_id=agent_id, all_kinds=every)
    if kinds is not None:
        params["kinds"] = kinds
    covered = query is not None and query.dimension <= COVERED_DIMENSIONS
    params["per_level"] = PROBE_PER_LEVEL if covered else -(-PROBE_PER_LEVEL // len(every))
    if query is not None:
        params.update(
            query=query.text,
            dimension=query.dimension,
            norm_low=SAFE_NORM_RANGE[0],
            norm_high=SAFE_NORM_RANGE[1],
        )
    return params
