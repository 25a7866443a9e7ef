"""Jobs wait out a database (or model, or Redis) outage of minutes instead of giving up within
seconds, and never wait so long in a worker that the broker hands them to another one."""

from __future__ import annotations

import sqlalchemy.exc
from celery import Celery
from celery.utils.time import get_exponential_backoff_interval

from db import jobs
from db.settings import DEFAULT_VISIBILITY_TIMEOUT_S
from workers.app import make_celery

PERIODIC = {jobs.SWEEP_WORLDS.name, jobs.ENRICH_BACKLOG.name, jobs.RELAY_OUTBOX.name}
OUTAGE_S = 120
"""A database restart with crash recovery, or a failover, takes tens of seconds."""


def _app() -> Celery:
    app = make_celery(redis_url="redis://127.0.0.1:1/0")
    app.loader.import_default_modules()  # the task modules, as a worker imports them
    return app


def test_every_job_outlasts_a_database_outage_of_minutes() -> None:
    app = _app()
    for name in {task.name for task in jobs.TASKS} - PERIODIC - {jobs.PING.name}:
        task = app.tasks[name]
        assert issubclass(sqlalchemy.exc.OperationalError, tuple(task.autoretry_for)), name
        waits = [
            get_exponential_backoff_interval(
                factor=int(task.retry_backoff),
                retries=attempt,
                maximum=task.retry_backoff_max,
                full_jitter=task.retry_jitter,
            )
            for attempt in range(task.max_retries)
        ]
        assert not task.retry_jitter, name  # full jitter may draw 0 s for every wait
        assert sum(waits) >= OUTAGE_S, (name, waits)
        assert max(waits) < DEFAULT_VISIBILITY_TIMEOUT_S, (name, waits)


def test_beats_tasks_do_not_pile_up_retries() -> None:
    """Beat sends them again within seconds; a retry of each would queue up behind an outage."""
    app = _app()
    for name in PERIODIC:
        assert not tuple(app.tasks[name].autoretry_for), name
