"""Rows of `memories` as cognition's `Memory`: the one mapping, and the plain reads and writes
retrieval needs (rows by id, every candidate of an agent, touching).

`to_memory` works on ORM objects and Core or psycopg rows alike (attribute access by column
name). The reads here talk to psycopg directly for binary results: vectors arrive as pgvector's
binary form, which numpy turns into floats in one call.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import date, datetime, timedelta
from typing import Any, Protocol, cast

import numpy as np
import psycopg
import sqlalchemy as sa
from psycopg.rows import namedtuple_row
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session

from cognition.types import Memory, MemoryKind, MemorySource
from db import memory_detail
from db.models import Memory as MemoryRow

MEMORY_COLUMNS = (
    MemoryRow.id,
    MemoryRow.kind,
    MemoryRow.description,
    MemoryRow.created_at,
    MemoryRow.last_accessed_at,
    MemoryRow.importance,
    MemoryRow.depth,
    MemoryRow.embedding,
    MemoryRow.subject,
    MemoryRow.predicate,
    MemoryRow.object,
    MemoryRow.source,
    MemoryRow.detail,
)
"""Exactly the columns `to_memory` reads (for SQLAlchemy selects)."""

_SELECT = """
SELECT m.id, m.kind, m.description, m.created_at, m.last_accessed_at, m.importance, m.depth,
       vector_send(m.embedding) AS embedding, m.subject, m.predicate, m.object, m.source,
       m.detail
FROM memories m WHERE m.agent_id = %(agent_id)s {where}"""
"""`MEMORY_COLUMNS`, the vector in pgvector's binary form (int16 dimension, int16 unused,
big-endian float32s)."""

VECTOR_HEADER_BYTES = 4


class MemoryLike(Protocol):
    """What `to_memory` needs: an ORM `Memory` or a row of `MEMORY_COLUMNS`."""

    @property
    def id(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def created_at(self) -> datetime: ...
    @property
    def last_accessed_at(self) -> datetime: ...
    @property
    def importance(self) -> int: ...
    @property
    def depth(self) -> int: ...
    @property
    def embedding(self) -> Any: ...
    @property
    def subject(self) -> str | None: ...
    @property
    def predicate(self) -> str | None: ...
    @property
    def object(self) -> str | None: ...
    @property
    def source(self) -> str: ...
    @property
    def detail(self) -> Any: ...


def to_memory(row: MemoryLike) -> Memory:
    """The domain value of one row. The embedding becomes a tuple of Python floats (the stored
    float32 values, exactly), so memories compare with `==` and cannot be mutated."""
    return Memory(
        id=row.id,
        kind=MemoryKind(row.kind),
        description=row.description,
        created_at=row.created_at,
        last_accessed_at=row.last_accessed_at,
        importance=row.importance,
        depth=row.depth,
        embedding=to_floats(row.embedding),
        subject=row.subject,
        predicate=row.predicate,
        object=row.object,
        source=MemorySource(row.source),
        detail=memory_detail.from_json(row.detail),
    )


def to_floats(embedding: Any) -> tuple[float, ...] | None:
    """A stored vector as a tuple of floats: from pgvector's binary form, from the float32
    numpy array pgvector's SQLAlchemy type returns, or from any sequence of numbers."""
    if embedding is None or isinstance(embedding, tuple):
        return cast("tuple[float, ...] | None", embedding)
    if isinstance(embedding, bytes | memoryview):
        values = np.frombuffer(embedding, dtype=">f4", offset=VECTOR_HEADER_BYTES)
        return tuple(values.astype(np.float64).tolist())
    numbers = embedding.tolist() if hasattr(embedding, "tolist") else embedding
    return tuple(map(float, numbers))


def driver(session: Session) -> psycopg.Connection[Any]:
    """The psycopg connection of the session's transaction, for binary results and, per
    statement, control of whether the server keeps a prepared plan."""
    return cast("psycopg.Connection[Any]", session.connection().connection.driver_connection)


def rows(session: Session, sql: str, params: dict[str, Any], *, prepare: bool) -> list[Any]:
    """Named-tuple rows of one statement, binary results."""
    with driver(session).cursor(binary=True, row_factory=namedtuple_row) as cursor:
        cursor.execute(sql.encode(), params, prepare=prepare)
        return cursor.fetchall()


def memories_by_id(session: Session, agent_id: uuid.UUID, ids: Sequence[int]) -> list[Memory]:
    """The agent's memories with these ids (in id order; unknown ids skipped)."""
    sql = _SELECT.format(where="AND m.id = ANY(CAST(%(ids)s AS bigint[])) ORDER BY m.id")
    found = rows(session, sql, {"agent_id": agent_id, "ids": list(ids)}, prepare=True)
    return [to_memory(row) for row in found]


def agent_memories(
    session: Session, agent_id: uuid.UUID, kinds: Sequence[str] | None = None
) -> list[Memory]:
    """Every memory of the agent (of `kinds` when given)."""
    where = "" if kinds is None else "AND m.kind = ANY(CAST(%(kinds)s AS text[]))"
    params: dict[str, Any] = {"agent_id": agent_id}
    if kinds is not None:
        params["kinds"] = list(kinds)
    return [
        to_memory(row) for row in rows(session, _SELECT.format(where=where), params, prepare=False)
    ]


def touch(session: Session, ids: Sequence[int], now: datetime) -> int:
    """Set `last_accessed_at = now` on these memories; how many rows changed."""
    result = session.execute(
        sa.update(MemoryRow)
        .where(MemoryRow.id == sa.any_(sa.literal(list(ids), ARRAY(sa.BigInteger))))
        .values(last_accessed_at=now)
    )
    return int(getattr(result, "rowcount", 0))


_ON_DAY = """
AND EXISTS (
    SELECT FROM jsonb_array_elements(m.detail->'news') AS f
    WHERE f->>'kind' = 'gathering' AND f->>'start_min' IS NOT NULL
      AND ((f->>'month')::int = %(month)s AND (f->>'day')::int = %(day)s
           OR f->>'day' IS NULL AND (f->>'weekday')::int = %(weekday)s))
ORDER BY m.created_at DESC, m.id DESC LIMIT %(limit)s"""


def gatherings_on(session: Session, agent_id: uuid.UUID, day: date, *, limit: int) -> list[Memory]:
    """The agent's latest memories whose stored news (`memories.detail`) puts a gathering at
    a time on `day`: what it heard is on today, looked up as fields, not by resemblance."""
    sql = _SELECT.format(where="AND m.detail IS NOT NULL " + _ON_DAY)
    params = {
        "agent_id": agent_id,
        "month": day.month,
        "day": day.day,
        "weekday": day.weekday(),
        "limit": limit,
    }
    return [to_memory(row) for row in rows(session, sql, params, prepare=True)]


_REPORTS_SINCE = """
SELECT * FROM (
    SELECT DISTINCT ON (f->>'what') m.id, m.kind, m.description, m.created_at,
           m.last_accessed_at, m.importance, m.depth, vector_send(m.embedding) AS embedding,
           m.subject, m.predicate, m.object, m.source, m.detail
    FROM memories m CROSS JOIN LATERAL jsonb_array_elements(m.detail->'news') AS f
    WHERE m.agent_id = %(agent_id)s AND m.detail IS NOT NULL AND m.created_at >= %(since)s
      AND f->>'kind' = 'report'
    ORDER BY f->>'what', m.created_at DESC, m.id DESC
) latest ORDER BY created_at DESC, id DESC LIMIT %(limit)s"""


def reports_since(
    session: Session, agent_id: uuid.UUID, since: datetime, *, limit: int
) -> list[Memory]:
    """The agent's latest memory of each report (plain news: "the sea wall has cracked") it
    heard or said since `since`, newest first, by stored fields: news one heard this morning
    is on one's mind at noon, whatever the morning's chatter."""
    params = {"agent_id": agent_id, "since": since, "limit": limit}
    return [to_memory(row) for row in rows(session, _REPORTS_SINCE, params, prepare=True)]


_EXCHANGED_NEWS = """
SELECT * FROM (
    SELECT DISTINCT ON (f->>'kind', f->>'what') m.id, m.kind, m.description, m.created_at,
           m.last_accessed_at, m.importance, m.depth, vector_send(m.embedding) AS embedding,
           m.subject, m.predicate, m.object, m.source, m.detail
    FROM memories m CROSS JOIN LATERAL jsonb_array_elements(m.detail->'news') AS f
    WHERE m.agent_id = %(agent_id)s AND m.subject = ANY(%(names)s) AND m.kind = 'utterance'
      AND m.detail IS NOT NULL
      AND ARRAY[m.detail->'said'->>'speaker', m.detail->'said'->>'listener'] <@ %(names)s
      AND (f->>'kind' <> 'gathering' OR COALESCE(f->>'place', f->>'day', f->>'weekday') IS NOT NULL)
    ORDER BY f->>'kind', f->>'what', m.created_at DESC, m.id DESC
) latest ORDER BY created_at DESC, id DESC LIMIT %(limit)s"""


def news_exchanged(
    session: Session, agent_id: uuid.UUID, *, me: str, other: str, limit: int
) -> list[Memory]:
    """The agent's latest line of each piece of news it and `other` told each other, by the
    lines' stored fields (`ix_memories_agent_subject_latest`): news is told to each listener
    once, however long ago and however the day's talk ranks that line (a lock keeper told the
    same girl of the algae three times in two days)."""
    params = {"agent_id": agent_id, "names": [me, other], "limit": limit}
    return [to_memory(row) for row in rows(session, _EXCHANGED_NEWS, params, prepare=True)]


EXCHANGED_K = 6
"""Pieces of news exchanged with the other side a speaker keeps in mind (`news_exchanged`)."""
ON_MIND_K = 3
"""Memories of each kind a speaker has on its mind (`Speaker.on_mind`): per day of gatherings,
and of reports."""
REPORTS_LOOKBACK = timedelta(days=1)
"""Plain news heard this long ago is still on one's mind to tell."""


def on_mind(session: Session, agent_id: uuid.UUID, now: datetime) -> tuple[str, ...]:
    """The agent's memories of gatherings today and tomorrow and of the news it heard in the
    last day, by their stored fields: what it has on its mind to tell whoever it meets,
    whatever a retrieval for the moment ranks higher."""
    return tuple(m.recalled() for m in news_around(session, agent_id, now))


def news_around(
    session: Session, agent_id: uuid.UUID, now: datetime, *, days_before: int = 0
) -> list[Memory]:
    """The memories `on_mind` reads: gatherings from `days_before` days ago to tomorrow, and
    the latest of each report heard since the day before the first of those days."""
    days = [(now + timedelta(days=n)).date() for n in range(-days_before, 2)]
    since = now - REPORTS_LOOKBACK - timedelta(days=days_before)
    return [
        *(m for day in days for m in gatherings_on(session, agent_id, day, limit=ON_MIND_K)),
        *reports_since(session, agent_id, since, limit=ON_MIND_K),
    ]
