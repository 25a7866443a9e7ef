"""`hearth.relay_outbox` (fast queue, beat): send the jobs requests staged (`db.outbox`).

The API's own relay sends them right after each commit; this is the relay of last resort, for
jobs staged by an API that died before sending them, or while no API runs."""

from __future__ import annotations

import time

from celery import current_app, shared_task

from db import jobs, outbox
from db.jobs import Job
from workers.dispatch import publish
from workers.runtime import get_runtime
from workers.tasks.base import PERIODIC_POLICY

RELAY_BUDGET_S = 10.0
"""One run sends batches for at most this long (beat runs it every 15 s)."""


@shared_task(name=jobs.RELAY_OUTBOX.name, **PERIODIC_POLICY)
def relay_outbox() -> dict[str, int]:
    """Send staged jobs, oldest first, until none is left or the budget is spent."""
    app, sessions = current_app, get_runtime().sessions
    started, sent = time.monotonic(), 0

    def send(job: Job) -> None:
        publish(app, job)

    while time.monotonic() - started < RELAY_BUDGET_S:
        batch = outbox.relay(sessions, send)
        sent += batch
        if batch < outbox.DEFAULT_RELAY_BATCH:
            break
    return {"sent": sent}
