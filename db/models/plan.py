"""Plans: the paper's three-level tree (day outline → hour chunks → 5–15 minute tasks)."""

from __future__ import annotations

import uuid
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.ext.hybrid import hybrid_property
from sqlalchemy.orm import Mapped, mapped_column

from cognition.types import span_end
from db.models.base import Base, BigPk, GameTime, WallTime, agent_fk

PLAN_LEVELS = ("day", "hour", "task")
PLAN_STATUSES = ("planned", "active", "done", "superseded")


class Plan(Base):
    """A node; a re-plan marks the rest `superseded` and points at its replacement, never
    deleting, so a game and an analyst can see what was planned and why it changed."""

    __tablename__ = "plans"
    __table_args__ = (
        sa.CheckConstraint("level IN ('day', 'hour', 'task')", name="level"),
        sa.CheckConstraint("status IN ('planned', 'active', 'done', 'superseded')", name="status"),
        sa.CheckConstraint("duration_min > 0", name="duration_positive"),
        sa.CheckConstraint("(level = 'day') = (parent_id IS NULL)", name="only_days_are_roots"),
        sa.CheckConstraint("superseded_by IS NULL OR status = 'superseded'", name="superseded"),
        sa.Index("ix_plans_agent_level_start", "agent_id", "level", "start"),
    )

    id: Mapped[BigPk]
    agent_id: Mapped[uuid.UUID] = agent_fk(index=False)
    parent_id: Mapped[int | None] = mapped_column(
        sa.ForeignKey("plans.id", ondelete="CASCADE"), index=True
    )
    level: Mapped[str] = mapped_column(sa.String(8))
    start: Mapped[GameTime]
    duration_min: Mapped[int]
    location: Mapped[str | None] = mapped_column(sa.Text)
    description: Mapped[str] = mapped_column(sa.Text)
    emoji: Mapped[str | None] = mapped_column(sa.String(16))
    object_state: Mapped[str | None] = mapped_column(sa.Text)
    status: Mapped[str] = mapped_column(sa.String(16), default="planned")
    superseded_by: Mapped[int | None] = mapped_column(
        sa.ForeignKey("plans.id", ondelete="SET NULL")
    )
    memory_id: Mapped[int | None] = mapped_column(sa.ForeignKey("memories.id", ondelete="SET NULL"))
    created_at: Mapped[WallTime]
    decided_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=False))
    stand_in: Mapped[bool] = mapped_column(default=False, server_default=sa.false())
    """Written by the offline mind at once while a slow model plans (migration 0014); the
    model's plan supersedes what of it was not lived (`plan_writes.replace_stand_ins`)."""

    @hybrid_property
    def end(self) -> datetime:
        """When the step ends, in Python and in SQL alike (`cognition.types.span_end`)."""
        return span_end(self.start, self.duration_min)

    @end.inplace.expression
    @classmethod
    def _end_expression(cls) -> sa.ColumnElement[datetime]:
        return cls.start + sa.func.make_interval(0, 0, 0, 0, 0, cls.duration_min)
