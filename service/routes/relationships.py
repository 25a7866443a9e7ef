"""How an agent sees the others it knows: summary and 0–10 sentiment, with earlier views."""

from __future__ import annotations

from fastapi import APIRouter

from db.queries.relationships import agent_relationships
from service.deps import CurrentAgent, SessionDep
from service.errors import ERROR_RESPONSES
from service.pagination import (
    DEFAULT_PAGE_SIZE,
    CursorQuery,
    LimitQuery,
    as_text,
    decode_cursor,
    encode_cursor,
)
from service.schemas.common import Page
from service.schemas.relationships import RelationshipRead

router = APIRouter(
    prefix="/v1/worlds/{world_id}/agents/{agent_id}",
    tags=["relationships"],
    responses=ERROR_RESPONSES,
)


@router.get(
    "/relationships",
    response_model=Page[RelationshipRead],
    summary="How the agent sees each other it knows (cursor pages, by name)",
)
def index(
    agent: CurrentAgent,
    session: SessionDep,
    limit: LimitQuery = DEFAULT_PAGE_SIZE,
    cursor: CursorQuery = None,
) -> Page[RelationshipRead]:
    after = decode_cursor(cursor, lambda values: as_text(values[0]))
    rows = agent_relationships(session, agent_id=agent.id, after=after, limit=limit + 1)
    page, more = rows[:limit], len(rows) > limit
    next_cursor = encode_cursor([page[-1].other_name]) if more else None
    items = [RelationshipRead.model_validate(row, from_attributes=True) for row in page]
    return Page[RelationshipRead](items=items, next_cursor=next_cursor)
