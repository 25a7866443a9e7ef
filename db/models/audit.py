"""Every model call, LLM or offline, with its cost: what an operator reads to trust the bill.

A call to a model endpoint is written before it is made (`finished_at` NULL) and finished after,
so a job killed during a call still leaves its row (`db.audit`)."""

from __future__ import annotations

import uuid
from datetime import datetime
from decimal import Decimal

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from db.models.base import Base, BigPk, WallTime, agent_fk


class LlmCall(Base):
    __tablename__ = "llm_calls"
    __table_args__ = (
        sa.CheckConstraint("tokens_in >= 0 AND tokens_out >= 0", name="tokens_non_negative"),
        sa.CheckConstraint("focus IN ('focused', 'unfocused')", name="focus_known"),
        sa.Index("ix_llm_calls_world_created", "world_id", "created_at"),
    )

    id: Mapped[BigPk]
    world_id: Mapped[uuid.UUID | None] = mapped_column(
        sa.ForeignKey("worlds.id", ondelete="CASCADE")
    )
    agent_id: Mapped[uuid.UUID | None] = agent_fk(nullable=True)
    operation: Mapped[str] = mapped_column(sa.String(64))
    model: Mapped[str] = mapped_column(sa.String(200))
    tokens_in: Mapped[int] = mapped_column(default=0)
    tokens_out: Mapped[int] = mapped_column(default=0)
    latency_ms: Mapped[float] = mapped_column(default=0.0)
    cost_usd: Mapped[Decimal] = mapped_column(sa.Numeric(12, 6), default=Decimal(0))
    error: Mapped[str | None] = mapped_column(sa.Text)
    degraded: Mapped[bool] = mapped_column(default=False)
    prompt: Mapped[str | None] = mapped_column(sa.Text)
    response: Mapped[str | None] = mapped_column(sa.Text)
    game_time: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=False))
    focus: Mapped[str | None] = mapped_column(
        sa.String(16),
        doc="made for agents in focus (focused), out of it (unfocused), or none (NULL)",
    )
    created_at: Mapped[WallTime]
    finished_at: Mapped[datetime | None] = mapped_column(
        sa.DateTime(timezone=True),
        doc="when the call came back; NULL: still in flight, or its process died during it",
    )
