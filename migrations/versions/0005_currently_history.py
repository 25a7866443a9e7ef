"""agents: the history of `currently`; conversations: the line that closed them


`agents.currently_history` keeps every earlier `currently` with the game time it was replaced
(`[{"until": "2023-02-14T06:00:00", "currently": "…"}, …]`, oldest first), so the persona's
status can change each day — an invitation accepted yesterday shows in today's `currently` —
without losing what it said before.

`conversations.last_seq` is set when a line ends the conversation: lines take game time, so
a conversation stays open while its last line is spoken, and no further line is asked for.
`conversations.partner_doing` keeps what the partner was doing when the conversation
interrupted it (its plan is superseded from then on): the partner speaks from it.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24 09:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "agents",
        sa.Column(
            "currently_history",
            postgresql.JSONB(astext_type=sa.Text()),
            server_default=sa.text("'[]'::jsonb"),
            nullable=False,
        ),
    )

    op.add_column("conversations", sa.Column("last_seq", sa.Integer(), nullable=True))
    op.add_column(
        "conversations",
        sa.Column("partner_doing", sa.Text(), server_default="", nullable=False),
    )


def downgrade() -> None:
    op.drop_column("conversations", "partner_doing")
    op.drop_column("conversations", "last_seq")
    op.drop_column("agents", "currently_history")
