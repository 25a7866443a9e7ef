"""A task that proves a worker is consuming a queue; `/readyz` sends it."""

from __future__ import annotations

import os
import socket

from celery import shared_task

from db import jobs


@shared_task(name=jobs.PING.name, acks_late=True)
def ping() -> dict[str, str | int]:
    return {"host": socket.gethostname(), "pid": os.getpid()}
