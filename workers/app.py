"""The Celery app: two queues, JSON only, late acks, bounded retries, and the beat schedule.

`make_celery(redis_url=…)` builds a configured app; tasks are `shared_task`s, so they belong to
whichever app the process made. Nothing is configured or connected at import time.
"""

from __future__ import annotations

from celery import Celery

from db import jobs
from db.jobs import Queue
from db.settings import DEFAULT_VISIBILITY_TIMEOUT_S
from workers import observe  # noqa: F401  (job metrics and log context, by Celery's signals)

TASK_MODULES = [
    "workers.tasks.health",
    "workers.tasks.sweep",
    "workers.tasks.enrichment",
    "workers.tasks.reflections",
    "workers.tasks.plans",
    "workers.tasks.reactions",
    "workers.tasks.conversations",
    "workers.tasks.summaries",
    "workers.tasks.outbox",
]

DEFAULT_SWEEP_INTERVAL_S = 5.0
"""How often beat looks at each world's game clock for work that has come due."""

DEFAULT_BACKLOG_INTERVAL_S = 30.0
"""How often beat looks for memories whose enrichment job was lost (`hearth.enrich_backlog`)."""

DEFAULT_RELAY_INTERVAL_S = 15.0
"""How often beat sends jobs left in the outbox (`hearth.relay_outbox`; the API sends its own
at once, this is for an API that died before it could)."""


def make_celery(
    *,
    redis_url: str,
    sweep_interval_s: float | None = None,
    visibility_timeout_s: int | None = None,
) -> Celery:
    """A Celery app on Redis with Hearth's job conventions (DESIGN.md §5)."""
    app = Celery("hearth", include=TASK_MODULES, set_as_current=True)
    app.conf.update(
        broker_url=redis_url,
        result_backend=redis_url,
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_acks_on_failure_or_timeout=True,
        worker_prefetch_multiplier=1,
        task_default_queue=Queue.FAST.value,
        task_routes={task.name: {"queue": task.queue.value} for task in jobs.TASKS},
        result_expires=3600,
        broker_connection_retry_on_startup=True,
        broker_transport_options=transport_options(
            visibility_timeout_s or DEFAULT_VISIBILITY_TIMEOUT_S
        ),
        worker_hijack_root_logger=False,
        beat_schedule={
            "sweep-worlds": {
                "task": jobs.SWEEP_WORLDS.name,
                "schedule": sweep_interval_s or DEFAULT_SWEEP_INTERVAL_S,
            },
            "enrich-backlog": {
                "task": jobs.ENRICH_BACKLOG.name,
                "schedule": DEFAULT_BACKLOG_INTERVAL_S,
            },
            "relay-outbox": {
                "task": jobs.RELAY_OUTBOX.name,
                "schedule": DEFAULT_RELAY_INTERVAL_S,
            },
        },
        timezone="UTC",
    )
    return app


RESTORE_CHECKS_PER_TIMEOUT = 10
"""How often, per visibility timeout, a worker looks for jobs whose worker died."""


def transport_options(visibility_timeout_s: int) -> dict[str, int]:
    """Redelivery after `visibility_timeout_s` (HEARTH_VISIBILITY_TIMEOUT_S), checked often
    enough that a job of a killed worker waits about that long, not kombu's 100 s sweep."""
    every = max(1, min(10, visibility_timeout_s // RESTORE_CHECKS_PER_TIMEOUT))
    return {
        "visibility_timeout": visibility_timeout_s,
        "unacked_restore_interval": every,
        "unacked_restore_throttle": 1,
    }
