"""what a memory's text says, as fields

`memories.detail` (JSONB, issue 20): the line an utterance records (speaker, listener, quote)
and the news a memory carries (each fact's kind, what, who, place, day, time, who is welcome,
weight, source), read once when the memory is written or enriched and read back from here
afterwards. NULL until read; existing memories are read by the enrichment sweep as they are
next enriched, or left NULL (the offline mind then reads their words, as before).

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-27 22:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("memories", sa.Column("detail", postgresql.JSONB(), nullable=True))


def downgrade() -> None:
    op.drop_column("memories", "detail")
