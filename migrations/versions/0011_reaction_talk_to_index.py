"""an index for who is already being approached

`ix_reaction_decisions_talk_to` (talk_to, decided_at) over decisions that name someone to talk
to: the reaction gate asks when another agent last decided to go and talk to the person
observed, so a crowd does not line up to greet one agent (`cognition.frugal.reaction_gate`).

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27 05:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index(
        "ix_reaction_decisions_talk_to",
        "reaction_decisions",
        ["talk_to", "decided_at"],
        postgresql_where=sa.text("talk_to IS NOT NULL"),
    )


def downgrade() -> None:
    op.drop_index("ix_reaction_decisions_talk_to", table_name="reaction_decisions")
