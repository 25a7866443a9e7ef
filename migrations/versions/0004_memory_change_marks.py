"""retrieval: mark each memory row with the transaction that last wrote it

`memories.changed_xid` is the id of the transaction that inserted or last updated the row (a
column default on insert, a trigger on update). A process that keeps an agent's rows in memory
(`db/retrieval/vector_cache.py`) re-reads only the rows marked at or after the oldest
transaction that was still running when it last read (`pg_snapshot_xmin`): every later commit
carries such a mark, whatever order transactions commit in. The b-tree on (agent_id,
changed_xid) makes that read a range scan of the few rows written since.

The column is added with the constant 0 (no table rewrite; a cache loads every row the first
time anyway) and then given its real default.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25 09:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

CURRENT_XID = "(pg_current_xact_id()::text)::bigint"

MARK_FUNCTION = f"""
CREATE FUNCTION memories_mark_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.changed_xid := {CURRENT_XID};
    RETURN NEW;
END
$$"""

MARK_TRIGGER = """
CREATE TRIGGER memories_mark_changed BEFORE UPDATE ON memories
FOR EACH ROW EXECUTE FUNCTION memories_mark_changed()"""


def upgrade() -> None:
    op.add_column(
        "memories",
        sa.Column("changed_xid", sa.BigInteger(), server_default="0", nullable=False),
    )
    op.alter_column("memories", "changed_xid", server_default=sa.text(CURRENT_XID))
    op.create_index(
        "ix_memories_agent_changed", "memories", ["agent_id", "changed_xid"], unique=False
    )
    op.execute(MARK_FUNCTION)
    op.execute(MARK_TRIGGER)


def downgrade() -> None:
    op.execute("DROP TRIGGER IF EXISTS memories_mark_changed ON memories")
    op.execute("DROP FUNCTION IF EXISTS memories_mark_changed()")
    op.drop_index("ix_memories_agent_changed", table_name="memories")
    op.drop_column("memories", "changed_xid")
