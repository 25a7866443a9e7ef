"""Handing work to the workers from a request. The rows are committed first, so a broker that
is down loses nothing: the beat sweep finds unenriched memories through their partial index."""

from __future__ import annotations

import logging
import uuid
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


REACT_TASK = "hearth.decide_reactions"


def enqueue_reactions(celery: Celery, decisions: Sequence[tuple[uuid.UUID, int]]) -> bool:
    """Ask the fast queue to decide whether each (agent, observation) calls for a reaction, in
    one message (a worker sends one `hearth.decide_reaction` job per pair, keyed by the pair,
    so a retried request cannot queue a decision twice; the decision row is unique anyway).
    False if the broker refused."""
    if not decisions:
        return True
    try:
        celery.send_task(REACT_TASK, args=[[[str(a), m] for a, m in decisions]])
        return True
    except Exception:  # broker down: those observations go undecided, the game goes on
        log.warning("could not enqueue %d reaction decisions", len(decisions), exc_info=True)
        return False
