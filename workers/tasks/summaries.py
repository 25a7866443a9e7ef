"""`hearth.summarize` (slow queue): the agent's summary description, remade when stale
(`db.flows.summaries`)."""

from __future__ import annotations

import uuid

from celery import shared_task

from db import jobs
from db.flows import summaries
from workers.tasks.base import RETRY_POLICY, run_flow


@shared_task(name=jobs.SUMMARIZE.name, **RETRY_POLICY)
def summarize(agent_id: str) -> dict[str, object]:
    """Remake the agent's summary description if it is stale."""
    return run_flow(summaries.summarize, agent_id=uuid.UUID(agent_id))
