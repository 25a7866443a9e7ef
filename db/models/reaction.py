"""React-or-continue decisions, kept so a game (and an analyst) can see why an agent acted."""

from __future__ import annotations

import uuid

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from db.models.base import Base, BigPk, GameTime, WallTime, agent_fk


class ReactionDecision(Base):
    """One decision per (agent, observation): a redelivered job finds it and does nothing."""

    __tablename__ = "reaction_decisions"
    __table_args__ = (
        sa.UniqueConstraint("agent_id", "memory_id", name="uq_reaction_decisions_agent_memory"),
        # who is already being approached (`db.queries.reactions.gate_facts`)
        sa.Index(
            "ix_reaction_decisions_talk_to",
            "talk_to",
            "decided_at",
            postgresql_where=sa.text("talk_to IS NOT NULL"),
        ),
    )

    id: Mapped[BigPk]
    agent_id: Mapped[uuid.UUID] = agent_fk(index=False)
    memory_id: Mapped[int] = mapped_column(sa.ForeignKey("memories.id", ondelete="CASCADE"))
    react: Mapped[bool]
    what: Mapped[str] = mapped_column(sa.Text, default="")
    talk_to: Mapped[str | None] = mapped_column(sa.String(200))
    reason: Mapped[str] = mapped_column(sa.Text, default="")
    context: Mapped[str] = mapped_column(sa.Text, default="", server_default="")
    asked_mind: Mapped[bool] = mapped_column(default=True, server_default=sa.true())
    decided_at: Mapped[GameTime]
    created_at: Mapped[WallTime]
