"""The per-world event log behind Server-Sent Events and request idempotency."""

from __future__ import annotations

import uuid
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from db.models.base import Base, BigPk, WallTime, world_fk


class Event(Base):
    """An outbox row: its id is the SSE event id, so `Last-Event-ID` resumes without loss."""

    __tablename__ = "events"
    __table_args__ = (sa.Index("ix_events_world_id", "world_id", "id"),)

    id: Mapped[BigPk]
    world_id: Mapped[uuid.UUID] = mapped_column(sa.ForeignKey("worlds.id", ondelete="CASCADE"))
    type: Mapped[str] = mapped_column(sa.String(64))
    payload: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[WallTime]


class IdempotencyKey(Base):
    """The first answer to a create; a retried request with the same key gets it back unchanged."""

    __tablename__ = "idempotency_keys"
    __table_args__ = (sa.UniqueConstraint("scope", "key", name="uq_idempotency_keys_scope_key"),)

    id: Mapped[BigPk]
    scope: Mapped[str] = mapped_column(sa.String(300), doc="the calling API key's id")
    key: Mapped[str] = mapped_column(sa.String(200))
    method: Mapped[str] = mapped_column(sa.String(10), server_default="", doc="of the first use")
    path: Mapped[str] = mapped_column(sa.String(1000), server_default="", doc="of the first use")
    request_hash: Mapped[str] = mapped_column(sa.String(64))
    status_code: Mapped[int]
    response: Mapped[dict[str, Any]] = mapped_column(default=dict)
    world_id: Mapped[uuid.UUID | None] = world_fk()
    created_at: Mapped[WallTime]
