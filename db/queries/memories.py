"""Writing the memory stream. A memory is retrievable the moment its transaction commits:
importance gets a provisional lexical score at once; the Mind's score and the embedding follow
from the enrichment job."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlalchemy.orm import Session

from cognition.embedding_cache import content_hash
from cognition.offline.importance import rate as provisional_importance
from cognition.types import MemoryKind, NewMemory
from db import memory_detail
from db.models import Memory, MemoryEvidence


def add_memories(
    session: Session,
    *,
    world_id: uuid.UUID,
    agent_id: uuid.UUID,
    items: Sequence[NewMemory],
    now: datetime,
) -> list[Memory]:
    """Insert one agent's batch in one statement; reflections also get their evidence rows."""
    pairs = [(agent_id, item) for item in items]
    return add_for_agents(session, world_id=world_id, items=pairs, now=now)


DEDUPE_WINDOW = timedelta(minutes=10)
"""Game time within which the same text is not stored twice for one agent (`dedupe`)."""


def add_for_agents(
    session: Session,
    *,
    world_id: uuid.UUID,
    items: Sequence[tuple[uuid.UUID, NewMemory]],
    now: datetime,
    dedupe: bool = False,
) -> list[Memory]:
    """Insert memories of many agents of one world in one statement (the step path).

    With `dedupe`, an item whose text the agent already has from the last DEDUPE_WINDOW of
    game time (or earlier in this batch) is not stored again: a line heard twice, or an
    action seen again, is one memory. Only the stored ones are returned."""
    if dedupe:
        items = _unseen(session, items, now)
    if not items:
        return []
    rows = [_row(world_id, agent_id, item, now) for agent_id, item in items]
    insert = sa.insert(Memory).returning(Memory, sort_by_parameter_order=True)
    inserted = list(session.scalars(insert, rows))  # in input order: evidence zips by it
    evidence = [
        {"reflection_id": memory.id, "evidence_id": cited}
        for memory, (_, item) in zip(inserted, items, strict=True)
        for cited in item.evidence_ids
    ]
    if evidence:
        session.execute(sa.insert(MemoryEvidence), evidence)
    return inserted


def _unseen(
    session: Session, items: Sequence[tuple[uuid.UUID, NewMemory]], now: datetime
) -> list[tuple[uuid.UUID, NewMemory]]:
    """The items whose (agent, text) is new within the window (one indexed query)."""
    if not items:
        return []
    hashes = sorted({content_hash(item.description) for _, item in items})
    earliest = min((item.created_at or now) for _, item in items) - DEDUPE_WINDOW
    agents = sorted({agent_id for agent_id, _ in items})
    seen = set(
        session.execute(
            sa.select(Memory.agent_id, Memory.content_hash).where(
                Memory.content_hash.in_(hashes),
                Memory.agent_id.in_(agents),
                Memory.created_at >= earliest,
            )
        ).tuples()
    )
    fresh: list[tuple[uuid.UUID, NewMemory]] = []
    for agent_id, item in items:
        key = (agent_id, content_hash(item.description))
        if key not in seen:
            seen.add(key)
            fresh.append((agent_id, item))
    return fresh


COLUMN_TYPES: dict[str, sa.types.TypeEngine[Any]] = {
    "world_id": postgresql.UUID(),
    "agent_id": postgresql.UUID(),
    "kind": sa.String(),
    "description": sa.Text(),
    "subject": sa.Text(),
    "predicate": sa.Text(),
    "object": sa.Text(),
    "created_at": sa.DateTime(),
    "last_accessed_at": sa.DateTime(),
    "importance": sa.SmallInteger(),
    "importance_scored": sa.Boolean(),
    "content_hash": sa.String(),
    "depth": sa.SmallInteger(),
    "source": sa.String(),
    "detail": postgresql.JSONB(none_as_null=True),
}
"""The columns a write sets, with their SQL types (for the arrays `insert_batch` sends)."""


def insert_batch(
    session: Session,
    *,
    world_id: uuid.UUID,
    agent_id: uuid.UUID,
    items: Sequence[NewMemory],
    now: datetime,
) -> list[sa.Row[Any]]:
    """The ingest path: a batch in one `INSERT … SELECT FROM unnest(…) RETURNING`, as Core rows.

    One parameter per column (an array) instead of one per value, and no ORM object per
    memory: a 1000-memory write costs a fraction of `add_memories`. Rows come back in input
    order (the SELECT is ordered by ordinality, so identity ids rise in input order)."""
    return insert_for_agents(
        session, world_id=world_id, items=[(agent_id, item) for item in items], now=now
    )


def insert_for_agents(
    session: Session,
    *,
    world_id: uuid.UUID,
    items: Sequence[tuple[uuid.UUID, NewMemory]],
    now: datetime,
) -> list[sa.Row[Any]]:
    """`insert_batch` for memories of many agents of one world (the step path)."""
    if not items:
        return []
    rows = [_row(world_id, agent_id, item, now) for agent_id, item in items]
    arrays = [
        sa.bindparam(f"a_{name}", [r[name] for r in rows], type_=postgresql.ARRAY(kind))
        for name, kind in COLUMN_TYPES.items()
    ]
    source = sa.func.unnest(*arrays).table_valued(*COLUMN_TYPES, with_ordinality="ord")
    source = source.render_derived()
    ordered = sa.select(*(source.c[name] for name in COLUMN_TYPES)).order_by(source.c.ord)
    insert = sa.insert(Memory).from_select(list(COLUMN_TYPES), ordered)
    inserted = sorted(session.execute(insert.returning(*Memory.__table__.c)), key=_id)
    evidence = [
        {"reflection_id": row.id, "evidence_id": cited}
        for row, (_, item) in zip(inserted, items, strict=True)
        for cited in item.evidence_ids
    ]
    if evidence:
        session.execute(sa.insert(MemoryEvidence), evidence)
    return inserted


def _id(row: sa.Row[Any]) -> int:
    return int(row.id)


def _row(
    world_id: uuid.UUID, agent_id: uuid.UUID, item: NewMemory, now: datetime
) -> dict[str, object]:
    created = item.created_at or now
    depth = max(1, item.depth) if item.kind == MemoryKind.REFLECTION else 0
    return {
        "world_id": world_id,
        "agent_id": agent_id,
        "kind": item.kind.value,
        "description": item.description,
        "subject": item.subject,
        "predicate": item.predicate,
        "object": item.object,
        "created_at": created,
        "last_accessed_at": created,
        "importance": item.importance or provisional_importance(item.description),
        "importance_scored": item.importance is not None,
        "content_hash": content_hash(item.description),
        "depth": depth,
        "source": item.source.value,
        "detail": memory_detail.to_json(item.detail),
    }


MAX_EVIDENCE_LEVELS = 32
"""How deep `evidence_tree` follows citations: far past any real reflection tree (the paper's
go a few levels), and a bound if rows written outside Hearth ever formed a cycle."""


def list_memories(
    session: Session,
    *,
    agent_id: uuid.UUID,
    limit: int,
    before: tuple[datetime, int] | None = None,
    kinds: Sequence[str] | None = None,
    since: datetime | None = None,
    until: datetime | None = None,
    text: str | None = None,
) -> list[Memory]:
    """A page newest first (created_at, id descending, the agent's b-tree order).

    `before` is the (created_at, id) of the previous page's last row; `since` is inclusive and
    `until` exclusive, both game times; `text` keeps descriptions containing it (any case)."""
    query = sa.select(Memory).where(Memory.agent_id == agent_id)
    if before is not None:
        query = query.where(sa.tuple_(Memory.created_at, Memory.id) < sa.tuple_(*before))
    if kinds:
        query = query.where(Memory.kind.in_(list(kinds)))
    if since is not None:
        query = query.where(Memory.created_at >= since)
    if until is not None:
        query = query.where(Memory.created_at < until)
    if text:
        query = query.where(Memory.description.icontains(text, autoescape=True))
    query = query.order_by(Memory.created_at.desc(), Memory.id.desc()).limit(limit)
    return list(session.scalars(query))


def get_memory(session: Session, *, agent_id: uuid.UUID, memory_id: int) -> Memory | None:
    return session.scalar(
        sa.select(Memory).where(Memory.id == memory_id, Memory.agent_id == agent_id)
    )


def evidence_tree(
    session: Session, *, agent_id: uuid.UUID, root_id: int, max_levels: int = MAX_EVIDENCE_LEVELS
) -> tuple[dict[int, Memory], dict[int, list[int]]]:
    """Everything a memory cites, transitively, in two queries: a recursive CTE over
    `memory_evidence` for the edges, then the cited rows of this agent.

    Returns (memories by id, cited ids by citing id, each list in id order)."""
    base = sa.select(
        MemoryEvidence.reflection_id, MemoryEvidence.evidence_id, sa.literal(1).label("level")
    ).where(MemoryEvidence.reflection_id == root_id)
    tree = base.cte("tree", recursive=True)
    step = sa.select(
        MemoryEvidence.reflection_id, MemoryEvidence.evidence_id, (tree.c.level + 1)
    ).join(tree, MemoryEvidence.reflection_id == tree.c.evidence_id)
    tree = tree.union(step.where(tree.c.level < max_levels))
    edges = session.execute(
        sa.select(tree.c.reflection_id, tree.c.evidence_id)
        .distinct()
        .order_by(tree.c.reflection_id, tree.c.evidence_id)
    ).all()
    cited_ids = {e.evidence_id for e in edges}
    query = sa.select(Memory).where(Memory.id.in_(cited_ids), Memory.agent_id == agent_id)
    memories = {m.id: m for m in session.scalars(query)} if cited_ids else {}
    children: dict[int, list[int]] = {}
    for edge in edges:
        if edge.evidence_id in memories:
            children.setdefault(edge.reflection_id, []).append(edge.evidence_id)
    return memories, children
