"""A player talks to an agent: the model is called inside the request (a player is waiting),
bounded by the model timeout and answered by the offline mind if the model fails. Both lines
are remembered, the player's as the player's claim (`cognition.player_chat`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from cognition.dialogue import Speaker
from cognition.errors import HearthError, NotFound
from cognition.focus import Focus
from cognition.player_chat import own_line, player_claim, player_label, reply_to_player
from cognition.store import MemoryStore
from cognition.types import Memory, Turn
from db.flows.faculties import Faculties
from db.models import Agent, Conversation, World
from db.queries import conversations
from db.queries.agents import to_persona
from db.queries.memories import add_memories
from db.queries.plans import current_action
from db.queries.worlds import game_now


class UnknownChat(NotFound):
    """No chat by that id between a player and this agent."""


class ChatEnded(HearthError):
    """The chat asked to continue has ended; a new one must be started."""


@dataclass(frozen=True)
class PlayerReply:
    conversation_id: int
    line: Turn
    used: list[Memory]
    """The memories the agent retrieved to answer."""
    heard_id: int
    """The player's line, stored as the player's claim."""
    said_id: int


def reply(
    session: Session,
    faculties: Faculties,
    *,
    world: World,
    agent: Agent,
    player: str,
    persona: str,
    message: str,
    conversation_id: int | None,
) -> PlayerReply:
    """The agent's answer to the player's `message`, in a new chat or the open one asked for;
    both lines are stored and remembered, and the chat ends if the agent ends it."""
    now, label = game_now(world), player_label(player, persona)
    conversation = _conversation(session, world, agent, label, message, conversation_id, now)
    store = faculties.store(session, world, agent.id)
    speaker = _speaker(session, agent, store, label=label, now=now)
    earlier = conversations.history(session, conversation.id)
    # Someone is waiting for these words: the agent is in focus for them, marked or not.
    focused = Focus.FOCUSED
    with faculties.thinking(world=world, agent_id=agent.id, game_time=now, focus=focused) as mind:
        line = reply_to_player(
            agent=speaker, label=label, message=message, history=earlier, mind=mind, now=now
        )
    conversations.append_utterance(
        session, conversation_id=conversation.id, text=message, at=now, speaker_player=label
    )
    conversations.append_utterance(
        session, conversation_id=conversation.id, text=line.text, at=now, speaker_agent_id=agent.id
    )
    heard, said = add_memories(
        session,
        world_id=world.id,
        agent_id=agent.id,
        now=now,
        items=[
            player_claim(label=label, agent_name=agent.name, message=message, now=now),
            own_line(agent_name=agent.name, label=label, text=line.text, now=now),
        ],
    )
    if line.ends:
        conversations.end_conversation(session, conversation, at=now)
    used = store.get(line.memory_ids)
    return PlayerReply(conversation.id, line, used, heard_id=heard.id, said_id=said.id)


def _speaker(
    session: Session, agent: Agent, store: MemoryStore, *, label: str, now: datetime
) -> Speaker:
    """The agent as it speaks now: its summary, how it sees the player, what it is doing."""
    current = current_action(session, agent_id=agent.id, at=now)
    return Speaker(
        persona=to_persona(agent),
        summary=agent.summary or "",
        store=store,
        relationship=conversations.relationship_summary(
            session, agent_id=agent.id, other_name=label
        ),
        intent=current.description if current is not None else "",
    )


def _conversation(
    session: Session,
    world: World,
    agent: Agent,
    label: str,
    message: str,
    conversation_id: int | None,
    now: datetime,
) -> Conversation:
    """A new chat opened by the player's first message, or the open one asked for."""
    if conversation_id is None:
        return conversations.open_conversation(
            session,
            world_id=world.id,
            initiator_id=agent.id,
            partner_player=label,
            topic=message,
            at=now,
        )
    found = conversations.find_conversation(
        session, conversation_id=conversation_id, agent_id=agent.id
    )
    if found is None or found.partner_player is None:
        raise UnknownChat(f"no chat {conversation_id} with this agent")
    if found.status != "open":
        raise ChatEnded("that conversation has ended; start a new one")
    return found
