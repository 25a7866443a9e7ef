"""Two agents talking (fast queue): `hearth.converse` opens, `hearth.converse_turn` speaks one
line, `hearth.end_conversation` closes and updates how each sees the other.

One job per turn, not one job for the whole conversation: a turn is one model call, so no job
holds a fast worker for the length of eight; each line is committed (and announced as an
`utterance` event) as soon as it is said, which is what lets a game show speech bubbles while
the talk goes on; and a redelivered turn repeats at most one call, its result key being
`utterances (conversation_id, seq)`, checked under the conversation's row lock before the
model is asked. The conversation ends when a side ends it, a line comes back blank, or at the
cap (`cognition.dialogue.DEFAULT_MAX_TURNS`).

Coherence: the initiator speaks with the intent of its reaction (the conversation's topic,
the very `what` of its plan item); the partner with its current plan item
(`cognition.dialogue.speaking_intent`).
"""

from __future__ import annotations

import uuid

from celery import shared_task
from sqlalchemy.orm import Session

from cognition import dialogue
from cognition.types import Turn
from db.audit import recorded_calls
from db.job_store import JobStore
from db.models import Agent, Conversation, World
from db.queries import conversations
from db.queries.agents import to_persona
from db.queries.events import emit
from db.queries.plans import current_action, to_item
from db.queries.relationships import set_relationship
from db.queries.worlds import game_now
from workers.runtime import Runtime, get_runtime, session_scope
from workers.tasks.base import RETRY_POLICY
from workers.tasks.scope import enrich_later, store_of

CONVERSE = "hearth.converse"
TURN = "hearth.converse_turn"
END = "hearth.end_conversation"


def converse_key(decision_id: int) -> str:
    return f"converse:{decision_id}"


def turn_key(conversation_id: int, seq: int) -> str:
    return f"converse_turn:{conversation_id}:{seq}"


def end_key(conversation_id: int) -> str:
    return f"end_conversation:{conversation_id}"


@shared_task(name=CONVERSE, **RETRY_POLICY)
def converse(
    world_id: str, initiator_id: str, partner_id: str, intent: str, decision_id: int
) -> dict[str, object]:
    """Open the conversation decision `decision_id` asked for (once), and let it begin."""
    runtime = get_runtime()
    with session_scope() as session:
        world = session.get(World, uuid.UUID(world_id))
        if world is None:
            return {"conversation_id": None}
        opened = conversations.open_for_decision(
            session,
            world_id=world.id,
            initiator_id=uuid.UUID(initiator_id),
            partner_id=uuid.UUID(partner_id),
            topic=intent,
            decision_id=decision_id,
            at=game_now(world),
        )
        if opened is None:
            return {"conversation_id": None}  # one of them is talking to someone else
        conversation = opened[0]
        is_open = conversation.status == "open"
        next_seq = conversations.spoken(session, conversation.id) + 1
    if is_open:
        runtime.dispatch.send(
            TURN, [conversation.id, next_seq], key=turn_key(conversation.id, next_seq)
        )
    return {"conversation_id": conversation.id}


@shared_task(name=TURN, **RETRY_POLICY)
def converse_turn(conversation_id: int, seq: int) -> dict[str, object]:
    """Say line `seq` of an open conversation, once."""
    runtime = get_runtime()
    with session_scope() as session:
        conversation = conversations.locked(session, conversation_id)
        if conversation is None or conversation.status != "open":
            return {"spoken": False}
        said = conversations.history(session, conversation_id)
        if len(said) != seq - 1 or conversation.partner_agent_id is None:
            return {"spoken": False}  # said already (a redelivery), or not an agent's talk
        speaker, listener = _sides(session, conversation, seq)
        world, side, store = _speaker(runtime, session, conversation, speaker, listener)
        now = game_now(world)
        with recorded_calls(
            runtime.sessions, world_id=world.id, agent_id=speaker.id, game_time=now
        ) as sink:
            line = dialogue.turn(
                speaker=side,
                listener=listener.name,
                history=said,
                now=now,
                mind=runtime.mind.with_audit(sink),
            )
        store.finish()
        written = _say(session, conversation, seq, speaker, listener, line) if line.text else []
        over = line.ends or seq >= dialogue.DEFAULT_MAX_TURNS
    enrich_later(runtime, conversation.world_id, written)
    if over:
        runtime.dispatch.send(END, [conversation_id], key=end_key(conversation_id))
    else:
        runtime.dispatch.send(
            TURN, [conversation_id, seq + 1], key=turn_key(conversation_id, seq + 1)
        )
    return {"spoken": bool(line.text), "over": over}


@shared_task(name=END, **RETRY_POLICY)
def end_conversation(conversation_id: int) -> dict[str, object]:
    """End an open conversation: each side's relationship summary and sentiment, then closed."""
    runtime = get_runtime()
    with session_scope() as session:
        conversation = conversations.locked(session, conversation_id)
        if conversation is None or conversation.status != "open":
            return {"ended": False}
        if conversation.partner_agent_id is None:
            return {"ended": False}
        world = session.get_one(World, conversation.world_id)
        now = game_now(world)
        initiator = session.get_one(Agent, conversation.initiator_id)
        partner = session.get_one(Agent, conversation.partner_agent_id)
        for me, other in ((initiator, partner), (partner, initiator)):
            _reconsider(runtime, session, world, me, other)
        conversations.end_conversation(session, conversation, at=now)
        emit(
            session,
            world_id=world.id,
            type="conversation_ended",
            payload={
                "conversation_id": conversation_id,
                "topic": conversation.topic,
                "agent_ids": [str(initiator.id), str(partner.id)],
                "turns": conversations.spoken(session, conversation_id),
            },
        )
    return {"ended": True}


def _sides(session: Session, conversation: Conversation, seq: int) -> tuple[Agent, Agent]:
    """The initiator speaks the odd lines, the partner the even ones."""
    initiator = session.get_one(Agent, conversation.initiator_id)
    partner = session.get_one(Agent, conversation.partner_agent_id)
    return (initiator, partner) if seq % 2 == 1 else (partner, initiator)


def _speaker(
    runtime: Runtime, session: Session, conversation: Conversation, me: Agent, other: Agent
) -> tuple[World, dialogue.Speaker, JobStore]:
    world = session.get_one(World, conversation.world_id)
    if me.id == conversation.initiator_id:
        intent = conversation.topic
    else:
        current = current_action(session, agent_id=me.id, at=game_now(world))
        intent = dialogue.speaking_intent(current=to_item(current) if current else None)
    store = store_of(runtime, session, world, me.id)
    side = dialogue.Speaker(
        persona=to_persona(me),
        summary=me.summary or "",
        store=store,
        intent=intent,
        relationship=conversations.relationship_summary(
            session, agent_id=me.id, other_name=other.name
        ),
    )
    return world, side, store


def _say(
    session: Session,
    conversation: Conversation,
    seq: int,
    speaker: Agent,
    listener: Agent,
    line: Turn,
) -> list[int]:
    """Store the line, as a memory of both, and announce it."""
    conversations.append_utterance(
        session,
        conversation_id=conversation.id,
        text=line.text,
        at=line.spoken_at,
        speaker_agent_id=speaker.id,
        seq=seq,
    )
    memories = conversations.remember_utterance(
        session, conversation=conversation, speaker=speaker, listener=listener, turn=line
    )
    emit(
        session,
        world_id=conversation.world_id,
        type="utterance",
        payload={
            "conversation_id": conversation.id,
            "seq": seq,
            "agent_id": str(speaker.id),
            "name": speaker.name,
            "listener_id": str(listener.id),
            "text": line.text,
            "ends": line.ends,
        },
    )
    return [m.id for m in memories]


def _reconsider(runtime: Runtime, session: Session, world: World, me: Agent, other: Agent) -> None:
    """How `me` now sees `other`, from what it remembers of them (history kept)."""
    now = game_now(world)
    store = store_of(runtime, session, world, me.id)
    with recorded_calls(runtime.sessions, world_id=world.id, agent_id=me.id, game_time=now) as sink:
        view = dialogue.reflect_on_relationship(
            store, runtime.mind.with_audit(sink), name=me.name, other=other.name, now=now
        )
    store.finish()
    set_relationship(
        session,
        agent_id=me.id,
        other_name=other.name,
        other_agent_id=other.id,
        summary=view.summary,
        sentiment=view.sentiment,
        at=now,
    )
