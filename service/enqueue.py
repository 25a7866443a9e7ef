"""Handing work to the workers from a request. The rows are committed first, so a broker that
is down loses nothing: the beat sweep finds unenriched memories through their partial index."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from celery import Celery

log = logging.getLogger(__name__)

ENRICH_TASK = "hearth.enrich_memories"


def enqueue_enrichment(celery: Celery, memory_ids: Sequence[int]) -> bool:
    """Ask the fast queue to embed and score these memories; False if the broker refused."""
    if not memory_ids:
        return True
    try:
        celery.send_task(ENRICH_TASK, args=[list(memory_ids)])
        return True
    except Exception:  # broker down: the sweep will pick the rows up
        log.warning("could not enqueue enrichment of %d memories", len(memory_ids), exc_info=True)
        return False
