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

RETRY_BACKOFF_S = 2
RETRY_BACKOFF_MAX_S = 30
"""The longest wait between two tries. Kept below the visibility timeout
(HEARTH_VISIBILITY_TIMEOUT_S, 60 s by default): a retry waiting in a worker longer than that
would be delivered to another worker as well."""
MAX_RETRIES = 10

RETRY_POLICY = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "autoretry_for": TRANSIENT_ERRORS,
    "retry_backoff": RETRY_BACKOFF_S,
    "retry_backoff_max": RETRY_BACKOFF_MAX_S,
    "retry_jitter": False,
    "max_retries": MAX_RETRIES,
    "ignore_result": True,
}
"""Keyword arguments for `@app.task`: a task that fails transiently (the model, the database,
Redis) tries again after 2, 4, 8, 16, then 30 s, ten times (3.5 minutes in all), so a database
restart of tens of seconds is waited out, not given up on; anything else fails at once. The
waits are not jittered: Celery's jitter is "full" (anywhere from 0), which gave up on a
restarting database within seconds. Results are not stored: a job's outcome is its rows (and
its metrics), and storing a result that nobody reads cost a Redis write per job."""

PERIODIC_POLICY = RETRY_POLICY | {"autoretry_for": (), "max_retries": 0}
"""For beat's tasks (the sweep, the backlog, the outbox relay): beat runs them again in a few
seconds, so a failed run is not retried (retries would pile up behind a database outage)."""


def run_flow(flow: Callable[..., Outcome], **arguments: Any) -> dict[str, object]:
    """A task's whole body: `flow(session, faculties, **arguments)` in one transaction, its
    follow-up jobs sent once that transaction committed, its report as the task's result."""
    runtime = get_runtime()
    with session_scope() as session:
        outcome = flow(session, runtime.faculties, **arguments)
    send_all(runtime.dispatch, outcome.follow_ups)
    return dict(outcome.report)
