"""plans the offline mind made to stand in while a model plans (issue 24)

`plans.stand_in`: true for an outline or a decomposition the offline mind wrote at once
because the configured model is slow (30–400 s a call on a CPU), so the agent has a current
action while the model thinks; the model's plan supersedes what of it had not been lived yet
(`db.queries.plan_writes.replace_stand_ins`). The analysts' `plan_tree` view shows it last.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-27 22:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

ANALYST_ROLE = "hearth_analyst"
PLAN_TREE = """
        WITH RECURSIVE tree AS (
            SELECT p.id, p.id AS day_id, 0 AS tree_depth,
                   to_char(p.start, 'YYYY-MM-DD HH24:MI:SS') || '#' || lpad(p.id::text, 19, '0')
                       AS sort_key
            FROM plans p WHERE p.parent_id IS NULL
            UNION ALL
            SELECT c.id, t.day_id, t.tree_depth + 1,
                   t.sort_key || '/' || to_char(c.start, 'YYYY-MM-DD HH24:MI:SS') || '#'
                       || lpad(c.id::text, 19, '0')
            FROM plans c JOIN tree t ON c.parent_id = t.id
        )
        SELECT p.id, p.parent_id, t.day_id, p.agent_id, a.name AS agent, a.world_id, p.level,
               t.tree_depth, p.start, p.duration_min,
               p.start + make_interval(mins => p.duration_min) AS finish, p.location,
               p.description, p.emoji, p.object_state, p.status, p.superseded_by, t.sort_key{extra}
        FROM tree t
        JOIN plans p ON p.id = t.id
        JOIN agents a ON a.id = p.agent_id"""


def upgrade() -> None:
    op.add_column(
        "plans", sa.Column("stand_in", sa.Boolean(), server_default=sa.false(), nullable=False)
    )
    op.execute(f"CREATE OR REPLACE VIEW plan_tree AS {PLAN_TREE.format(extra=', p.stand_in')}")


def downgrade() -> None:
    op.execute("DROP VIEW plan_tree")  # a view cannot lose a column in place
    op.execute(f"CREATE VIEW plan_tree AS {PLAN_TREE.format(extra='')}")
    op.execute(f"GRANT SELECT ON plan_tree TO {ANALYST_ROLE}")
    op.drop_column("plans", "stand_in")
