"""Handing work to the workers from a request: its jobs are staged in the request's own
transaction (`db.outbox`) and sent by the API's relay once it commits (`service.outbox_relay`).
A request never waits on Redis, and a broker that is down delays the work, never loses it."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from sqlalchemy.orm import Session

from db import jobs, outbox
from db.jobs import Job


def enqueue(session: Session, *work: Job | None) -> None:
    """Stage the jobs (None: nothing to do) in the caller's transaction; call before its commit."""
    outbox.stage(session, work)


def enrichment(memory_ids: Sequence[int]) -> Job | None:
    """Embed and score these memories (the fast queue); None when there are none."""
    return jobs.enrich_memories(memory_ids) if memory_ids else None


def reaction_decisions(decisions: Sequence[tuple[uuid.UUID, int]]) -> Job | None:
    """Decide whether each (agent, observation) calls for a reaction, in one message (a worker
    sends one `hearth.decide_reaction` job per pair, keyed by the pair, so a retried request
    cannot queue a decision twice; the decision row is unique anyway). None when there are none."""
    return jobs.decide_reactions(decisions) if decisions else None
