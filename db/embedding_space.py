"""The one embedding space stored vectors live in, checked by every process that starts.

Relevance compares a query's vector with stored ones, which is meaningful only inside one space
(provider, model, dimension). The first process to start records its embedder in the single row
of `embedding_spaces`; a later process configured with another embedder refuses to start rather
than silently mixing spaces, and `hearth reembed` moves the whole database to the new one.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from cognition.errors import EmbeddingSpaceMismatch
from cognition.mind import Embedder
from db.models import EmbeddingSpace, Memory

SPACE_ROW_ID = 1


@dataclass(frozen=True)
class Space:
    provider: str
    model: str
    dimension: int

    @classmethod
    def of(cls, embedder: Embedder) -> Space:
        return cls(embedder.provider, embedder.model, embedder.dimension)

    @classmethod
    def parse(cls, key: str) -> Space:
        provider, model, dimension = key.rsplit("|", 2)
        return cls(provider, model, int(dimension))

    @property
    def key(self) -> str:
        """`provider|model|dimension`, as `embedding_spaces.reembed_target` stores it."""
        return f"{self.provider}|{self.model}|{self.dimension}"

    def __str__(self) -> str:
        return f"{self.provider}/{self.model} ({self.dimension}-d)"


def recorded_space(session: Session) -> Space | None:
    row = session.get(EmbeddingSpace, SPACE_ROW_ID)
    return None if row is None else Space(row.provider, row.model, row.dimension)


def ensure_space(session: Session, embedder: Embedder) -> None:
    """Record the embedder's space on first start; refuse another one while vectors exist.

    With no embedded memory there is nothing to protect, so the configured space is adopted.
    Flushes only; the caller commits. Raises `EmbeddingSpaceMismatch` with a one-line message.
    """
    wanted = Space.of(embedder)
    session.execute(
        insert(EmbeddingSpace)
        .values(
            id=SPACE_ROW_ID,
            provider=wanted.provider,
            model=wanted.model,
            dimension=wanted.dimension,
        )
        .on_conflict_do_nothing(index_elements=[EmbeddingSpace.id])
    )
    row = session.get(EmbeddingSpace, SPACE_ROW_ID, with_for_update=True, populate_existing=True)
    assert row is not None
    stored = Space(row.provider, row.model, row.dimension)
    if stored == wanted and row.reembed_target is None:
        return
    if row.reembed_target is None and not _any_embedded(session):
        set_space(session, wanted)
        return
    raise EmbeddingSpaceMismatch(mismatch_message(stored, wanted, resuming=row.reembed_target))


def set_space(session: Session, space: Space) -> None:
    """Switch the recorded space and forget any unfinished re-embed."""
    session.execute(
        sa.update(EmbeddingSpace)
        .where(EmbeddingSpace.id == SPACE_ROW_ID)
        .values(
            provider=space.provider,
            model=space.model,
            dimension=space.dimension,
            reembed_target=None,
            reembed_through_id=None,
        )
    )


def mismatch_message(stored: Space, wanted: Space, *, resuming: str | None) -> str:
    if resuming is not None:
        return (
            f"an unfinished re-embed into {Space.parse(resuming)} left memories in two "
            "spaces; run `hearth reembed` to finish it (into the configured embedder, "
            f"now {wanted})"
        )
    return (
        f"memories are embedded with {stored} but this process is configured with {wanted}; "
        "run `hearth reembed` to re-embed them all, or restore the HEARTH_EMBEDDING_* "
        "settings"
    )


def _any_embedded(session: Session) -> bool:
    return bool(session.scalar(sa.select(sa.exists().where(Memory.embedding.is_not(None)))))
