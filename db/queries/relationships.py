"""Relationships: how an agent sees another agent (or a player) now, with earlier views kept."""

from __future__ import annotations

import uuid
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Session

from cognition.types import RelationshipUpdate
from db.models import Relationship


def set_relationship(
    session: Session,
    *,
    agent_id: uuid.UUID,
    other_name: str,
    other_agent_id: uuid.UUID | None,
    summary: str,
    sentiment: int,
    at: datetime,
    keep_existing: bool = False,
) -> bool:
    """Record the current view; the one it replaces goes to `history`. False if unchanged,
    or when `keep_existing` and a view is on record (a view formed from nothing does not
    replace "her neighbour and Sunday coffee companion")."""
    row = session.scalar(
        sa.select(Relationship).where(
            Relationship.agent_id == agent_id, Relationship.other_name == other_name
        )
    )
    if row is None:
        session.add(
            Relationship(
                agent_id=agent_id,
                other_name=other_name,
                summary=summary,
                other_agent_id=other_agent_id,
                sentiment=sentiment,
                history=[],
                updated_at=at,
                formed_at=at,
            )
        )
        session.flush()
        return True
    if keep_existing:
        return False
    if (row.summary, row.sentiment, row.other_agent_id) == (summary, sentiment, other_agent_id):
        return False
    earlier = {"summary": row.summary, "sentiment": row.sentiment, "until": at.isoformat()}
    row.history = [*row.history, earlier]
    row.summary, row.sentiment, row.other_agent_id, row.updated_at = (
        summary,
        sentiment,
        other_agent_id,
        at,
    )
    session.flush()
    return True


def recent_views(
    session: Session, *, agent_id: uuid.UUID, since: datetime
) -> dict[str, RelationshipUpdate]:
    """How the agent sees each other it formed or revised a view of since `since` (game
    time), by the other's name: a reaction reuses these instead of asking the Mind again."""
    rows = session.execute(
        sa.select(Relationship.other_name, Relationship.summary, Relationship.sentiment).where(
            Relationship.agent_id == agent_id, Relationship.updated_at >= since
        )
    )
    return {
        name: RelationshipUpdate(summary=summary, sentiment=sentiment)
        for name, summary, sentiment in rows
        if summary
    }


def agent_relationships(
    session: Session, *, agent_id: uuid.UUID, after: str | None, limit: int
) -> list[Relationship]:
    """A page of how the agent sees each other, by the other's name (unique per agent);
    `after` is the previous page's last name."""
    query = sa.select(Relationship).where(Relationship.agent_id == agent_id)
    if after is not None:
        query = query.where(Relationship.other_name > after)
    return list(session.scalars(query.order_by(Relationship.other_name).limit(limit)))
