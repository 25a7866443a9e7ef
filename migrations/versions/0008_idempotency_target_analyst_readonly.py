"""idempotency keys bound to their request; the analyst read-only by privilege

1. `idempotency_keys` records the method and path a key first came with. A key belongs to the
   calling API key (`scope` is now that key's id), and its reuse for another method, path or
   body is refused (409) instead of replaying another request's answer. Rows written before
   (scope "<key id>:<operation>") never match a new request; they are only replay caches.

2. `hearth_analyst` cannot write even in a `BEGIN READ WRITE` transaction: read-only was only
   its default transaction mode. It owns nothing and may only SELECT the six views; what every
   role could still do by default is taken from PUBLIC: temporary tables (`TEMPORARY` on the
   database; its owner keeps it) and creating large objects. Its statements time out after
   30 s by default (`hearth db upgrade` sets the configured value on the role; `hearth sql`
   sets it for its session too).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01 09:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

ANALYST_ROLE = "hearth_analyst"
LARGE_OBJECT_CREATORS = ("lo_create(oid)", "lo_creat(integer)", "lo_from_bytea(oid, bytea)")
DEFAULT_ANALYST_TIMEOUT = "30s"


def upgrade() -> None:
    op.add_column(
        "idempotency_keys", sa.Column("method", sa.String(10), server_default="", nullable=False)
    )
    op.add_column(
        "idempotency_keys", sa.Column("path", sa.String(1000), server_default="", nullable=False)
    )
    op.execute("""
        DO $$ BEGIN
            EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', current_database());
        EXCEPTION WHEN insufficient_privilege THEN
            RAISE WARNING 'not the database owner: PUBLIC keeps TEMPORARY';
        END $$""")
    for function in LARGE_OBJECT_CREATORS:
        op.execute(f"""
            DO $$ BEGIN
                REVOKE EXECUTE ON FUNCTION {function} FROM PUBLIC;
            EXCEPTION WHEN insufficient_privilege THEN
                RAISE WARNING 'not a superuser: PUBLIC keeps {function}';
            END $$""")
    op.execute(f"ALTER ROLE {ANALYST_ROLE} SET statement_timeout = '{DEFAULT_ANALYST_TIMEOUT}'")


def downgrade() -> None:
    op.execute(f"ALTER ROLE {ANALYST_ROLE} RESET statement_timeout")
    for function in LARGE_OBJECT_CREATORS:
        op.execute(f"GRANT EXECUTE ON FUNCTION {function} TO PUBLIC")
    op.execute("""
        DO $$ BEGIN
            EXECUTE format('GRANT TEMPORARY ON DATABASE %I TO PUBLIC', current_database());
        END $$""")
    op.drop_column("idempotency_keys", "path")
    op.drop_column("idempotency_keys", "method")
