"""The SQL of enrichment: which memories await it, whose vector a repeated text can copy, and
the one statement that stores a batch's embeddings and scores.

Write amplification matters here: every UPDATE of a memory writes a new row version into all of
the table's indexes, so a batch's embeddings and scores go out in a single UPDATE (one new
version per memory, not two) with the vectors as one array parameter.
"""

from __future__ import annotations

import uuid
import weakref
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

import numpy as np
import numpy.typing as npt
import psycopg
import sqlalchemy as sa
from pgvector.psycopg.vector import register_vector_info
from psycopg.types import TypeInfo
from psycopg.types.json import Jsonb
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session

from cognition.types import MemoryKind
from db.models import Agent, Memory
from db.queries.memory_rows import driver

BACKLOG_GRACE = timedelta(seconds=60)
"""The backlog leaves younger memories to the job their write enqueued."""


@dataclass(frozen=True)
class Pending:
    """A memory still missing its embedding, its Mind score, or both."""

    id: int
    world_id: uuid.UUID
    agent_id: uuid.UUID
    kind: str
    description: str
    content_hash: str
    fuels_reflection: bool
    """Perceived, not the agent's own thought: an observation, a directive, or a line heard
    (an utterance someone else said). Reflections, plans and one's own lines are not."""
    self_seen: bool
    """The agent seeing itself start an action ("Junie Halvorsen is brewing coffee")."""
    provisional: int
    """The lexical importance set at write time."""
    needs_embedding: bool
    needs_score: bool
    created_at: datetime
    needs_detail: bool
    """Its fields not read yet (`memories.detail` is NULL)."""
    owner: str
    """The agent's name: the "I" of what it was told in its own words (a seed)."""


@dataclass(frozen=True)
class Enrichment:
    """What to store for one memory: a fresh vector, a donor's id to copy one from, a score."""

    id: int
    vector: Sequence[float] | None = None
    donor: int | None = None
    score: int | None = None
    detail: dict[str, Any] | None = None
    """`memories.detail`, stored only where it is still NULL."""


@dataclass(frozen=True)
class Accumulated:
    """An agent's reflection accumulator before and after this run added to it."""

    agent_id: uuid.UUID
    world_id: uuid.UUID
    before: int
    after: int


_OWN_NAME = sa.select(Agent.name).where(Agent.id == Memory.agent_id).scalar_subquery()
_FUELS_REFLECTION = sa.or_(
    Memory.kind.in_([MemoryKind.OBSERVATION.value, MemoryKind.DIRECTIVE.value]),
    sa.and_(Memory.kind == MemoryKind.UTTERANCE.value, Memory.subject.is_distinct_from(_OWN_NAME)),
)
"""What counts toward the reflection trigger (`Pending.fuels_reflection`)."""
_SELF_SEEN = sa.and_(
    Memory.kind == MemoryKind.OBSERVATION.value,
    Memory.source == "agent",
    Memory.subject.is_not_distinct_from(_OWN_NAME),
)


def pending(session: Session, ids: Sequence[int], *, lock: bool = False) -> list[Pending]:
    """Which of `ids` are unenriched, and in which way. With `lock`, the rows are locked in id
    order first (no deadlock between concurrent runs) and the answer is their state under the
    lock, so it stays true until the caller commits."""
    if not ids:
        return []
    columns = (
        Memory.id,
        Memory.world_id,
        Memory.agent_id,
        Memory.kind,
        Memory.description,
        Memory.content_hash,
        _FUELS_REFLECTION,
        _SELF_SEEN,
        Memory.importance,
        Memory.embedding.is_(None),
        ~Memory.importance_scored,
        Memory.created_at,
        Memory.detail.is_(None),
        _OWN_NAME,
    )
    batch = sa.literal(list(ids), ARRAY(sa.BigInteger))  # one array parameter, not one per id
    query = sa.select(*columns).where(Memory.id == sa.any_(batch)).order_by(Memory.id)
    if lock:
        query = query.with_for_update(of=Memory)
    found = [Pending(*cast("tuple[Any, ...]", row)) for row in session.execute(query)]
    return [p for p in found if p.needs_embedding or p.needs_score]


def pending_in_world(session: Session, *, world_id: uuid.UUID, limit: int) -> list[int]:
    """A world's unenriched memories, whatever their age: what the agent loop wrote (plans,
    reflections, utterances) is enriched in one batch per world (`hearth.enrich_world`)."""
    unenriched = sa.or_(Memory.embedding.is_(None), ~Memory.importance_scored)
    query = (
        sa.select(Memory.id)
        .where(unenriched, Memory.world_id == world_id)
        .order_by(Memory.agent_id, Memory.id)
        .limit(limit)
    )
    return list(session.scalars(query))


def backlog(session: Session, *, limit: int) -> list[int]:
    """Unenriched memories older than the grace period (their job was lost or failed), read
    through the partial index `ix_memories_unenriched` (its predicate, spelled identically)."""
    cutoff = sa.func.now() - BACKLOG_GRACE
    unenriched = sa.or_(Memory.embedding.is_(None), ~Memory.importance_scored)
    query = (
        sa.select(Memory.id)
        .where(unenriched, Memory.inserted_at < cutoff)
        .order_by(Memory.agent_id, Memory.id)
        .limit(limit)
    )
    return list(session.scalars(query))


DONOR_SCAN = 32
"""Index entries of a content hash looked at for a vector to copy. Bounded because during a
backlog a repeated text has thousands of rows not yet embedded (and an updated row's live
version sits last in the hash's index order): an unbounded look-up scanned them all. Missing
a donor only costs embedding the text again."""


def donors(session: Session, hashes: set[str], *, dimension: int) -> dict[str, int]:
    """For each content hash, a memory that already has its vector in this space."""
    if not hashes:
        return {}
    rows = session.execute(
        sa.text(
            "SELECT h.hash, d.id FROM unnest(CAST(:hashes AS varchar[])) AS h(hash) "
            "JOIN LATERAL (SELECT c.id FROM (SELECT m.id, m.embedding FROM memories AS m "
            "WHERE m.content_hash = h.hash LIMIT :scan) AS c "
            "WHERE c.embedding IS NOT NULL AND vector_dims(c.embedding) = :dimension "
            "LIMIT 1) AS d ON true"
        ),
        {"hashes": sorted(hashes), "scan": DONOR_SCAN, "dimension": dimension},
    )
    return {h: d for h, d in rows}


STORE = """
UPDATE memories AS m SET
    embedding = COALESCE(v.vector, (SELECT d.embedding FROM memories AS d WHERE d.id = v.donor),
                         m.embedding),
    importance = COALESCE(v.score, m.importance),
    importance_scored = m.importance_scored OR v.score IS NOT NULL,
    detail = COALESCE(m.detail, v.detail)
FROM unnest(CAST(%(ids)s AS bigint[]), CAST(%(vectors)b AS vector[]),
            CAST(%(donors)s AS bigint[]), CAST(%(scores)s AS smallint[]),
            CAST(%(details)s AS jsonb[]))
    AS v(id, vector, donor, score, detail)
WHERE m.id = v.id"""


def store(session: Session, items: Sequence[Enrichment]) -> None:
    """Write vectors, copied vectors and scores in one UPDATE (callers hold the row locks).

    The vectors travel in pgvector's binary form (float32, as pgvector's own client rounds
    them): its text form cost ~0.2 ms of Python formatting per 384-d vector."""
    if not items:
        return
    connection = driver(session)
    with connection.cursor(binary=True) as cursor:
        register_vector_info(cast("Any", cursor), _vector_type(connection))
        cursor.execute(
            STORE.encode(),
            {
                "ids": [i.id for i in items],
                "vectors": [None if i.vector is None else _float32(i.vector) for i in items],
                "donors": [i.donor for i in items],
                "scores": [i.score for i in items],
                "details": [None if i.detail is None else Jsonb(i.detail) for i in items],
            },
        )


_vector_types: weakref.WeakKeyDictionary[psycopg.Connection[Any], TypeInfo] = (
    weakref.WeakKeyDictionary()
)


def _vector_type(connection: psycopg.Connection[Any]) -> TypeInfo:
    """pgvector's type in this database, looked up once per connection."""
    info = _vector_types.get(connection)
    if info is None:
        found = TypeInfo.fetch(connection, "vector")
        if found is None:
            raise RuntimeError("the vector type is missing: run `hearth db upgrade`")
        info = _vector_types[connection] = found
    return info


def _float32(vector: Sequence[float]) -> npt.NDArray[np.float32]:
    return np.asarray(vector, dtype=np.float32)


def accumulate(session: Session, added: dict[uuid.UUID, int]) -> list[Accumulated]:
    """Add importance to agents' reflection accumulators in one atomic UPDATE (agents locked in
    id order first), reporting each sum before and after."""
    added = {agent: n for agent, n in added.items() if n}
    if not added:
        return []
    ids = sorted(added)
    # FOR NO KEY UPDATE, not FOR UPDATE: a slow job writing rows that reference the agent (a
    # reflection's claim, plans, memories) holds a KEY SHARE lock on it until it commits, and
    # the fast queue must not wait for that job's model calls.
    session.execute(
        sa.select(Agent.id)
        .where(Agent.id.in_(ids))
        .order_by(Agent.id)
        .with_for_update(key_share=True)
    )
    rows = session.execute(
        sa.text(
            "UPDATE agents AS a "
            "SET importance_since_reflection = a.importance_since_reflection + v.added "
            "FROM unnest(CAST(:ids AS uuid[]), CAST(:added AS integer[])) AS v(id, added) "
            "WHERE a.id = v.id "
            "RETURNING a.id, a.world_id, a.importance_since_reflection - v.added, "
            "a.importance_since_reflection"
        ),
        {"ids": ids, "added": [added[i] for i in ids]},
    )
    return [Accumulated(*row) for row in rows]


def perceived_importance(items: Sequence[Pending], scores: dict[int, int]) -> dict[uuid.UUID, int]:
    """Per agent, the summed new scores of what it perceived (the paper's reflection trigger
    counts observations; here also the lines it heard, a player's included, and its inner
    voice — never its own reflections, plans or lines)."""
    added: dict[uuid.UUID, int] = defaultdict(int)
    for item in items:
        if item.fuels_reflection and item.id in scores:
            added[item.agent_id] += scores[item.id]
    return dict(added)
