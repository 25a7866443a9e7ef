"""A player talks to an agent (`db.flows.player_chat`). The model is called inside the request
(a player is waiting), bounded by the model timeout and answered by the offline mind if the
model fails."""

from __future__ import annotations

from fastapi import APIRouter

from cognition.types import Memory
from db.flows import player_chat
from service.deps import CurrentAgent, CurrentWorld, FacultiesDep, SessionDep
from service.enqueue import enqueue, enrichment
from service.errors import ERROR_RESPONSES, ApiError, errors
from service.schemas.chat import ChatRequest, ChatResponse, UsedMemory

router = APIRouter(
    prefix="/v1/worlds/{world_id}/agents/{agent_id}", tags=["game"], responses=ERROR_RESPONSES
)


def used(memories: list[Memory]) -> list[UsedMemory]:
    return [UsedMemory(id=m.id, kind=m.kind.value, description=m.description) for m in memories]


@router.post(
    "/chat",
    response_model=ChatResponse,
    responses=errors(409),
    summary="A player speaks to the agent",
)
def chat(
    body: ChatRequest,
    world: CurrentWorld,
    agent: CurrentAgent,
    session: SessionDep,
    faculties: FacultiesDep,
) -> ChatResponse:
    """The reply is grounded in retrieved memories (returned); both lines are remembered, the
    player's as the player's claim."""
    try:
        reply = player_chat.reply(
            session,
            faculties,
            world=world,
            agent=agent,
            player=body.player,
            persona=body.persona,
            message=body.message,
            conversation_id=body.conversation_id,
        )
    except player_chat.UnknownChat as exc:
        raise ApiError(404, "not_found", str(exc), field="body.conversation_id") from exc
    except player_chat.ChatEnded as exc:
        raise ApiError(409, "conflict", str(exc), field="body.conversation_id") from exc
    enqueue(session, enrichment([reply.heard_id, reply.said_id]))
    session.commit()
    return ChatResponse(
        conversation_id=reply.conversation_id,
        reply=reply.line.text,
        ends=reply.line.ends,
        memories=used(reply.used),
        player_memory_id=reply.heard_id,
        reply_memory_id=reply.said_id,
    )
