"""Sending jobs from jobs: the one way a task or the sweep enqueues follow-up work.

`Dispatch.send(job)` sends a `db.jobs.Job`, whose deterministic key ("plan_day:<agent>:<day>")
is also its Celery task id. With Celery, a key is sent at most once while its job is
queued or running: a Redis `SET NX` guard (expiring after the broker's visibility timeout, in
case the job is lost) is taken before sending and released when the job finishes, so a sweep
every few seconds does not pile up copies of a slow job. The guard only saves queue space:
each job's own result key in the database is what makes a duplicate harmless.

Tests and the economy bench install `workers.local_queue.LocalDispatch`, which queues jobs in
process.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol

import kombu.exceptions
import redis
from celery import Celery, current_app
from celery.signals import task_postrun

from db.jobs import Job

log = logging.getLogger(__name__)

GUARD_PREFIX = "hearth:queued:"
FINISHED_STATES = frozenset({"SUCCESS", "FAILURE"})
DEFAULT_GUARD_TTL_S = 600
"""How long a key's guard outlives a job that never finished (lost with a broker's data): long
enough that a backlog on the slow queue does not queue a second copy of every waiting job."""
BROKER_ERRORS = (redis.RedisError, kombu.exceptions.KombuError)
"""What sending raises when the broker is down (kombu wraps redis-py's errors)."""


class Dispatch(Protocol):
    def send(self, job: Job) -> bool:
        """Enqueue `job`; False if not sent (already queued under its key, or refused)."""
        ...


@dataclass
class CeleryDispatch:
    """Send through the process's Celery app (the worker's own, or the one the API built)."""

    guard_ttl_s: int = DEFAULT_GUARD_TTL_S

    def send(self, job: Job) -> bool:
        app = current_app
        try:
            if job.key is not None and not _guard(app.conf.broker_url).set(
                GUARD_PREFIX + job.key, "1", nx=True, ex=self.guard_ttl_s
            ):
                return False
            publish(app, job)
            return True
        except BROKER_ERRORS:  # broker down: the sweep finds the work again later
            log.warning("could not enqueue %s %s", job.name, job.key, exc_info=True)
            return False


def publish(app: Celery, job: Job) -> None:
    """Put `job` on its queue now, or raise one of `BROKER_ERRORS`. Nobody waits for a job's
    result, so none is subscribed to: with a result backend that is down, subscribing alone
    waited out ~20 reconnection attempts (~19 s) before the message was even tried."""
    app.send_task(job.name, args=list(job.args), task_id=job.key, ignore_result=True, retry=False)


def send_all(dispatch: Dispatch, jobs: Iterable[Job]) -> int:
    """Send each job (after the work that asked for them committed); how many were sent."""
    return sum(dispatch.send(job) for job in jobs)


@cache
def _guard(url: str) -> redis.Redis:
    return redis.Redis.from_url(url)


@task_postrun.connect
def _release_guard(task_id: str | None = None, state: str | None = None, **_: Any) -> None:
    """A finished job frees its key (a retrying one keeps it until its last attempt)."""
    if task_id and state in FINISHED_STATES:
        try:
            _guard(current_app.conf.broker_url).delete(GUARD_PREFIX + task_id)
        except redis.RedisError:
            log.warning("could not release the queue guard of %s", task_id, exc_info=True)
