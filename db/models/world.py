"""A world: one game instance, the unit of tenancy, with its own game clock."""

from __future__ import annotations

import uuid
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


class ApiKey(Base):
    """A hashed API key: admin (no world) or scoped to one world. The clear key is shown once."""

    __tablename__ = "api_keys"
    __table_args__ = (
        sa.CheckConstraint("scope IN ('admin', 'world')", name="scope"),
        sa.CheckConstraint("(scope = 'admin') = (world_id IS NULL)", name="scope_matches_world"),
    )

    id: Mapped[UUIDPk]
    world_id: Mapped[uuid.UUID | None] = mapped_column(
        sa.ForeignKey("worlds.id", ondelete="CASCADE"), index=True
    )
    scope: Mapped[str] = mapped_column(sa.String(16))
    prefix: Mapped[str] = mapped_column(sa.String(16))
    key_hash: Mapped[str] = mapped_column(sa.String(64), unique=True)
    name: Mapped[str] = mapped_column(sa.String(200), default="")
    created_at: Mapped[WallTime]
    revoked_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True))
