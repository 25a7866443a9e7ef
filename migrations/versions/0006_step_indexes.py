"""step: the latest observation of a subject, and the lines being said now, by index

The step path asks, for every (agent, subject) a game reports, the state of the agent's latest
observation of that subject (a repeat is not stored again), and the line each of its agents
is saying or hearing now (said within a line's time). Without these indexes both reads scan
the agents' whole history, which grows all game day: the partial b-tree on (agent_id,
subject, created_at DESC, id DESC) of observations answers each pair with one probe (`object`
included, for index-only reads), and the b-tree on `utterances.spoken_at` reads only the
lines of the last moments.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24 09:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index(
        "ix_memories_agent_subject_latest",
        "memories",
        ["agent_id", "subject", sa.text("created_at DESC"), sa.text("id DESC")],
        postgresql_include=["object"],
        postgresql_where=sa.text("kind = 'observation' AND subject IS NOT NULL"),
    )
    op.create_index("ix_utterances_spoken_at", "utterances", ["spoken_at"])


def downgrade() -> None:
    op.drop_index("ix_utterances_spoken_at", table_name="utterances")
    op.drop_index("ix_memories_agent_subject_latest", table_name="memories")
