"""Handing work to the workers from a request. The rows are committed first, so a broker that
is down loses nothing: the beat sweep finds unenriched memories through their partial index."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Sequence

from celery import Celery

from db import jobs
from db.jobs import Job

log = logging.getLogger(__name__)


def enqueue_enrichment(celery: Celery, memory_ids: Sequence[int]) -> bool:
    """Ask the fast queue to embed and score these memories; False if the broker refused."""
    if not memory_ids:
        return True
    return _send(celery, jobs.enrich_memories(memory_ids), what="enrichment")


def enqueue_reactions(celery: Celery, decisions: Sequence[tuple[uuid.UUID, int]]) -> bool:
    """Ask the fast queue to decide whether each (agent, observation) calls for a reaction, in
    one message (a worker sends one `hearth.decide_reaction` job per pair, keyed by the pair,
    so a retried request cannot queue a decision twice; the decision row is unique anyway).
    False if the broker refused."""
    if not decisions:
        return True
    return _send(celery, jobs.decide_reactions(decisions), what="reaction decisions")


def _send(celery: Celery, job: Job, *, what: str) -> bool:
    try:
        celery.send_task(job.name, args=list(job.args), task_id=job.key)
        return True
    except Exception:  # broker down: the sweep (or the backlog) finds the work again
        log.warning("could not enqueue %s (%s)", what, job.name, exc_info=True)
        return False
