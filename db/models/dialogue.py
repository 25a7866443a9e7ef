"""Conversations (agent↔agent, player↔agent), their utterances, and relationships."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from db.models.base import Base, BigPk, GameTime, agent_fk, world_fk


class Conversation(Base):
    """Opened by an agent's reaction or a player's chat; the partner is an agent or a player."""

    __tablename__ = "conversations"
    __table_args__ = (
        sa.CheckConstraint(
            "(partner_agent_id IS NULL) <> (partner_player IS NULL)", name="one_partner"
        ),
        sa.CheckConstraint("status IN ('open', 'ended')", name="status"),
    )

    id: Mapped[BigPk]
    world_id: Mapped[uuid.UUID] = world_fk()
    initiator_id: Mapped[uuid.UUID] = agent_fk()
    partner_agent_id: Mapped[uuid.UUID | None] = mapped_column(
        sa.ForeignKey("agents.id", ondelete="CASCADE"), index=True
    )
    partner_player: Mapped[str | None] = mapped_column(sa.String(200))
    topic: Mapped[str] = mapped_column(sa.Text, default="")
    status: Mapped[str] = mapped_column(sa.String(8), default="open")
    started_at: Mapped[GameTime]
    ended_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=False))
    decision_id: Mapped[int | None] = mapped_column(
        sa.BigInteger,
        sa.ForeignKey("reaction_decisions.id", ondelete="SET NULL"),
        unique=True,
        doc="the reaction that opened it: a redelivered job finds this conversation",
    )
    last_seq: Mapped[int | None] = mapped_column(
        doc="the line that closed it, once said: no line comes after it",
    )
    partner_doing: Mapped[str] = mapped_column(
        sa.Text, default="", server_default="", doc="what the partner was doing when interrupted"
    )


class Utterance(Base):
    """One turn; it is also written as a memory for every participating agent."""

    __tablename__ = "utterances"
    __table_args__ = (
        sa.UniqueConstraint("conversation_id", "seq", name="uq_utterances_conversation_seq"),
        sa.CheckConstraint(
            "(speaker_agent_id IS NULL) <> (speaker_player IS NULL)", name="one_speaker"
        ),
        # The step path reads the lines said in the last moments of game time.
        sa.Index("ix_utterances_spoken_at", "spoken_at"),
    )

    id: Mapped[BigPk]
    conversation_id: Mapped[int] = mapped_column(
        sa.ForeignKey("conversations.id", ondelete="CASCADE")
    )
    seq: Mapped[int]
    speaker_agent_id: Mapped[uuid.UUID | None] = mapped_column(
        sa.ForeignKey("agents.id", ondelete="CASCADE"), index=True
    )
    speaker_player: Mapped[str | None] = mapped_column(sa.String(200))
    text: Mapped[str] = mapped_column(sa.Text)
    spoken_at: Mapped[GameTime]


class Relationship(Base):
    """How an agent sees another agent or a player now; `history` keeps the earlier views."""

    __tablename__ = "relationships"
    __table_args__ = (
        sa.UniqueConstraint("agent_id", "other_name", name="uq_relationships_agent_other"),
        sa.CheckConstraint("sentiment BETWEEN 0 AND 10", name="sentiment_range"),
    )

    id: Mapped[BigPk]
    agent_id: Mapped[uuid.UUID] = agent_fk(index=False)
    other_agent_id: Mapped[uuid.UUID | None] = mapped_column(
        sa.ForeignKey("agents.id", ondelete="CASCADE"), index=True
    )
    other_name: Mapped[str] = mapped_column(sa.String(200))
    summary: Mapped[str] = mapped_column(sa.Text, default="")
    sentiment: Mapped[int] = mapped_column(sa.SmallInteger, default=5)
    history: Mapped[list[Any]] = mapped_column(default=list)
    updated_at: Mapped[GameTime]
    formed_at: Mapped[datetime | None] = mapped_column(
        sa.DateTime(timezone=False),
        doc="game time the relationship was first recorded: when the edge joined the network",
    )
