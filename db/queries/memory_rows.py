"""Rows of `memories` → cognition's `Memory`, the one mapping every reader of the stream shares.

Works on ORM objects and on Core rows alike (attribute access by column name), so a query can
select only `MEMORY_COLUMNS` instead of whole entities when it reads many rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

from cognition.types import Memory, MemoryKind, MemorySource
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
)
"""Exactly the columns `to_memory` reads."""


class MemoryLike(Protocol):
    """What `to_memory` needs: an ORM `Memory` or a Core row of `MEMORY_COLUMNS`."""

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
    )


def to_floats(embedding: Sequence[float] | Any | None) -> tuple[float, ...] | None:
    """A stored vector (pgvector's SQLAlchemy type hands back a float32 numpy array) as a
    tuple of Python floats: the float32 values, widened exactly."""
    if embedding is None or isinstance(embedding, tuple):
        return embedding
    values = embedding.tolist() if hasattr(embedding, "tolist") else embedding
    return tuple(map(float, values))
