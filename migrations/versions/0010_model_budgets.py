"""model budgets: what each world's model calls spent per game day and per wall hour

A world's budget is set in its settings (`settings.budget`, or `HEARTH_MODEL_BUDGET` for worlds
without one). `budget_spend` keeps one row per world and window: the calls admitted (counted
before each call, under the row's lock, so several processes never admit more than the
limit), their cost, and how many calls the offline mind answered because the limit was
reached. `window_start` is game time for a game day and UTC for a wall hour.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03 09:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "budget_spend",
        sa.Column("world_id", sa.Uuid(), nullable=False),
        sa.Column("period", sa.String(16), nullable=False),
        sa.Column("window_start", sa.DateTime(timezone=False), nullable=False),
        sa.Column("calls", sa.Integer(), server_default="0", nullable=False),
        sa.Column("cost_usd", sa.Numeric(14, 6), server_default="0", nullable=False),
        sa.Column("answered_offline", sa.Integer(), server_default="0", nullable=False),
        sa.CheckConstraint(
            "period IN ('game_day', 'wall_hour')", name=op.f("ck_budget_spend_period")
        ),
        sa.CheckConstraint(
            "calls >= 0 AND answered_offline >= 0",
            name=op.f("ck_budget_spend_counts_non_negative"),
        ),
        sa.ForeignKeyConstraint(
            ["world_id"],
            ["worlds.id"],
            name=op.f("fk_budget_spend_world_id_worlds"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("world_id", "period", "window_start", name=op.f("pk_budget_spend")),
    )


def downgrade() -> None:
    op.drop_table("budget_spend")
