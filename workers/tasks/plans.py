"""`hearth.plan_day` and `hearth.decompose` (slow queue): the paper's recursive planning, just
in time on the game clock (`db.flows.plans`)."""

from __future__ import annotations

import uuid
from datetime import date

from celery import shared_task

from cognition.types import Granularity
from db import jobs
from db.flows import plans
from workers.tasks.base import RETRY_POLICY, run_flow


@shared_task(name=jobs.PLAN_DAY.name, **RETRY_POLICY)
def plan_day(agent_id: str, day: str) -> dict[str, object]:
    """The agent's outline for game day `day` (ISO date), if that day is today and unplanned;
    with a model, the offline mind's stand-in is committed first, so the agent acts while the
    model thinks."""
    arguments = {"agent_id": uuid.UUID(agent_id), "day": date.fromisoformat(day)}
    return run_flow(plans.stand_in_day, **arguments) | run_flow(plans.plan_day, **arguments)


@shared_task(name=jobs.DECOMPOSE.name, **RETRY_POLICY)
def decompose(agent_id: str, plan_id: int, granularity: str) -> dict[str, object]:
    """Split a day item into hour chunks ("hour") or an hour chunk into 5–15 minute tasks
    ("task"), once; with a model, the offline mind's stand-in steps are committed first."""
    arguments = {
        "agent_id": uuid.UUID(agent_id),
        "plan_id": plan_id,
        "granularity": Granularity(granularity),
    }
    return run_flow(plans.stand_in_steps, **arguments) | run_flow(plans.decompose, **arguments)
