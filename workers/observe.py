"""What a worker tells an operator about its jobs: run time and outcome by task (`/metrics`),
and the job's name and id on every log line written while it runs (`db.logs`).

Celery's task signals fire in the process that runs the job (a prefork pool process), around
every attempt: a retry counts as `retry`, the attempt that gives up as `failure`. Logging is
configured by the `hearth` command before the worker starts; connecting `setup_logging` keeps
Celery from replacing that configuration with its own.
"""

from __future__ import annotations

import time
from typing import Any

from celery.signals import setup_logging, task_postrun, task_prerun

from db import logs
from db.metrics import metrics

OUTCOMES = {"SUCCESS": "success", "FAILURE": "failure", "RETRY": "retry"}
_started: dict[str, float] = {}


@task_prerun.connect
def _job_started(task_id: str | None = None, task: Any = None, **_: Any) -> None:
    if task_id is None or task is None:
        return
    _started[task_id] = time.perf_counter()
    logs.task.set((task.name, task_id))


@task_postrun.connect
def _job_finished(
    task_id: str | None = None, task: Any = None, state: str | None = None, **_: Any
) -> None:
    if task_id is None or task is None:
        return
    started = _started.pop(task_id, None)
    m = metrics()
    m.jobs.labels(task.name, OUTCOMES.get(state or "", str(state).lower())).inc()
    if started is not None:
        m.job_seconds.labels(task.name).observe(time.perf_counter() - started)
    logs.task.set(None)


@setup_logging.connect
def _keep_hearth_logging(**_: Any) -> None:
    """Celery configures logging only when nobody handles this signal."""
