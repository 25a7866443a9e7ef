"""The retry policy every Hearth task shares: only transient errors, bounded, with backoff."""

from __future__ import annotations

import redis
import sqlalchemy.exc

from cognition.errors import ModelUnavailable

TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (
    ModelUnavailable,
    sqlalchemy.exc.OperationalError,
    sqlalchemy.exc.InterfaceError,
    redis.ConnectionError,
)

RETRY_POLICY = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": TRANSIENT_ERRORS,
    "retry_backoff": True,
    "retry_backoff_max": 300,
    "retry_jitter": True,
    "max_retries": 5,
    "ignore_result": True,
}
"""Keyword arguments for `@app.task`: a task that fails transiently retries at most 5 times,
waiting 1, 2, 4 … up to 300 s (jittered); anything else fails at once. Results are not stored:
a job's outcome is its rows (and its metrics), and storing a result that nobody reads cost a
Redis write per job."""
