"""the job outbox; model calls written before they are made

1. `job_outbox`: jobs a request stages in its own transaction (the task's name, its JSON
   arguments, its key). The API sends them to the broker after the commit and deletes them; a
   broker that is down delays them instead of losing them, and the API's relay and beat's
   `hearth.relay_outbox` send them once it answers again (`db.outbox`).

2. `llm_calls.finished_at`: a call to a model endpoint is written before it is made (NULL: not
   come back yet) and finished after, so a job killed during a call still leaves its row.
   Rows written before this revision were written after their call: they are finished when
   they were written. The `llm_usage` view shows the column last.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03 09:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

LLM_USAGE = """
    SELECT c.id, c.world_id, w.name AS world, c.agent_id, a.name AS agent, c.operation,
           c.model, c.tokens_in, c.tokens_out, c.latency_ms, c.cost_usd,
           (c.error IS NOT NULL) AS failed, c.degraded, c.game_time,
           c.created_at AS called_at{extra}
    FROM llm_calls c
    LEFT JOIN worlds w ON w.id = c.world_id
    LEFT JOIN agents a ON a.id = c.agent_id"""


def upgrade() -> None:
    op.create_table(
        "job_outbox",
        sa.Column("id", sa.BigInteger(), sa.Identity(), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("args", postgresql.JSONB(astext_type=sa.Text()), nullable=False),
        sa.Column("key", sa.String(300), nullable=True),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_job_outbox")),
    )
    op.add_column("llm_calls", sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True))
    op.execute("UPDATE llm_calls SET finished_at = created_at")
    op.execute(f"CREATE OR REPLACE VIEW llm_usage AS {LLM_USAGE.format(extra=', c.finished_at')}")


def downgrade() -> None:
    op.execute("DROP VIEW llm_usage")
    op.execute(f"CREATE VIEW llm_usage AS {LLM_USAGE.format(extra='')}")
    op.execute("GRANT SELECT ON llm_usage TO hearth_analyst")
    op.drop_column("llm_calls", "finished_at")
    op.drop_table("job_outbox")
