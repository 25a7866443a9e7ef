"""The periodic world sweep that beat runs: per world, what has come due on its game clock.

For now it only counts the worlds it would look at; the agent-loop work (day plans,
decomposition ahead of the clock, stale summaries, missed reflections) hangs off it.
"""

from __future__ import annotations

import sqlalchemy as sa
from celery import shared_task

from db.models import World
from workers.runtime import session_scope
from workers.tasks.base import RETRY_POLICY


@shared_task(name="hearth.sweep_worlds", **RETRY_POLICY)
def sweep_worlds() -> dict[str, int]:
    with session_scope() as session:
        worlds = session.scalar(sa.select(sa.func.count()).select_from(World)) or 0
    return {"worlds": int(worlds)}
