"""An agent: the persona fields of the paper plus the cached summary description."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from db.models.base import Base, UUIDPk, WallTime, world_fk


class Agent(Base):
    """Persona as data; the reflection accumulator and summary cache ride on the same row so
    a perception batch updates them with one statement under the agent's row lock."""

    __tablename__ = "agents"
    __table_args__ = (
        sa.UniqueConstraint("world_id", "name", name="uq_agents_world_name"),
        sa.CheckConstraint("age IS NULL OR age >= 0", name="age_non_negative"),
        sa.CheckConstraint("importance_since_reflection >= 0", name="accumulator_non_negative"),
    )

    id: Mapped[UUIDPk]
    world_id: Mapped[uuid.UUID] = world_fk()
    name: Mapped[str] = mapped_column(sa.String(200))
    age: Mapped[int | None]
    innate: Mapped[str] = mapped_column(sa.Text, default="")
    background: Mapped[str] = mapped_column(sa.Text, default="")
    currently: Mapped[str] = mapped_column(sa.Text, default="")
    currently_history: Mapped[list[dict[str, Any]]] = mapped_column(
        JSONB,
        default=list,
        server_default=sa.text("'[]'::jsonb"),
        doc="earlier `currently` values, oldest first, each with the game time it ended",
    )
    lifestyle: Mapped[str] = mapped_column(sa.Text, default="")
    living_area: Mapped[str] = mapped_column(sa.Text, default="")
    daily_plan_requirement: Mapped[str] = mapped_column(sa.Text, default="")
    speaking_style: Mapped[str] = mapped_column(sa.Text, default="")

    place: Mapped[str | None] = mapped_column(sa.Text, doc="current place path")
    position: Mapped[dict[str, Any] | None] = mapped_column(doc="game coordinates, opaque")

    summary: Mapped[str | None] = mapped_column(sa.Text)
    summary_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=False))
    memories_at_summary: Mapped[int] = mapped_column(default=0)

    importance_since_reflection: Mapped[int] = mapped_column(default=0)
    reflections_done: Mapped[int] = mapped_column(default=0)

    in_focus: Mapped[bool] = mapped_column(
        default=False,
        server_default=sa.false(),
        doc="the game marked it in focus (near the player, in a scene): sticky until changed",
    )

    planned_day: Mapped[date | None] = mapped_column(doc="the last game day given an outline")
    current_plan_id: Mapped[int | None] = mapped_column(
        sa.BigInteger, doc="the plan leaf last announced as action_changed"
    )

    created_at: Mapped[WallTime]
