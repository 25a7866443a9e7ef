"""when each budget window opened (wall time)

`budget_spend.opened_at`: a game-day window opens no sooner than an hour of wall time after the
world's previous one (`cognition.budget.MIN_GAME_DAY_WALL`), so a world's key that jumps its
clock a day ahead cannot start a fresh budget window (issue 21). Existing rows get the
migration's time.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27 19:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "budget_spend",
        sa.Column(
            "opened_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()
        ),
    )


def downgrade() -> None:
    op.drop_column("budget_spend", "opened_at")
