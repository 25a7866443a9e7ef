"""Exact retrieval from the process's copy of an agent's rows (`db.retrieval.vector_cache`).

One statement brings the copy up to date (`sync`); then every candidate's score is estimated
within proven bounds and only the memories that could matter are ranked by
`cognition.retrieval.rank` itself (`shortlist`): those that can still be in the top k, those
that may hold the minimum or maximum relevance, and the rows attaining the recency and
importance extremes. `rank` then normalises them exactly as over every memory, and its top k
is the answer, as in the SQL fast path (`in_sql`), which this replaces whenever the agent's
rows fit the cache. The copy holds every field of a memory, so the answer needs no second
read, and it is `rank` over one snapshot (the sync's).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np
import numpy.typing as npt
from sqlalchemy.orm import Session

from cognition.retrieval import rank
from cognition.types import RetrievalWeights, ScoredMemory
from db import memory_detail
from db.queries import memory_rows
from db.retrieval import quantized
from db.retrieval.bounds import SAFE_NORM_RANGE
from db.retrieval.shortlist import select
from db.retrieval.trace import SearchTrace
from db.retrieval.vector_cache import KIND_CODES, AgentVectors, Rows, Texts, VectorCache

SYNC = """
SELECT s.xmin, s.alive, m.id, m.kind, m.importance,
       (extract(epoch FROM m.created_at) * 1000000)::bigint AS created_us,
       (extract(epoch FROM m.last_accessed_at) * 1000000)::bigint AS accessed_us,
       m.embedding_norm AS norm, vector_send(m.embedding) AS embedding,
       m.description, m.depth, m.subject, m.predicate, m.object, m.source, m.detail,
       COALESCE(m.changed_xid = s.own, false) AS mine
FROM (SELECT (pg_snapshot_xmin(pg_current_snapshot())::text)::bigint AS xmin,
             (pg_current_xact_id_if_assigned()::text)::bigint AS own,
             EXISTS (SELECT FROM agents a WHERE a.id = %(agent_id)s) AS alive) AS s
LEFT JOIN LATERAL (
    SELECT * FROM memories m WHERE m.agent_id = %(agent_id)s AND m.changed_xid >= %(since)s
) AS m ON true"""
"""The rows written at or after the watermark, and the new watermark, in one snapshot. `mine`
marks rows of the caller's own open transaction (laid over the copy, never stored in it);
`alive` whether the agent still exists (its memories go with it, so the copy would be stale)."""

VECTOR_HEADER_FLOATS = 1
"""pgvector's binary form starts with an int16 dimension and an unused int16: one float's
width, skipped when the vectors are read as one big-endian float32 array."""


def sync(
    session: Session, entry: AgentVectors, agent_id: uuid.UUID, trace: SearchTrace
) -> Rows | None:
    """Bring `entry` up to date; the caller's own uncommitted rows are returned instead. None
    when the agent no longer exists."""
    found = memory_rows.rows(
        session, SYNC, {"agent_id": agent_id, "since": entry.watermark}, prepare=True
    )
    if not found[0].alive:
        return None
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
    scale = np.divide(1.0, norms, out=np.zeros(n), where=safe)
    coded = quantized.code_rows(vectors, scale)
    return Rows(
        ids=np.array([row.id for row in found], dtype=np.int64),
        kinds=np.array([KIND_CODES[row.kind] for row in found], dtype=np.uint8),
        importance=np.array([row.importance for row in found], dtype=np.float64),
        created_us=np.array([row.created_us for row in found], dtype=np.int64),
        accessed_us=np.array([row.accessed_us for row in found], dtype=np.int64),
        scale=scale,
        exact=embedded & ~safe & (norms > 0.0),
        embedded=embedded,
        vectors=vectors,
        dimensions=dims,
        codes=coded.codes,
        code_scale=coded.scale,
        code_error=coded.error,
        texts=_texts(found),
    )


def _texts(found: Sequence[Any]) -> npt.NDArray[np.object_]:
    texts = np.empty(len(found), dtype=np.object_)
    texts[:] = [
        Texts(
            row.description,
            row.depth,
            row.subject,
            row.predicate,
            row.object,
            row.source,
            memory_detail.from_json(row.detail),
        )
        for row in found
    ]
    return texts


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
            if overlay is None:
                cache.discard(agent_id)
                trace.cache_miss = "the agent is gone"
                return None
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
        return rank(pick.memories, query_embedding=query_embedding, now=now, weights=weights, k=k)
