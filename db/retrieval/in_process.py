"""Exact retrieval from the process's copy of an agent's rows (`db.retrieval.vector_cache`).

One statement brings the copy up to date (`sync`); then numpy estimates every candidate's
score within proven bounds (`bounds`: the float32 product errs by at most ε, recency
by RECENCY_TOLERANCE), and only the memories that could matter are fetched whole and ranked by
`cognition.retrieval.rank` itself: those whose upper bound reaches the k-th best lower bound,
those that may hold the minimum or maximum relevance, and the rows attaining the recency and
importance extremes. `rank` then normalises them exactly as over every memory, and its top k
is the answer, as in the SQL fast path (`db.retrieval`), which this replaces whenever
the agent's rows fit the cache.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

import numpy as np
import numpy.typing as npt
from sqlalchemy.orm import Session

from cognition.retrieval import SECONDS_PER_HOUR, cosine, rank, recency
from cognition.types import (
    DEFAULT_RECENCY_DECAY,
    Memory,
    MemoryKind,
    RetrievalWeights,
    ScoredMemory,
)
from db.models.memory import MEMORY_KINDS
from db.queries import memory_rows
from db.retrieval.bounds import (
    RECENCY_TOLERANCE,
    SAFE_NORM_RANGE,
    SMALLEST_RECENCY,
    Scale,
    kth_largest,
    relevance_error,
    score_tolerance,
    unit_vector,
)
from db.retrieval.candidates import EPOCH
from db.retrieval.trace import SearchTrace
from db.retrieval.vector_cache import KIND_CODES, AgentVectors, Rows, VectorCache, kind_codes

SYNC = """
SELECT s.xmin, m.id, m.kind, m.importance,
       (extract(epoch FROM m.created_at) * 1000000)::bigint AS created_us,
       (extract(epoch FROM m.last_accessed_at) * 1000000)::bigint AS accessed_us,
       m.embedding_norm AS norm, vector_send(m.embedding) AS embedding,
       COALESCE(m.changed_xid = s.own, false) AS mine
FROM (SELECT (pg_snapshot_xmin(pg_current_snapshot())::text)::bigint AS xmin,
             (pg_current_xact_id_if_assigned()::text)::bigint AS own) AS s
LEFT JOIN LATERAL (
    SELECT * FROM memories m WHERE m.agent_id = %(agent_id)s AND m.changed_xid >= %(since)s
) AS m ON true"""
"""The rows written at or after the watermark, and the new watermark, in one snapshot. `mine`
marks rows of the caller's own open transaction (laid over the copy, never stored in it)."""

VECTOR_HEADER_FLOATS = 1
"""pgvector's binary form starts with an int16 dimension and an unused int16: one float's
width, skipped when the vectors are read as one big-endian float32 array."""

Floats = npt.NDArray[np.float64]
Mask = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class Pick:
    """What `select` decided: the memories `rank` must see, as the cache holds them (every
    field `rank` reads; no description), or None and why to search in SQL instead."""

    memories: list[Memory] | None
    reason: str = ""


def sync(session: Session, entry: AgentVectors, agent_id: uuid.UUID, trace: SearchTrace) -> Rows:
    """Bring `entry` up to date; the caller's own uncommitted rows are returned instead."""
    found = memory_rows.rows(
        session, SYNC, {"agent_id": agent_id, "since": entry.watermark}, prepare=True
    )
    present = [row for row in found if row.id is not None]
    trace.cache_rows_read = len(present)
    mine = [row for row in present if row.mine]
    entry.apply(parse([row for row in present if not row.mine], entry.dimension))
    if not mine:  # else keep it: the committed versions of rows we overwrote must be re-read
        entry.watermark = int(found[0].xmin)
    return parse(mine, entry.dimension)


def parse(found: Sequence[Any], dimension: int | None) -> Rows:
    """Rows of `SYNC` as columns, every vector `dimension` wide (when None, the most common
    dimension among them); vectors of another dimension are left as zeros."""
    n = len(found)
    blobs = [row.embedding for row in found]
    dims = np.array(
        [0 if blob is None else (len(blob) // 4) - VECTOR_HEADER_FLOATS for blob in blobs],
        dtype=np.int32,
    )
    if dimension is None:
        embedded_dims = dims[dims > 0]
        dimension = int(np.bincount(embedded_dims).argmax()) if embedded_dims.size else 0
    vectors = np.zeros((n, dimension), dtype=np.float32)
    fits = (dims == dimension) & (dims > 0)
    if fits.any():
        joined = b"".join(blob for blob, ok in zip(blobs, fits.tolist(), strict=True) if ok)
        stacked = np.frombuffer(joined, dtype=">f4").reshape(-1, dimension + VECTOR_HEADER_FLOATS)
        vectors[fits] = stacked[:, VECTOR_HEADER_FLOATS:]
    norms = np.array([0.0 if row.norm is None else row.norm for row in found], dtype=np.float64)
    embedded = dims > 0
    safe = embedded & (norms >= SAFE_NORM_RANGE[0]) & (norms <= SAFE_NORM_RANGE[1])
    return Rows(
        ids=np.array([row.id for row in found], dtype=np.int64),
        kinds=np.array([KIND_CODES[row.kind] for row in found], dtype=np.uint8),
        importance=np.array([row.importance for row in found], dtype=np.float64),
        created_us=np.array([row.created_us for row in found], dtype=np.int64),
        accessed_us=np.array([row.accessed_us for row in found], dtype=np.int64),
        scale=np.divide(1.0, norms, out=np.zeros(n), where=safe),
        exact=embedded & ~safe & (norms > 0.0),
        embedded=embedded,
        vectors=vectors,
        dimensions=dims,
    )


def search(
    session: Session,
    cache: VectorCache,
    *,
    agent_id: uuid.UUID,
    query_embedding: Sequence[float] | None,
    now: datetime,
    weights: RetrievalWeights,
    k: int,
    kinds: list[str] | None,
    trace: SearchTrace,
) -> list[ScoredMemory] | None:
    """`rank`'s top k over all of the agent's memories of `kinds`, from the cache; None (the
    reason in `trace.cache_miss`) when the agent must be searched in SQL instead."""
    for attempt in range(2):
        with cache.agent(agent_id) as entry:
            with trace.stage("sync"):
                overlay = sync(session, entry, agent_id, trace)
            if 2 * len(entry.foreign) > entry.size and attempt == 0:
                cache.discard(agent_id)  # mostly re-embedded: load afresh in the new space
                continue
            if not cache.fits(entry):
                cache.discard(agent_id)
                trace.cache_miss = "agent not cacheable"
                return None
            with trace.stage("score"):
                pick = select(
                    entry, overlay, query_embedding, now=now, weights=weights, k=k, kinds=kinds
                )
            break
    if pick.memories is None:
        trace.cache_miss = pick.reason
        return None
    trace.ranked = len(pick.memories)
    with trace.stage("rank"):
        ranked = rank(pick.memories, query_embedding=query_embedding, now=now, weights=weights, k=k)
    with trace.stage("fetch"):
        whole = memory_rows.memories_by_id(session, agent_id, [s.memory.id for s in ranked])
    return _completed(ranked, {memory.id: memory for memory in whole}, trace)


def _completed(
    ranked: list[ScoredMemory], whole: dict[int, Memory], trace: SearchTrace
) -> list[ScoredMemory] | None:
    """The ranked memories with every field, as stored (None if one is gone: a race with
    the agent's deletion; the SQL path then answers)."""
    if any(s.memory.id not in whole for s in ranked):
        trace.cache_miss = "a ranked memory is gone"
        return None
    return [replace(s, memory=whole[s.memory.id]) for s in ranked]


def select(
    entry: AgentVectors,
    overlay: Rows,
    query_embedding: Sequence[float] | None,
    *,
    now: datetime,
    weights: RetrievalWeights,
    k: int,
    kinds: list[str] | None,
) -> Pick:
    """The ids `rank` must see for the exact top k (module docstring)."""
    dimension = entry.dimension or overlay.vectors.shape[1]
    if entry.foreign or bool((overlay.embedded & (overlay.dimensions != dimension)).any()):
        return Pick(None, "embeddings of another dimension")
    query = None if query_embedding is None else unit_vector(query_embedding)
    if query is not None and dimension not in (0, query.size):
        return Pick(None, "query of another dimension")
    base = entry.columns
    r = _relevance(base, query, query_embedding)
    if len(overlay) or kinds is not None:  # else every cached row is a candidate, as it is
        keep = _of_kinds(base, kinds)
        keep[[entry.position[i] for i in overlay.ids.tolist() if i in entry.position]] = False
        extra = _of_kinds(overlay, kinds)
        r = np.concatenate([r[keep], _relevance(overlay, query, query_embedding)[extra]])
        base = _joined(base.take(keep), overlay.take(extra))
    if len(base) == 0:
        return Pick([])
    ids = _pick(base, r, query, now=now, weights=weights, k=k)
    return (
        Pick(None, "recency near underflow") if ids is None else Pick(_light(entry, overlay, ids))
    )


def _pick(
    rows: Rows,
    r: Floats,
    query: npt.NDArray[np.float32] | None,
    *,
    now: datetime,
    weights: RetrievalWeights,
    k: int,
) -> list[int] | None:
    """Estimate every score within a proven δ; keep what can reach the top k or fix a
    normalisation.

    With Ŝ the estimate and |S − Ŝ| ≤ δ, the k best estimates score at least kth(Ŝ) − δ, so
    the true k-th best does too, and a memory of the true top k has Ŝ ≥ kth(Ŝ) − 2δ.
    δ sums each component's error after normalisation: recency by RECENCY_TOLERANCE over its
    exact span; relevance, whose extremes are themselves estimates, by 4ε over the estimated
    span ((x − m)/(M − m) against (r − r_min)/(r_max − r_min) with every term within ε: 2ε on
    the numerator, 2ε on the span of a ratio at most 1); importance exactly; plus the float64
    roundings on both sides (`score_tolerance`).
    """
    accessed, importance = rows.accessed_us, rows.importance
    oldest, newest = int(accessed.argmin()), int(accessed.argmax())
    rec = Scale(_recency_at(accessed[oldest], now), _recency_at(accessed[newest], now))
    if rec.low < SMALLEST_RECENCY:
        return None
    least, most = int(importance.argmin()), int(importance.argmax())
    imp = Scale(float(importance[least]), float(importance[most]))
    estimated = query is not None and bool(rows.scale.any())
    epsilon = relevance_error(query.size) if query is not None and estimated else 0.0
    r_min, r_max = float(r.min()), float(r.max())
    span = r_max - r_min
    rel_error = 0.0 if epsilon == 0.0 else (4.0 * epsilon / span if span > 4.0 * epsilon else 1.0)
    delta = (
        abs(weights.recency) * (RECENCY_TOLERANCE / rec.span if rec.span else 0.0)
        + abs(weights.relevance) * rel_error
        + 2.0 * score_tolerance(weights)
    )
    score = _weighted(_raw_recency(accessed, now) - rec.low, weights.recency, rec.span)
    score += _weighted(importance - imp.low, weights.importance, imp.span)
    score += _weighted(r - r_min, weights.relevance, span)
    kept = score >= kth_largest(score, k) - 2.0 * delta
    kept |= (r <= r_min + 2.0 * epsilon) | (r >= r_max - 2.0 * epsilon)
    kept[[oldest, newest, least, most]] = True
    return rows.ids[kept].tolist()


def _light(entry: AgentVectors, overlay: Rows, ids: list[int]) -> list[Memory]:
    """The memories `rank` reads, from the cached columns (the overlay's for its rows)."""
    mine = {memory_id: i for i, memory_id in enumerate(overlay.ids.tolist())}
    base = entry.columns
    memories = []
    for memory_id in ids:
        rows, i = (
            (overlay, mine[memory_id]) if memory_id in mine else (base, entry.position[memory_id])
        )
        memories.append(
            Memory(
                id=memory_id,
                kind=MemoryKind(MEMORY_KINDS[int(rows.kinds[i])]),
                description="",
                created_at=EPOCH + timedelta(microseconds=int(rows.created_us[i])),
                last_accessed_at=EPOCH + timedelta(microseconds=int(rows.accessed_us[i])),
                importance=int(rows.importance[i]),
                embedding=tuple(rows.vectors[i].astype(np.float64).tolist())
                if rows.embedded[i]
                else None,
            )
        )
    return memories


def _weighted(values: Floats, weight: float, span: float) -> Floats:
    """weight × normalised value (0 for a constant component, as the reference)."""
    if span == 0.0 or weight == 0.0:
        return np.zeros_like(values, dtype=np.float64)
    values *= weight / span
    return values


LOG_DECAY_PER_MICROSECOND = math.log(DEFAULT_RECENCY_DECAY) / (SECONDS_PER_HOUR * 1e6)


def _raw_recency(accessed_us: npt.NDArray[np.int64], now: datetime) -> Floats:
    """decay ** hours since last access (clamped at 0, as the reference), as exp of a product:
    within ~1e-13 of the reference's `decay ** hours` where recency ≥ SMALLEST_RECENCY (the
    exponent is at most ~700), far inside RECENCY_TOLERANCE."""
    now_us = (now - EPOCH) // timedelta(microseconds=1)
    exponent = (now_us - accessed_us) * LOG_DECAY_PER_MICROSECOND
    np.minimum(exponent, 0.0, out=exponent)
    return np.exp(exponent, out=exponent)


def _recency_at(accessed_us: np.int64, now: datetime) -> float:
    """The reference's raw recency of a last access given in microseconds since the epoch."""
    return recency(EPOCH + timedelta(microseconds=int(accessed_us)), now)


def _of_kinds(rows: Rows, kinds: list[str] | None) -> Mask:
    if kinds is None:
        return np.ones(len(rows), dtype=np.bool_)
    return np.isin(rows.kinds, kind_codes(kinds))


def _joined(a: Rows, b: Rows) -> Rows:
    """The scalar columns of both (vectors are not needed once relevance is estimated)."""
    return Rows(
        ids=np.concatenate([a.ids, b.ids]),
        kinds=np.concatenate([a.kinds, b.kinds]),
        importance=np.concatenate([a.importance, b.importance]),
        created_us=np.concatenate([a.created_us, b.created_us]),
        accessed_us=np.concatenate([a.accessed_us, b.accessed_us]),
        scale=np.concatenate([a.scale, b.scale]),
        exact=np.concatenate([a.exact, b.exact]),
        embedded=np.concatenate([a.embedded, b.embedded]),
        vectors=np.zeros((0, 0), dtype=np.float32),
        dimensions=np.concatenate([a.dimensions, b.dimensions]),
    )


def _relevance(
    rows: Rows, query: npt.NDArray[np.float32] | None, original: Sequence[float] | None
) -> Floats:
    """Each row's relevance r: within ε of the reference cosine where `scale` is set (the
    float32 product times 1 / the stored float64 norm: one rounding more than dividing, far
    inside ε's absolute slack), exactly the reference elsewhere (0.0 without an embedding or
    for a zero vector; `cosine` itself for a norm outside the safe range, rare enough to
    compute one by one)."""
    if query is None or original is None or not rows.embedded.any():
        return np.zeros(len(rows), dtype=np.float64)
    r = rows.scale * (rows.vectors @ query)
    for i in np.flatnonzero(rows.exact).tolist():
        r[i] = cosine(original, rows.vectors[i].tolist())
    return r
