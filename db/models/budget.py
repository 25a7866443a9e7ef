"""What each world's model calls spent per budget window (`cognition.budget`)."""

from __future__ import annotations

import uuid
from datetime import datetime
from decimal import Decimal

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from db.models.base import Base


class BudgetSpend(Base):
    """One window of one world: the calls admitted, their cost, and the calls the offline mind
    answered because this window's limit was reached. `window_start` is game time for a game
    day and UTC wall time for an hour (both stored without a zone)."""

    __tablename__ = "budget_spend"
    __table_args__ = (
        sa.CheckConstraint("period IN ('game_day', 'wall_hour')", name="period"),
        sa.CheckConstraint("calls >= 0 AND answered_offline >= 0", name="counts_non_negative"),
    )

    world_id: Mapped[uuid.UUID] = mapped_column(
        sa.ForeignKey("worlds.id", ondelete="CASCADE"), primary_key=True
    )
    period: Mapped[str] = mapped_column(sa.String(16), primary_key=True)
    window_start: Mapped[datetime] = mapped_column(sa.DateTime(timezone=False), primary_key=True)
    calls: Mapped[int] = mapped_column(default=0, server_default="0")
    cost_usd: Mapped[Decimal] = mapped_column(
        sa.Numeric(14, 6), default=Decimal(0), server_default="0"
    )
    answered_offline: Mapped[int] = mapped_column(default=0, server_default="0")
    opened_at: Mapped[datetime] = mapped_column(
        sa.DateTime(timezone=True),
        server_default=sa.func.now(),
        doc="wall time of the window's first call: the next game day's opens an hour later",
    )
