"""Sending jobs from jobs: the one way a task or the sweep enqueues follow-up work.

`Dispatch.send(name, args, key=…)` names the work by a deterministic key ("plan_day:<agent>:<day>")
that is also its Celery task id. With Celery, a key is sent at most once while its job is
queued or running: a Redis `SET NX` guard (expiring after the broker's visibility timeout, in
case the job is lost) is taken before sending and released when the job finishes, so a sweep
every few seconds does not pile up copies of a slow job. The guard only saves queue space:
each job's own result key in the database is what makes a duplicate harmless.

Tests and the economy bench install `LocalDispatch`, which queues jobs in process.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol

import redis
from celery import current_app
from celery.signals import task_postrun

log = logging.getLogger(__name__)

GUARD_PREFIX = "hearth:queued:"
FINISHED_STATES = frozenset({"SUCCESS", "FAILURE"})


class Dispatch(Protocol):
    def send(self, name: str, args: Sequence[Any], *, key: str | None = None) -> bool:
        """Enqueue `name(*args)`; False if not sent (already queued under `key`, or refused)."""
        ...


@dataclass
class CeleryDispatch:
    """Send through the process's Celery app (the worker's own, or the one the API built)."""

    guard_ttl_s: int = 600

    def send(self, name: str, args: Sequence[Any], *, key: str | None = None) -> bool:
        app = current_app
        try:
            if key is not None and not _guard(app.conf.broker_url).set(
                GUARD_PREFIX + key, "1", nx=True, ex=self.guard_ttl_s
            ):
                return False
            app.send_task(name, args=list(args), task_id=key)
            return True
        except redis.RedisError:  # broker down: the sweep finds the work again later
            log.warning("could not enqueue %s %s", name, key, exc_info=True)
            return False


@dataclass
class LocalDispatch:
    """Jobs queued in process, run by whoever drains `queue` (tests, the economy bench).
    A key already waiting is not queued twice, as with the Redis guard. Thread-safe."""

    queue: deque[tuple[str, tuple[Any, ...], str | None]] = field(default_factory=deque)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def send(self, name: str, args: Sequence[Any], *, key: str | None = None) -> bool:
        with self._lock:
            if key is not None and any(queued_key == key for _, _, queued_key in self.queue):
                return False
            self.queue.append((name, tuple(args), key))
            return True

    def take(self) -> tuple[str, tuple[Any, ...], str | None] | None:
        """The oldest queued job, removed; None when the queue is empty."""
        with self._lock:
            return self.queue.popleft() if self.queue else None

    def sent(self, name: str) -> list[tuple[Any, ...]]:
        """The arguments of every queued job called `name`."""
        with self._lock:
            return [args for queued, args, _ in self.queue if queued == name]


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
