"""Waiting for another process without guessing how long it takes: poll a condition until it
holds or a deadline passes (then fail, naming what did not happen). A fixed sleep is either
too short on a loaded machine or wasted time on an idle one."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
import redis

from db.jobs import Queue

DEFAULT_TIMEOUT_S = 30.0
DEFAULT_EVERY_S = 0.1


def wait_until(
    done: Callable[[], bool],
    what: str,
    *,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    every_s: float = DEFAULT_EVERY_S,
) -> None:
    """Return as soon as `done()` holds; fail the test if it does not within `timeout_s`."""
    deadline = time.monotonic() + timeout_s
    while True:
        if done():
            return
        if time.monotonic() > deadline:
            pytest.fail(f"{what} did not happen within {timeout_s} s")
        time.sleep(every_s)


def broker_idle(redis_url: str, *, timeout_s: float = DEFAULT_TIMEOUT_S) -> None:
    """Until both queues are empty and no job is in flight (none delivered and unacknowledged)
    on the broker at `redis_url`: every job sent so far has run, and none is waiting to be
    delivered again."""
    broker = redis.Redis.from_url(redis_url)
    try:
        wait_until(
            lambda: sum(broker.llen(q.value) for q in Queue) + broker.hlen("unacked") == 0,
            "an idle broker",
            timeout_s=timeout_s,
        )
    finally:
        broker.close()
