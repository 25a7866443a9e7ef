"""API keys: hashed, never stored in clear; admin, or scoped to one world."""

from __future__ import annotations

import uuid
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from db.models.base import Base, UUIDPk, WallTime


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
