"""Agents: persona rows, looked up only within their world (a world never sees another)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from cognition.types import Persona
from db.models import Agent, Memory

PERSONA_FIELDS = (
    "name",
    "age",
    "innate",
    "background",
    "currently",
    "lifestyle",
    "living_area",
    "daily_plan_requirement",
    "speaking_style",
)


def create_agent(session: Session, *, world_id: uuid.UUID, fields: dict[str, Any]) -> Agent:
    agent = Agent(id=uuid.uuid4(), world_id=world_id, **fields)
    session.add(agent)
    session.flush()
    return agent


def delete_agent(session: Session, agent_id: uuid.UUID) -> None:
    """Delete an agent and everything it remembers (FK cascade).

    Its memories are locked first, in id order, because the enrichment job locks memories
    (in id order) before the agent row; deleting the agent row first would take the same two
    locks in the opposite order and deadlock against a running job.
    """
    mine = sa.select(Memory.id).where(Memory.agent_id == agent_id).order_by(Memory.id)
    session.execute(mine.with_for_update())
    session.execute(sa.delete(Agent).where(Agent.id == agent_id))


def get_agent(session: Session, *, world_id: uuid.UUID, agent_id: uuid.UUID) -> Agent | None:
    return session.scalar(sa.select(Agent).where(Agent.id == agent_id, Agent.world_id == world_id))


def find_agent_by_name(session: Session, *, world_id: uuid.UUID, name: str) -> Agent | None:
    return session.scalar(sa.select(Agent).where(Agent.world_id == world_id, Agent.name == name))


def list_agents(
    session: Session, *, world_id: uuid.UUID, after: tuple[datetime, uuid.UUID] | None, limit: int
) -> list[Agent]:
    """A page in creation order; `after` is the (created_at, id) of the previous page's last."""
    query = sa.select(Agent).where(Agent.world_id == world_id)
    if after is not None:
        query = query.where(sa.tuple_(Agent.created_at, Agent.id) > sa.tuple_(*after))
    query = query.order_by(Agent.created_at, Agent.id).limit(limit)
    return list(session.scalars(query))


def to_persona(agent: Agent) -> Persona:
    """Rows → the domain value cognition reads."""
    return Persona(**{field: getattr(agent, field) for field in PERSONA_FIELDS})


def revise_currently(session: Session, agent: Agent, *, currently: str, at: datetime) -> bool:
    """Set the agent's `currently`, keeping the one it replaces in `currently_history` (with
    the game time it ended). Nothing changes, and False is returned, when it is the same."""
    text = " ".join(currently.split())
    if not text or text.rstrip(".") == " ".join(agent.currently.split()).rstrip("."):
        return False
    earlier = {"until": at.isoformat(), "currently": agent.currently}
    agent.currently_history = [*(agent.currently_history or []), earlier]
    agent.currently = text
    session.flush()
    return True
