"""The steps of a re-embed: every memory's vector recomputed in the configured embedder's space.

A re-embed of millions of memories takes a while and may be interrupted, so it runs in
batches, one transaction each, in id order; each batch records the last id it finished in
`embedding_spaces.reembed_through_id`, next to the target space in `reembed_target`. Starting
again with the same target continues after that id; finishing switches the recorded space.
The loop (and its commits) lives at the edge, `service.reembed`; these functions only flush.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from pgvector.sqlalchemy import Vector
from sqlalchemy.orm import Session

from cognition.errors import InvalidOutput
from cognition.mind import Embedder
from db.embedding_space import SPACE_ROW_ID, Space, set_space
from db.models import EmbeddingSpace, Memory

DEFAULT_BATCH_SIZE = 500
"""Memories per transaction: one embedder call each, and little work lost to an interruption."""


@dataclass(frozen=True)
class ReembedStart:
    """Where a re-embed starts: after `through_id`, with `done` of `total` memories behind it."""

    through_id: int
    done: int
    total: int


def begin(session: Session, target: Space) -> ReembedStart | None:
    """Record `target` as the re-embed in progress (resuming one already aimed at it).

    None when the database is already entirely in `target` and nothing is unfinished."""
    row = session.get(EmbeddingSpace, SPACE_ROW_ID, with_for_update=True)
    if row is None:
        row = EmbeddingSpace(
            id=SPACE_ROW_ID,
            provider=target.provider,
            model=target.model,
            dimension=target.dimension,
        )
        session.add(row)
    elif row.reembed_target is None and Space(row.provider, row.model, row.dimension) == target:
        return None
    if row.reembed_target != target.key:
        row.reembed_target, row.reembed_through_id = target.key, 0
    session.flush()
    through = row.reembed_through_id or 0
    return ReembedStart(
        through_id=through,
        done=_count(session, Memory.id <= through),
        total=_count(session, sa.true()),
    )


def next_batch(session: Session, *, after: int, limit: int) -> list[sa.Row[int, str]]:
    """The next memories in id order: (id, description)."""
    query = (
        sa.select(Memory.id, Memory.description)
        .where(Memory.id > after)
        .order_by(Memory.id)
        .limit(limit)
    )
    return list(session.execute(query).all())


def write_batch(session: Session, batch: Sequence[sa.Row[int, str]], *, embedder: Embedder) -> int:
    """Embed the batch's distinct texts in one call, store them, and advance the resume point.

    Returns the last id done."""
    texts = list(dict.fromkeys(row.description for row in batch))
    vectors = embedder.embed(texts)
    if len(vectors) != len(texts):
        raise InvalidOutput(f"embedder returned {len(vectors)} vectors for {len(texts)} texts")
    by_text = dict(zip(texts, vectors, strict=True))
    table = sa.table("memories", sa.column("id"), sa.column("embedding", Vector()))
    statement = (
        sa.update(table)
        .where(table.c.id == sa.bindparam("b_id"))
        .values(embedding=sa.bindparam("b_embedding", type_=Vector()))
    )
    session.execute(
        statement, [{"b_id": r.id, "b_embedding": by_text[r.description]} for r in batch]
    )
    last = batch[-1].id
    session.execute(
        sa.update(EmbeddingSpace)
        .where(EmbeddingSpace.id == SPACE_ROW_ID)
        .values(reembed_through_id=last)
    )
    return last


def finish(session: Session, target: Space) -> None:
    """Every memory is in `target` now: record it as the space, and the re-embed as done."""
    set_space(session, target)


def _count(session: Session, condition: sa.ColumnElement[bool]) -> int:
    return int(session.scalar(sa.select(sa.func.count()).select_from(Memory).where(condition)) or 0)
