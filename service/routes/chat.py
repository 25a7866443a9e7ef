"""A player talks to an agent. The model is called inside the request (a player is waiting),
bounded by the model timeout and answered by the offline mind if the model fails."""

from __future__ import annotations

import uuid
from datetime import datetime

from fastapi import APIRouter, Request
from sqlalchemy.orm import Session

from cognition.chat import own_line, player_claim, player_label, reply_to_player
from cognition.dialogue import Speaker
from cognition.types import Memory
from db.audit import recorded_calls
from db.models import Agent, Conversation
from db.queries.agents import to_persona
from db.queries.conversations import (
    append_utterance,
    end_conversation,
    find_conversation,
    history,
    open_conversation,
    relationship_summary,
)
from db.queries.memories import add_memories
from db.queries.step import current_actions
from db.queries.worlds import game_now
from db.store import PgMemoryStore, world_store
from service.deps import (
    CurrentAgent,
    CurrentWorld,
    EmbedderDep,
    MindDep,
    SessionDep,
    SessionFactoryDep,
    SettingsDep,
)
from service.enqueue import enqueue_enrichment
from service.errors import ERROR_RESPONSES, ApiError, errors
from service.schemas.chat import ChatRequest, ChatResponse, UsedMemory

router = APIRouter(
    prefix="/v1/worlds/{world_id}/agents/{agent_id}", tags=["game"], responses=ERROR_RESPONSES
)


def used(memories: list[Memory]) -> list[UsedMemory]:
    return [UsedMemory(id=m.id, kind=m.kind.value, description=m.description) for m in memories]


@router.post("/chat", response_model=ChatResponse, responses=errors(409),
             summary="A player speaks to the agent")  # fmt: skip
def chat(
    body: ChatRequest,
    world: CurrentWorld,
    agent: CurrentAgent,
    session: SessionDep,
    sessions: SessionFactoryDep,
    settings: SettingsDep,
    mind: MindDep,
    embedder: EmbedderDep,
    request: Request,
) -> ChatResponse:
    """The reply is grounded in retrieved memories (returned); both lines are remembered, the
    player's as the player's claim."""
    now, label = game_now(world), player_label(body.player, body.persona)
    conversation = _conversation(session, body, world_id=world.id, agent=agent, at=now)
    store = world_store(
        session, world=world, agent_id=agent.id, embedder=embedder, settings=settings
    )
    speaker = _speaker(session, agent, store, label=label, now=now)
    earlier = history(session, conversation.id)
    with recorded_calls(sessions, world_id=world.id, agent_id=agent.id, game_time=now) as audit:
        line = reply_to_player(
            agent=speaker,
            label=label,
            message=body.message,
            history=earlier,
            mind=mind.with_audit(audit),
            now=now,
        )
    append_utterance(
        session, conversation_id=conversation.id, text=body.message, at=now, speaker_player=label
    )
    append_utterance(
        session, conversation_id=conversation.id, text=line.text, at=now, speaker_agent_id=agent.id
    )
    heard, said = add_memories(
        session,
        world_id=world.id,
        agent_id=agent.id,
        now=now,
        items=[
            player_claim(label=label, agent_name=agent.name, message=body.message, now=now),
            own_line(agent_name=agent.name, label=label, text=line.text, now=now),
        ],
    )
    if line.ends:
        end_conversation(session, conversation, at=now)
    session.commit()
    enqueue_enrichment(request.app.state.celery, [heard.id, said.id])
    return ChatResponse(
        conversation_id=conversation.id,
        reply=line.text,
        ends=line.ends,
        memories=used(store.get(line.memory_ids)),
        player_memory_id=heard.id,
        reply_memory_id=said.id,
    )


def _speaker(
    session: Session, agent: Agent, store: PgMemoryStore, *, label: str, now: datetime
) -> Speaker:
    """The agent as it speaks now: its summary, how it sees the player, what it is doing."""
    current = current_actions(session, [agent.id], now).get(agent.id)
    return Speaker(
        persona=to_persona(agent),
        summary=agent.summary or "",
        store=store,
        relationship=relationship_summary(session, agent_id=agent.id, other_name=label),
        intent=current.description if current is not None else "",
    )


def _conversation(
    session: Session, body: ChatRequest, *, world_id: uuid.UUID, agent: Agent, at: datetime
) -> Conversation:
    if body.conversation_id is None:
        label = player_label(body.player, body.persona)
        return open_conversation(
            session,
            world_id=world_id,
            initiator_id=agent.id,
            partner_player=label,
            topic=body.message,
            at=at,
        )
    found = find_conversation(session, conversation_id=body.conversation_id, agent_id=agent.id)
    if found is None or found.partner_player is None:
        raise ApiError(
            404,
            "not_found",
            f"no chat {body.conversation_id} with this agent",
            field="body.conversation_id",
        )
    if found.status != "open":
        raise ApiError(
            409,
            "conflict",
            "that conversation has ended; start a new one",
            field="body.conversation_id",
        )
    return found
