"""The memory stream: every perception, thought, plan and utterance of an agent."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from pgvector.sqlalchemy import Vector
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import Mapped, mapped_column

from db.models.base import Base, BigPk, GameTime, WallTime, agent_fk, world_fk

MEMORY_KINDS = ("observation", "reflection", "plan", "utterance", "seed", "directive")
MEMORY_SOURCES = ("game", "player", "agent", "admin", "system")
COVERED_DIMENSIONS = 640
"""Vectors up to this many dimensions are copied into `ix_memories_agent_vectors`: a b-tree
entry holds at most 2704 bytes (a third of a page) and a 640-dimension float32 vector takes
2568 with its header, leaving room for the other included columns. Larger spaces (1536-d…) are
read from the heap instead; their inserts never touch the index."""


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


class Memory(Base):
    """One record. `embedding` has no fixed dimension in the schema: the embedding space in use
    is recorded in `embedding_spaces`, so changing embedder is a re-embed, not a migration."""

    __tablename__ = "memories"
    __table_args__ = (
        sa.CheckConstraint(_in("kind", MEMORY_KINDS), name="kind"),
        sa.CheckConstraint(_in("source", MEMORY_SOURCES), name="source"),
        sa.CheckConstraint("importance BETWEEN 1 AND 10", name="importance_range"),
        sa.CheckConstraint("(kind = 'reflection') = (depth > 0)", name="depth_by_kind"),
        sa.Index(
            "ix_memories_agent_created", "agent_id", sa.text("created_at DESC"), sa.text("id DESC")
        ),
        sa.Index("ix_memories_agent_accessed", "agent_id", sa.text("last_accessed_at DESC")),
        sa.Index("ix_memories_agent_importance", "agent_id", sa.text("importance DESC")),
        sa.Index(
            "ix_memories_unenriched",
            "agent_id",
            "id",
            postgresql_where=sa.text("embedding IS NULL OR NOT importance_scored"),
        ),
        sa.Index("ix_memories_content_hash", "content_hash"),
        # Retrieval (db/retrieval/): exact per-kind extremes of recency and
        # importance; extreme vector dimensions and norms (may the pass skip per-row checks);
        # the covering index the pass, the probe and the repair read an agent's vectors from,
        # contiguous (the heap interleaves every agent of a world), in (importance, recency)
        # order; the few memories still awaiting their embedding.
        sa.Index("ix_memories_agent_kind_accessed", "agent_id", "kind", "last_accessed_at"),
        sa.Index(
            "ix_memories_agent_kind_importance",
            "agent_id",
            "kind",
            "importance",
            "last_accessed_at",
        ),
        sa.Index(
            "ix_memories_agent_vector",
            "agent_id",
            sa.func.vector_dims(sa.column("embedding")),
            "embedding_norm",
            postgresql_where=sa.text("embedding IS NOT NULL"),
        ),
        sa.Index(
            "ix_memories_agent_vectors",
            "agent_id",
            "importance",
            "last_accessed_at",
            postgresql_include=["id", "kind", "embedding_norm", "embedding"],
            postgresql_where=sa.text(
                f"embedding IS NOT NULL AND vector_dims(embedding) <= {COVERED_DIMENSIONS}"
            ),
        ),
        sa.Index(
            "ix_memories_agent_unembedded",
            "agent_id",
            "importance",
            "last_accessed_at",
            postgresql_where=sa.text("embedding IS NULL"),
        ),
        # The rows an agent's in-memory copy must re-read (db/retrieval/vector_cache.py).
        sa.Index("ix_memories_agent_changed", "agent_id", "changed_xid"),
        # The step path: the state of an agent's latest observation of a subject.
        sa.Index(
            "ix_memories_agent_subject_latest",
            "agent_id",
            "subject",
            sa.text("created_at DESC"),
            sa.text("id DESC"),
            postgresql_include=["object"],
            postgresql_where=sa.text("kind = 'observation' AND subject IS NOT NULL"),
        ),
    )

    id: Mapped[BigPk]
    world_id: Mapped[uuid.UUID] = world_fk()
    agent_id: Mapped[uuid.UUID] = agent_fk(index=False)
    kind: Mapped[str] = mapped_column(sa.String(16), default="observation")
    description: Mapped[str] = mapped_column(sa.Text)
    subject: Mapped[str | None] = mapped_column(sa.Text)
    predicate: Mapped[str | None] = mapped_column(sa.Text)
    object: Mapped[str | None] = mapped_column(sa.Text)
    created_at: Mapped[GameTime]
    last_accessed_at: Mapped[GameTime]
    inserted_at: Mapped[WallTime]
    importance: Mapped[int] = mapped_column(sa.SmallInteger)
    importance_scored: Mapped[bool] = mapped_column(default=False)
    embedding: Mapped[list[float] | None] = mapped_column(Vector())
    embedding_norm: Mapped[float | None] = mapped_column(
        sa.Double,
        sa.Computed("vector_norm(embedding)", persisted=True),
        doc="|embedding| in float64, kept by PostgreSQL: retrieval's float32 pass divides by it "
        "and trusts its error bound only for norms in a safe range",
    )
    content_hash: Mapped[str] = mapped_column(sa.String(64))
    depth: Mapped[int] = mapped_column(sa.SmallInteger, default=0)
    source: Mapped[str] = mapped_column(sa.String(16), default="game")
    detail: Mapped[dict[str, Any] | None] = mapped_column(
        JSONB(none_as_null=True),
        doc="what the text says, as fields (`db.memory_detail`): the line said, the news "
        "carried; NULL until read",
    )
    changed_xid: Mapped[int] = mapped_column(
        sa.BigInteger,
        server_default=sa.text("(pg_current_xact_id()::text)::bigint"),
        doc="the transaction that inserted or last updated the row (an update trigger keeps "
        "it, migration 0004): what an in-memory copy of the agent's rows re-reads",
    )


class MemoryEvidence(Base):
    """A reflection cites a memory. Reflection trees are walked with recursive CTEs."""

    __tablename__ = "memory_evidence"
    __table_args__ = (sa.CheckConstraint("reflection_id <> evidence_id", name="no_self_citation"),)

    reflection_id: Mapped[int] = mapped_column(
        sa.ForeignKey("memories.id", ondelete="CASCADE"), primary_key=True
    )
    evidence_id: Mapped[int] = mapped_column(
        sa.ForeignKey("memories.id", ondelete="CASCADE"), primary_key=True, index=True
    )


class EmbeddingSpace(Base):
    """The one embedding space the stored vectors live in; starting with another refuses."""

    __tablename__ = "embedding_spaces"
    __table_args__ = (sa.CheckConstraint("id = 1", name="single_row"),)

    id: Mapped[int] = mapped_column(primary_key=True, default=1)
    provider: Mapped[str] = mapped_column(sa.String(64))
    model: Mapped[str] = mapped_column(sa.String(200))
    dimension: Mapped[int]
    created_at: Mapped[WallTime]
    reembed_target: Mapped[str | None] = mapped_column(
        sa.Text, doc="provider|model|dimension of an unfinished re-embed, for resuming"
    )
    reembed_through_id: Mapped[int | None] = mapped_column(sa.BigInteger)


class ReflectionRun(Base):
    """One reflection per threshold crossing: the unique (agent, seq) is claimed before the model
    is called, so a redelivered or concurrent job finds it taken."""

    __tablename__ = "reflection_runs"
    __table_args__ = (
        sa.UniqueConstraint("agent_id", "seq", name="uq_reflection_runs_agent_seq"),
        sa.CheckConstraint("status IN ('running', 'done')", name="status"),
    )

    id: Mapped[BigPk]
    agent_id: Mapped[uuid.UUID] = agent_fk(index=False)
    seq: Mapped[int]
    through_memory_id: Mapped[int] = mapped_column(sa.BigInteger)
    status: Mapped[str] = mapped_column(sa.String(16), default="running")
    started_at: Mapped[WallTime]
    finished_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True))
