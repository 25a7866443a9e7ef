"""The cached summary description of each agent: how stale it is, and storing a new one.

Every prompt about an agent reads `agents.summary`; `hearth.summarize` remakes it when
`cognition.summary.is_stale` says so. Memories "since" the summary are counted by game time
through the agent's (agent_id, created_at) index, and never past the staleness bound, so the
sweep pays at most that many index entries per agent.
"""

from __future__ import annotations

import uuid
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Session

from cognition.summary import DEFAULT_MAX_NEW_MEMORIES
from db.models import Agent, Memory


def memories_since(
    session: Session,
    *,
    agent_id: uuid.UUID,
    since: datetime | None,
    limit: int = DEFAULT_MAX_NEW_MEMORIES,
) -> int:
    """Memories created after `since` (game time), counted up to `limit`."""
    query = sa.select(Memory.id).where(Memory.agent_id == agent_id)
    if since is not None:
        query = query.where(Memory.created_at > since)
    bounded = query.limit(limit).subquery()
    return int(session.scalar(sa.select(sa.func.count()).select_from(bounded)) or 0)


def save_summary(session: Session, *, agent_id: uuid.UUID, text: str, at: datetime) -> None:
    """Cache the summary made at game time `at`, with the size of the stream it saw."""
    total = sa.select(sa.func.count()).where(Memory.agent_id == agent_id).scalar_subquery()
    session.execute(
        sa.update(Agent)
        .where(Agent.id == agent_id)
        .values(summary=text, summary_at=at, memories_at_summary=total)
        .execution_options(synchronize_session=False)
    )
