"""What every Hearth task shares: the retry policy (only transient errors, bounded, with
backoff) and the shell around a flow."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import redis
import sqlalchemy.exc

from cognition.errors import ModelUnavailable
from db.flows.agent_scope import Outcome
from workers.dispatch import send_all
from workers.runtime import get_runtime, session_scope

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


def run_flow(flow: Callable[..., Outcome], **arguments: Any) -> dict[str, object]:
    """A task's whole body: `flow(session, faculties, **arguments)` in one transaction, its
    follow-up jobs sent once that transaction committed, its report as the task's result."""
    runtime = get_runtime()
    with session_scope() as session:
        outcome = flow(session, runtime.faculties, **arguments)
    send_all(runtime.dispatch, outcome.follow_ups)
    return dict(outcome.report)
