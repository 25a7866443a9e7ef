"""An agent's conversations as transcripts (agent↔agent and player chat), newest first."""

from __future__ import annotations

from fastapi import APIRouter

from db.queries.conversations import Transcript, agent_transcripts
from service.deps import CurrentAgent, SessionDep
from service.errors import ERROR_RESPONSES
from service.pagination import (
    DEFAULT_PAGE_SIZE,
    CursorQuery,
    LimitQuery,
    decode_cursor,
    encode_cursor,
    time_and_int,
)
from service.schemas.common import Page
from service.schemas.conversations import ConversationRead, LineRead

router = APIRouter(
    prefix="/v1/worlds/{world_id}/agents/{agent_id}",
    tags=["conversations"],
    responses=ERROR_RESPONSES,
)


@router.get(
    "/conversations",
    response_model=Page[ConversationRead],
    summary="The agent's conversations, every line (cursor pages, newest first)",
)
def index(
    agent: CurrentAgent,
    session: SessionDep,
    limit: LimitQuery = DEFAULT_PAGE_SIZE,
    cursor: CursorQuery = None,
) -> Page[ConversationRead]:
    before = decode_cursor(cursor, time_and_int)
    rows = agent_transcripts(session, agent_id=agent.id, before=before, limit=limit + 1)
    page, more = rows[:limit], len(rows) > limit
    last = page[-1].conversation if more else None
    next_cursor = encode_cursor([last.started_at.isoformat(), last.id]) if last else None
    return Page[ConversationRead](items=[_read(t) for t in page], next_cursor=next_cursor)


def _read(transcript: Transcript) -> ConversationRead:
    c = transcript.conversation
    return ConversationRead(
        id=c.id,
        initiator_id=c.initiator_id,
        initiator=transcript.initiator,
        partner_agent_id=c.partner_agent_id,
        partner=transcript.partner,
        topic=c.topic,
        status=c.status,
        started_at=c.started_at,
        ended_at=c.ended_at,
        lines=[LineRead.model_validate(line, from_attributes=True) for line in transcript.lines],
    )
