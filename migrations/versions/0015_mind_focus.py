"""agents in focus, and the focus each model call was made in (issue 22, mind level of detail)

`agents.in_focus`: the game marks which agents are in focus (near the player, in a scene) — in
a step or by updating the agent — and it stays so until changed; a world whose `mind_focus`
setting is `focused` thinks with the model for those agents only. `llm_calls.focus`: whether a
call was made for agents in focus (`focused`), out of it (`unfocused`), or for none (NULL, and
every call made before this revision), so usage splits by focus. The `llm_usage` view shows the
column last.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-27 22:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

LLM_USAGE = """
    SELECT c.id, c.world_id, w.name AS world, c.agent_id, a.name AS agent, c.operation,
           c.model, c.tokens_in, c.tokens_out, c.latency_ms, c.cost_usd,
           (c.error IS NOT NULL) AS failed, c.degraded, c.game_time,
           c.created_at AS called_at, c.finished_at{extra}
    FROM llm_calls c
    LEFT JOIN worlds w ON w.id = c.world_id
    LEFT JOIN agents a ON a.id = c.agent_id"""


def upgrade() -> None:
    op.add_column(
        "agents",
        sa.Column("in_focus", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.add_column("llm_calls", sa.Column("focus", sa.String(16), nullable=True))
    op.create_check_constraint(
        op.f("ck_llm_calls_focus_known"), "llm_calls", "focus IN ('focused', 'unfocused')"
    )
    op.execute(f"CREATE OR REPLACE VIEW llm_usage AS {LLM_USAGE.format(extra=', c.focus')}")


def downgrade() -> None:
    op.execute("DROP VIEW llm_usage")
    op.execute(f"CREATE VIEW llm_usage AS {LLM_USAGE.format(extra='')}")
    op.execute("GRANT SELECT ON llm_usage TO hearth_analyst")
    op.drop_constraint(op.f("ck_llm_calls_focus_known"), "llm_calls", type_="check")
    op.drop_column("llm_calls", "focus")
    op.drop_column("agents", "in_focus")
