"""The paper's "inner voice": an admin tells an agent something it will take as its own
thought ("You are going to run for town council"). It is a `directive` memory from `admin`,
written at the world's game time, retrieved like any other memory."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from cognition.types import MemoryKind, MemorySource, NewMemory
from db.queries.events import emit
from db.queries.memories import add_memories
from db.queries.worlds import game_now
from service.deps import CurrentAgent, CurrentWorld, IdempotencyDep, SessionDep
from service.enqueue import enqueue, enrichment
from service.errors import ERROR_RESPONSES
from service.idempotency import run_once
from service.routes.memories import memory_read
from service.schemas.common import RequestModel, RequiredText
from service.schemas.memories import MemoryRead

router = APIRouter(
    prefix="/v1/worlds/{world_id}/agents/{agent_id}/inner-voice",
    tags=["agents"],
    responses=ERROR_RESPONSES,
)


class InnerVoice(RequestModel):
    text: RequiredText


@router.post(
    "",
    status_code=201,
    response_model=MemoryRead,
    summary="Speak to an agent as its inner voice (a directive memory)",
)
def speak(
    body: InnerVoice,
    world: CurrentWorld,
    agent: CurrentAgent,
    idempotency: IdempotencyDep,
    session: SessionDep,
) -> JSONResponse:
    def make() -> tuple[int, MemoryRead]:
        thought = NewMemory(
            description=body.text, kind=MemoryKind.DIRECTIVE, source=MemorySource.ADMIN
        )
        [row] = add_memories(
            session, world_id=world.id, agent_id=agent.id, items=[thought], now=game_now(world)
        )
        enqueue(session, enrichment([row.id]))
        emit(
            session,
            world_id=world.id,
            type="inner_voice",
            payload={
                "agent_id": str(agent.id),
                "name": agent.name,
                "memory_id": row.id,
                "text": body.text,
            },
        )
        return 201, memory_read(row)

    return run_once(session, idempotency, body=body, world_id=world.id, create=make)
