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
    """Insert a batch in one statement; reflections also get their evidence rows."""
    if not items:
        return []
    rows = [_row(world_id, agent_id, item, now) for item in items]
    inserted = list(session.scalars(sa.insert(Memory).returning(Memory), rows))
    evidence = [
        {"reflection_id": memory.id, "evidence_id": cited}
        for memory, item in zip(inserted, items, strict=True)
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
