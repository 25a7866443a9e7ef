"""`GET /v1/worlds/{id}/events`: the world's event log as Server-Sent Events.

Each event is a row of `events`: `id:` is its id, `event:` its type, `data:` its JSON payload.
The stream starts after `Last-Event-ID` (what a reconnecting EventSource sends) or `?after=`,
and polls the table every POLL_INTERVAL_S; ids become visible in order (see
`db.queries.events`), so resuming after the last id seen loses and repeats nothing. A comment
line every KEEPALIVE_S keeps proxies from closing an idle stream. `?once=true` sends what is
there and closes, for scripts and tests. No Redis: the database is the log.

The stream holds no database connection between polls: the request's session is closed once
the caller is authorised, and each poll borrows a connection for one query.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Header, Query, Request
from sqlalchemy.orm import Session, sessionmaker
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.concurrency import run_in_threadpool

from db.queries.events import DEFAULT_BATCH, events_after
from service.deps import CurrentWorld, SessionDep
from service.errors import ERROR_RESPONSES, ApiError
from service.schemas.common import MAX_ID

POLL_INTERVAL_S = 0.5
"""How stale a live stream may be; one indexed query per open stream per interval."""
KEEPALIVE_S = 15.0

router = APIRouter(prefix="/v1/worlds/{world_id}", tags=["events"], responses=ERROR_RESPONSES)

SSE_RESPONSE: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "`text/event-stream`: `id:` event id, `event:` type, `data:` JSON payload",
        "content": {"text/event-stream": {"schema": {"type": "string"}}},
    }
}


@router.get(
    "/events",
    response_class=EventSourceResponse,
    responses=SSE_RESPONSE,
    summary="Stream the world's events (SSE; resume with Last-Event-ID)",
)
async def stream(
    world: CurrentWorld,
    session: SessionDep,
    request: Request,
    after: Annotated[
        int | None, Query(ge=0, le=MAX_ID, description="start after this event id")
    ] = None,
    once: Annotated[bool, Query(description="send what is there, then close")] = False,
    last_event_id: Annotated[
        str | None,
        Header(
            alias="Last-Event-ID",
            max_length=20,
            pattern=r"^[0-9]*$",
            description="resume after this event id (wins over `after`); empty: from the start",
        ),
    ] = None,
) -> EventSourceResponse:
    start = _resume_point(last_event_id, after)
    world_id = world.id
    await run_in_threadpool(session.close)
    events = _events(request.app.state.sessions, world_id, after=start, once=once)
    return EventSourceResponse(events, ping=KEEPALIVE_S)


def _resume_point(last_event_id: str | None, after: int | None) -> int:
    """The header wins: a browser's EventSource resends the URL's `after` on every reconnect.
    An empty header is "from the start" (an EventSource that has seen no event)."""
    if last_event_id is None:
        return after or 0
    if not last_event_id:
        return 0
    try:
        value = int(last_event_id)
        if not 0 <= value <= MAX_ID:
            raise ValueError
        return value
    except ValueError:
        raise ApiError(
            422,
            "validation_error",
            "Last-Event-ID must be an event id",
            field="header.Last-Event-ID",
        ) from None


async def _events(
    sessions: sessionmaker[Session], world_id: uuid.UUID, *, after: int, once: bool
) -> AsyncIterator[ServerSentEvent]:
    cursor = after
    while True:
        batch = await run_in_threadpool(_fetch, sessions, world_id, cursor)
        for event_id, kind, payload in batch:
            yield ServerSentEvent(id=str(event_id), event=kind, data=json.dumps(payload))
            cursor = event_id
        if len(batch) == DEFAULT_BATCH:
            continue
        if once:
            return
        await anyio.sleep(POLL_INTERVAL_S)


def _fetch(
    sessions: sessionmaker[Session], world_id: uuid.UUID, after: int
) -> list[tuple[int, str, dict[str, Any]]]:
    with sessions() as session:
        rows = events_after(session, world_id=world_id, after=after)
        return [(row.id, row.type, row.payload) for row in rows]
