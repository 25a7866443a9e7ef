"""Writing the memory stream. A memory is retrievable the moment its transaction commits:
importance gets a provisional lexical score at once; the Mind's score and the embedding follow
from the enrichment job."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Session

from cognition.embedding_cache import content_hash
from cognition.offline.importance import rate as provisional_importance
from cognition.types import MemoryKind, NewMemory
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


def add_for_agents(
    session: Session,
    *,
    world_id: uuid.UUID,
    items: Sequence[tuple[uuid.UUID, NewMemory]],
    now: datetime,
) -> list[Memory]:
    """Insert memories of many agents of one world in one statement (the step path)."""
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
    }
