"""`hearth.sweep_worlds` (fast queue, beat): per world, what has come due on its game clock
(`db.flows.sweep`), sent once the sweep's transaction has committed."""

from __future__ import annotations

from celery import shared_task

from db import jobs
from db.flows.sweep import sweep
from workers.dispatch import send_all
from workers.runtime import get_runtime, session_scope
from workers.tasks.base import PERIODIC_POLICY


@shared_task(name=jobs.SWEEP_WORLDS.name, **(PERIODIC_POLICY | {"ignore_result": False}))
def sweep_worlds() -> dict[str, int]:
    """Sweep every running world; `enqueued` counts the due work sent (not the enrichment)."""
    runtime = get_runtime()
    with session_scope() as session:
        swept = sweep(session, settings=runtime.settings)
    send_all(runtime.dispatch, swept.enrichment)
    sent = send_all(runtime.dispatch, swept.due)
    counts = {"worlds": swept.worlds, "enqueued": sent, "actions_changed": swept.actions_changed}
    return counts | ({"failed": swept.failed} if swept.failed else {})
