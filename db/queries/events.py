"""The per-world event log behind `GET /v1/worlds/{id}/events` (Server-Sent Events).

An event is a row written in the caller's transaction, so it exists exactly when the change it
reports was committed. Readers page by id; for "resume after id N" to lose nothing, ids of one
world must become visible in id order. Sequences do not promise that (a transaction can take
id 10, another id 11 and commit first), so `emit` takes a per-world transaction-scoped
advisory lock before taking an id: event-writing transactions of one world commit one after
another from their first `emit` on. Emit last, just before the commit, to keep that short.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from db.models import Event

EVENTS_LOCK_CLASS = 0x4845  # "HE": the advisory-lock namespace for per-world event ordering
DEFAULT_BATCH = 500


def emit(session: Session, *, world_id: uuid.UUID, type: str, payload: dict[str, Any]) -> None:
    """Append an event; it becomes visible when the caller commits (never on its own)."""
    session.execute(
        sa.text("SELECT pg_advisory_xact_lock(CAST(:cls AS integer), hashtext(:world))"),
        {"cls": EVENTS_LOCK_CLASS, "world": str(world_id)},
    )
    session.add(Event(world_id=world_id, type=type, payload=payload))
    session.flush()


def emit_many(
    session: Session, *, world_id: uuid.UUID, type: str, payloads: Sequence[dict[str, Any]]
) -> None:
    """`emit` for many events of one type at once: one lock, one INSERT."""
    if not payloads:
        return
    session.execute(
        sa.text("SELECT pg_advisory_xact_lock(CAST(:cls AS integer), hashtext(:world))"),
        {"cls": EVENTS_LOCK_CLASS, "world": str(world_id)},
    )
    session.execute(
        sa.insert(Event), [{"world_id": world_id, "type": type, "payload": p} for p in payloads]
    )


def events_after(
    session: Session, *, world_id: uuid.UUID, after: int, limit: int = DEFAULT_BATCH
) -> list[Event]:
    """The next committed events of a world after id `after`, in id order."""
    query = (
        sa.select(Event)
        .where(Event.world_id == world_id, Event.id > after)
        .order_by(Event.id)
        .limit(limit)
    )
    return list(session.scalars(query))


def last_event_id(session: Session, *, world_id: uuid.UUID) -> int:
    """The newest committed event id of a world (0 before any): a reader that takes it before
    reading state, then streams after it, misses no change made after that state."""
    query = sa.select(sa.func.max(Event.id)).where(Event.world_id == world_id)
    return int(session.scalar(query) or 0)
