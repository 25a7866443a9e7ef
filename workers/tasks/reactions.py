"""`hearth.decide_reactions` and `hearth.decide_reaction` (fast queue): react to an
observation, or carry on with the plan (`db.flows.reactions`)."""

from __future__ import annotations

import uuid

from celery import shared_task

from db import jobs
from db.flows import reactions
from workers.dispatch import send_all
from workers.runtime import get_runtime
from workers.tasks.base import RETRY_POLICY, run_flow


@shared_task(name=jobs.DECIDE_REACTIONS.name, **RETRY_POLICY)
def decide_reactions(pairs: list[tuple[str, int]]) -> int:
    """A step's decisions, sent by the API as one message (a message per decision would put
    dozens of broker round trips on the game's hot path): one `hearth.decide_reaction` job
    each, under its key. Returns how many were sent."""
    decisions = (jobs.decide_reaction(agent_id, memory_id) for agent_id, memory_id in pairs)
    return send_all(get_runtime().dispatch, decisions)


@shared_task(name=jobs.DECIDE_REACTION.name, **RETRY_POLICY)
def decide_reaction(agent_id: str, memory_id: int) -> dict[str, object]:
    """Decide once whether the agent reacts to memory `memory_id` (an observation)."""
    return run_flow(reactions.decide_reaction, agent_id=uuid.UUID(agent_id), memory_id=memory_id)
