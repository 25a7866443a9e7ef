"""A world: one game instance, the unit of tenancy, with its own game clock."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from db.models.base import Base, GameTime, UUIDPk, WallTime

DEFAULT_CLOCK_RATE = 60.0
"""Game seconds per wall second of a running clock: a game minute per real second."""


class World(Base):
    """The clock reads `game_time + rate × (wall now − clock_anchor)` while running, else
    `game_time`; setting or advancing it moves `game_time` and the anchor together."""

    __tablename__ = "worlds"
    __table_args__ = (
        sa.CheckConstraint("clock_mode IN ('driven', 'running')", name="clock_mode"),
        sa.CheckConstraint("clock_rate > 0", name="clock_rate_positive"),
    )

    id: Mapped[UUIDPk]
    name: Mapped[str] = mapped_column(sa.String(200))
    clock_mode: Mapped[str] = mapped_column(sa.String(16), default="driven")
    clock_rate: Mapped[float] = mapped_column(default=DEFAULT_CLOCK_RATE)
    game_time: Mapped[GameTime]
    clock_anchor: Mapped[datetime] = mapped_column(
        sa.DateTime(timezone=True), server_default=sa.func.now()
    )
    paused: Mapped[bool] = mapped_column(default=False)
    settings: Mapped[dict[str, Any]] = mapped_column(default=dict)
    created_at: Mapped[WallTime]
