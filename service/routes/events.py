"""`GET /v1/worlds/{id}/events`: the world's event log as Server-Sent Events.

Each event is a row of `events`: `id:` is its id, `event:` its type, `data:` its JSON payload.
The stream starts after `Last-Event-ID` (what a reconnecting EventSource sends) or `?after=`,
and polls the table every POLL_INTERVAL_S; ids become visible in order (see
`db.queries.events`), so resuming after the last id seen loses and repeats nothing. A comment
line every KEEPALIVE_S keeps proxies from closing an idle stream. `?once=true` sends what is
there and closes, for scripts and tests. No Redis: the database is the log.

Revocation is immediate: every KEY_CHECK_S an open stream asks whether its key is still
unrevoked and its world still there, and ends when not (a reconnecting client then gets 401
or 404). How many streams one key may hold open is capped (`service.key_slots`: 429 past
`HEARTH_MAX_STREAMS_PER_KEY`).

The stream holds no database connection between polls: the request's session is closed once
the caller is authorised, and each poll borrows a connection for one query.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import AsyncIterator
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Header, Query, Request
from sqlalchemy.orm import Session, sessionmaker
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.concurrency import run_in_threadpool

from db.queries.api_keys import still_reaches
from db.queries.events import DEFAULT_BATCH, events_after
from service.deps import CallerDep, CurrentWorld, SessionDep
from service.errors import ERROR_RESPONSES, ApiError
from service.schemas.common import MAX_ID

POLL_INTERVAL_S = 0.5
"""How stale a live stream may be; one indexed query per open stream per interval."""
KEEPALIVE_S = 15.0
KEY_CHECK_S = 2.0
"""How long a stream may outlive the revocation of its key or the deletion of its world."""

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
    caller: CallerDep,
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
    reader = _Reader(request.app.state.sessions, world_id, caller.key_id)
    events = _events(reader, after=start, once=once)
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


class _Reader:
    """One stream's reads: its world's events after a cursor, and whether its key still
    reaches the world (asked every KEY_CHECK_S, in the same borrowed connection)."""

    def __init__(
        self, sessions: sessionmaker[Session], world_id: uuid.UUID, key_id: uuid.UUID
    ) -> None:
        self.sessions, self.world_id, self.key_id = sessions, world_id, key_id
        self.checked = time.monotonic()

    def read(self, after: int) -> list[tuple[int, str, dict[str, Any]]] | None:
        """The next events, or None once the key is revoked or the world deleted."""
        with self.sessions() as session:
            if time.monotonic() - self.checked >= KEY_CHECK_S:
                if not still_reaches(session, self.key_id, self.world_id):
                    return None
                self.checked = time.monotonic()
            rows = events_after(session, world_id=self.world_id, after=after)
            return [(row.id, row.type, row.payload) for row in rows]


async def _events(reader: _Reader, *, after: int, once: bool) -> AsyncIterator[ServerSentEvent]:
    cursor = after
    while True:
        batch = await run_in_threadpool(reader.read, cursor)
        if batch is None:
            return  # revoked or deleted: the stream ends
        for event_id, kind, payload in batch:
            yield ServerSentEvent(id=str(event_id), event=kind, data=json.dumps(payload))
            cursor = event_id
        if len(batch) == DEFAULT_BATCH:
            continue
        if once:
            return
        await anyio.sleep(POLL_INTERVAL_S)
