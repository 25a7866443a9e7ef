"""What waits on the broker, read as the jobs a worker would run: each message's task name and
arguments (kombu's Redis transport keeps a queue as a list of JSON envelopes, body base64)."""

from __future__ import annotations

import base64
import json
from typing import Any

import redis

from db.jobs import Queue


def queued_jobs(broker: redis.Redis, queue: Queue) -> list[tuple[str, list[Any]]]:
    """(task name, args) of every message waiting on `queue`, oldest first."""
    messages = broker.lrange(queue.value, 0, -1)
    jobs = []
    for raw in reversed(messages):  # kombu pushes on the left, workers pop on the right
        envelope = json.loads(raw)
        args, _kwargs, _embed = json.loads(base64.b64decode(envelope["body"]))
        jobs.append((envelope["headers"]["task"], args))
    return jobs
