"""Transaction-scoped advisory locks: per-agent mutual exclusion without holding a row lock.

A job that must not run twice at once for one key (two `plan_day` deliveries of one agent, two
writers of one agent's plan tree) takes `hold(session, key)`; the lock is released when its
transaction ends — by commit, rollback, or the connection dying with a killed worker — so a
lock can never be left behind. Agents' rows are not locked for this: enrichment updates their
reflection accumulators on the fast queue and must never wait on a slow job's model call.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.orm import Session

AGENT_LOOP_LOCK_CLASS = 0x4841  # "HA": the advisory-lock namespace of the agent loop


def hold(session: Session, key: str) -> None:
    """Wait for, then hold until the transaction ends, the lock named `key`."""
    session.execute(
        sa.text("SELECT pg_advisory_xact_lock(CAST(:cls AS integer), hashtext(:key))"),
        {"cls": AGENT_LOOP_LOCK_CLASS, "key": key},
    )


def try_hold(session: Session, key: str) -> bool:
    """Hold the lock named `key` if it is free; False (without waiting) if another holds it."""
    return bool(
        session.scalar(
            sa.text("SELECT pg_try_advisory_xact_lock(CAST(:cls AS integer), hashtext(:key))"),
            {"cls": AGENT_LOOP_LOCK_CLASS, "key": key},
        )
    )
