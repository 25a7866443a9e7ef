"""`hearth.reflect` (slow queue): the paper's reflection, exactly once per threshold crossing
(`db.flows.reflections`)."""

from __future__ import annotations

import uuid

from celery import shared_task

from db import jobs
from db.flows import reflections
from workers.tasks.base import RETRY_POLICY, run_flow


@shared_task(name=jobs.REFLECT.name, **RETRY_POLICY)
def reflect(agent_id: str, seq: int) -> dict[str, object]:
    """Run the agent's `seq`-th reflection, unless it ran already or is not due."""
    return run_flow(reflections.reflect, agent_id=uuid.UUID(agent_id), seq=seq)
