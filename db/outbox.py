"""The job outbox: jobs committed with the rows that asked for them, sent to the broker after.

A request never talks to the broker. It stages its jobs (`stage`) in its own transaction; once
that commits, a relay (`relay`: the API's `service.outbox_relay` thread, woken by the commit,
and beat's `hearth.relay_outbox`) sends them and deletes them. With Redis down a write still
commits and answers at once, and its jobs wait in PostgreSQL until Redis answers again; with
the API killed between its commit and the send, another relay sends them.

A batch is taken with `FOR UPDATE SKIP LOCKED`, so relays in several processes never send one
row twice at once; a batch whose sending fails is rolled back whole and tried again later, so
a job may reach the broker twice. That is harmless: every job's work is keyed in the database
(`db.jobs`), and a duplicate finds it done.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from db.jobs import Job
from db.models import OutboxJob

STAGED = "hearth.outbox_staged"
"""`session.info` flag: this transaction staged jobs (the API wakes its relay on commit)."""

DEFAULT_RELAY_BATCH = 200

_TAKE = sa.text("""
DELETE FROM job_outbox WHERE id IN (
    SELECT id FROM job_outbox ORDER BY id LIMIT :limit FOR UPDATE SKIP LOCKED
) RETURNING id, name, args, key
""")


def stage(session: Session, jobs: Iterable[Job | None]) -> int:
    """Add the jobs (None: nothing to do) to the caller's transaction; how many."""
    rows: list[dict[str, Any]] = [
        {"name": job.name, "args": list(job.args), "key": job.key} for job in jobs if job
    ]
    if rows:
        session.execute(sa.insert(OutboxJob), rows)
        session.info[STAGED] = True
    return len(rows)


def relay(
    sessions: sessionmaker[Session],
    send: Callable[[Job], None],
    *,
    limit: int = DEFAULT_RELAY_BATCH,
) -> int:
    """Send up to `limit` staged jobs, oldest first, and delete them; how many were sent. A
    send that raises rolls the batch back (every job of it stays staged) and the error
    propagates."""
    with sessions.begin() as session:
        taken = session.execute(_TAKE, {"limit": limit}).all()
        for row in sorted(taken, key=lambda r: r.id):
            send(Job(row.name, tuple(row.args), row.key))
    return len(taken)


def waiting(session: Session) -> int:
    """How many jobs are staged and not yet sent (`/metrics`)."""
    return int(session.scalar(sa.select(sa.func.count()).select_from(OutboxJob)) or 0)
