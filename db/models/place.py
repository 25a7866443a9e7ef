"""The environment tree (world → area → sub-area → object) and what each agent knows of it."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from db.models.base import Base, BigPk, world_fk


class Place(Base):
    """A node addressed by its path ("Hobbs Cafe: counter: coffee machine")."""

    __tablename__ = "places"
    __table_args__ = (
        sa.UniqueConstraint("world_id", "path", name="uq_places_world_path"),
        sa.CheckConstraint("depth >= 0", name="depth_non_negative"),
    )

    id: Mapped[BigPk]
    world_id: Mapped[uuid.UUID] = world_fk()
    parent_id: Mapped[int | None] = mapped_column(
        sa.ForeignKey("places.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(sa.String(200))
    path: Mapped[str] = mapped_column(sa.Text)
    depth: Mapped[int] = mapped_column(sa.SmallInteger, default=0)
    state: Mapped[str] = mapped_column(sa.Text, default="idle")
    norms: Mapped[dict[str, Any]] = mapped_column(default=dict)


class AgentPlace(Base):
    """A place an agent knows, with the state it last saw there (its own view of the world)."""

    __tablename__ = "agent_places"

    agent_id: Mapped[uuid.UUID] = mapped_column(
        sa.ForeignKey("agents.id", ondelete="CASCADE"), primary_key=True
    )
    place_id: Mapped[int] = mapped_column(
        sa.ForeignKey("places.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    seen_state: Mapped[str | None] = mapped_column(sa.Text)
    seen_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=False))
