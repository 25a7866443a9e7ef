"""retrieval: the stored embedding norm and the indexes of the exact fast path

`embedding_norm` lets the float32 pass of db/retrieval/in_sql.py bound its relevance estimate
rigorously. The b-trees answer in a few index probes, per kind, the exact minimum and maximum
of recency and importance (for normalisation) and the extreme dimensions and norms of an
agent's vectors (whether the pass may skip its per-row checks). A covering index keeps each
agent's vectors contiguous in (importance, last access) order for the pass, the probe and the
repair; a small partial index lists the memories not embedded yet; extended statistics tell the
planner how many vectors the covering index holds.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23 12:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

COVERED_DIMENSIONS = 640
"""Frozen here (not imported from the model) so that the revision never changes once released:
a b-tree entry holds at most 2704 bytes and a 640-d float32 vector takes 2568."""

INDEXES: dict[str, dict[str, object]] = {
    "ix_memories_agent_kind_accessed": {"columns": ["agent_id", "kind", "last_accessed_at"]},
    "ix_memories_agent_kind_importance": {
        "columns": ["agent_id", "kind", "importance", "last_accessed_at"]
    },
    "ix_memories_agent_vector": {
        "columns": ["agent_id", sa.text("vector_dims(embedding)"), "embedding_norm"],
        "postgresql_where": sa.text("embedding IS NOT NULL"),
    },
    "ix_memories_agent_vectors": {
        "columns": ["agent_id", "importance", "last_accessed_at"],
        "postgresql_include": ["id", "kind", "embedding_norm", "embedding"],
        "postgresql_where": sa.text(
            f"embedding IS NOT NULL AND vector_dims(embedding) <= {COVERED_DIMENSIONS}"
        ),
    },
    "ix_memories_agent_unembedded": {
        "columns": ["agent_id", "importance", "last_accessed_at"],
        "postgresql_where": sa.text("embedding IS NULL"),
    },
}


STATISTICS = "st_memories_vector_dims"
"""Planner statistics on vector_dims(embedding): without them it guesses that a third of the
vectors fit the covering index, and plans the pass for a third of the rows."""


def upgrade() -> None:
    op.add_column(
        "memories",
        sa.Column(
            "embedding_norm",
            sa.Double(),
            sa.Computed("vector_norm(embedding)", persisted=True),
            nullable=True,
        ),
    )
    for name, spec in INDEXES.items():
        options = {key: value for key, value in spec.items() if key != "columns"}
        op.create_index(name, "memories", spec["columns"], unique=False, **options)  # type: ignore[arg-type]
    op.execute(f"CREATE STATISTICS {STATISTICS} ON (vector_dims(embedding)) FROM memories")


def downgrade() -> None:
    op.execute(f"DROP STATISTICS IF EXISTS {STATISTICS}")
    for name in reversed(INDEXES):
        op.drop_index(name, table_name="memories")
    op.drop_column("memories", "embedding_norm")
