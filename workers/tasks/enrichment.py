"""Memory enrichment on the fast queue: embed and rate what the API, the step path and the
agent loop wrote (`db.flows.enrichment`); a redelivery finds the rows done and changes nothing.
`hearth.enrich_backlog` (beat) picks up memories whose job was lost.
"""

from __future__ import annotations

import time
import uuid

from celery import shared_task

from db import jobs
from db.flows import enrichment
from db.queries.enrichment import pending_in_world
from workers.dispatch import send_all
from workers.runtime import get_runtime, session_scope
from workers.tasks.base import PERIODIC_POLICY, RETRY_POLICY

BACKLOG_BUDGET_S = 20.0
"""One backlog run works through batches for at most this long (beat runs it every 30 s), so
a long broker outage drains at full speed instead of one batch per beat."""


@shared_task(name=jobs.ENRICH_MEMORIES.name, **RETRY_POLICY)
def enrich_memories(memory_ids: list[int]) -> dict[str, object]:
    """Embed and score these memories and feed their agents' reflection accumulators."""
    runtime = get_runtime()
    outcome = enrichment.enrich_memories(runtime.sessions, runtime.faculties, memory_ids)
    send_all(runtime.dispatch, outcome.follow_ups)
    return dict(outcome.report)


@shared_task(name=jobs.ENRICH_BACKLOG.name, **PERIODIC_POLICY)
def enrich_backlog(limit: int = enrichment.DEFAULT_BACKLOG_LIMIT) -> dict[str, int]:
    """Enrich memories that missed their job (broker down, job failed), `limit` at a time."""
    started, embedded, scored = time.monotonic(), 0, 0
    while time.monotonic() - started < BACKLOG_BUDGET_S:
        with session_scope() as session:
            ids = enrichment.backlog(session, limit=limit)
        if not ids:
            break
        done = enrich_memories(ids)
        embedded, scored = embedded + int(done["embedded"]), scored + int(done["scored"])
    return {"embedded": embedded, "scored": scored}


@shared_task(name=jobs.ENRICH_WORLD.name, **RETRY_POLICY)
def enrich_world(world_id: str, limit: int = enrichment.DEFAULT_BACKLOG_LIMIT) -> dict[str, object]:
    """Enrich a world's unenriched memories in one batch: the agent loop's jobs (plans,
    reflections, utterances) ask for this under one key per world instead of one job each, so
    a busy town costs one importance call per batch, not one per line said."""
    with session_scope() as session:
        ids = pending_in_world(session, world_id=uuid.UUID(world_id), limit=limit)
    if not ids:
        return {"embedded": 0, "scored": 0, "crossed": []}
    return enrich_memories(ids)
