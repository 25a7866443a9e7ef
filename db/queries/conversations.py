"""Conversations and their utterances, for agent↔agent dialogue and player chat alike.

An utterance's `seq` is unique per conversation, so a retried turn cannot be stored twice:
`append_utterance` with a seq already taken does nothing.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session, aliased

from cognition.dialogue import said_memory
from cognition.types import MemoryKind, MemorySource, Turn
from db import locks
from db.models import Agent, Conversation, Memory, Relationship, Utterance
from db.queries.memories import add_for_agents


def open_conversation(
    session: Session,
    *,
    world_id: uuid.UUID,
    initiator_id: uuid.UUID,
    partner_agent_id: uuid.UUID | None = None,
    partner_player: str | None = None,
    topic: str = "",
    at: datetime,
) -> Conversation:
    conversation = Conversation(
        world_id=world_id,
        initiator_id=initiator_id,
        partner_agent_id=partner_agent_id,
        partner_player=partner_player,
        topic=topic,
        started_at=at,
    )
    session.add(conversation)
    session.flush()
    return conversation


def find_conversation(
    session: Session, *, conversation_id: int, agent_id: uuid.UUID
) -> Conversation | None:
    """A conversation the agent takes part in (as initiator or partner)."""
    return session.scalar(
        sa.select(Conversation).where(
            Conversation.id == conversation_id,
            sa.or_(
                Conversation.initiator_id == agent_id, Conversation.partner_agent_id == agent_id
            ),
        )
    )


def history(session: Session, conversation_id: int) -> list[Turn]:
    """The turns so far, in order, with speakers by name (agent name or player label)."""
    speaker = sa.func.coalesce(Agent.name, Utterance.speaker_player)
    rows = session.execute(
        sa.select(speaker.label("speaker"), Utterance.text, Utterance.spoken_at)
        .outerjoin(Agent, Agent.id == Utterance.speaker_agent_id)
        .where(Utterance.conversation_id == conversation_id)
        .order_by(Utterance.seq)
    )
    return [
        Turn(speaker=r.speaker, text=r.text, spoken_at=r.spoken_at, ends=False, memory_ids=())
        for r in rows
    ]


def append_utterance(
    session: Session,
    *,
    conversation_id: int,
    text: str,
    at: datetime,
    speaker_agent_id: uuid.UUID | None = None,
    speaker_player: str | None = None,
    seq: int | None = None,
) -> int | None:
    """Store the next line (or line `seq`); None when that seq is already stored."""
    if seq is None:
        last = session.scalar(
            sa.select(sa.func.max(Utterance.seq)).where(
                Utterance.conversation_id == conversation_id
            )
        )
        seq = (last or 0) + 1
    statement = (
        insert(Utterance)
        .values(
            conversation_id=conversation_id,
            seq=seq,
            text=text,
            spoken_at=at,
            speaker_agent_id=speaker_agent_id,
            speaker_player=speaker_player,
        )
        .on_conflict_do_nothing(index_elements=[Utterance.conversation_id, Utterance.seq])
        .returning(Utterance.id)
    )
    return session.scalar(statement)


def end_conversation(session: Session, conversation: Conversation, *, at: datetime) -> None:
    conversation.status = "ended"
    conversation.ended_at = at
    session.flush()


def relationship_summary(session: Session, *, agent_id: uuid.UUID, other_name: str) -> str:
    """How the agent currently sees the other ("" when they have never met)."""
    summary = session.scalar(
        sa.select(Relationship.summary).where(
            Relationship.agent_id == agent_id, Relationship.other_name == other_name
        )
    )
    return summary or ""


def talked_before(
    session: Session, conversation: Conversation, one: uuid.UUID, other: uuid.UUID
) -> bool:
    """Whether the two agents had a conversation that began before this one, either way."""
    pair = sa.or_(
        sa.and_(Conversation.initiator_id == one, Conversation.partner_agent_id == other),
        sa.and_(Conversation.initiator_id == other, Conversation.partner_agent_id == one),
    )
    earlier = sa.select(Conversation.id).where(
        pair, Conversation.id != conversation.id, Conversation.started_at <= conversation.started_at
    )
    return session.scalar(sa.select(earlier.exists())) or False


# --- agent↔agent conversations opened by a reaction (workers/tasks/conversations.py) -------


def open_for_decision(
    session: Session,
    *,
    world_id: uuid.UUID,
    initiator_id: uuid.UUID,
    partner_id: uuid.UUID,
    topic: str,
    decision_id: int,
    at: datetime,
) -> tuple[Conversation, bool] | None:
    """The conversation a reaction opens, unique by `decision_id`: (it, whether this call
    opened it); None if either side is already in an open conversation (checked under a
    per-world lock, so one agent is never pulled into two at once)."""
    opened = session.scalar(sa.select(Conversation).where(Conversation.decision_id == decision_id))
    if opened is not None:
        return opened, False
    locks.hold(session, f"conversations:{world_id}")
    if busy(session, [initiator_id, partner_id]):
        return None
    conversation_id = session.scalar(
        insert(Conversation)
        .values(
            world_id=world_id,
            initiator_id=initiator_id,
            partner_agent_id=partner_id,
            topic=topic,
            status="open",
            started_at=at,
            decision_id=decision_id,
        )
        .on_conflict_do_nothing(index_elements=[Conversation.decision_id])
        .returning(Conversation.id)
    )
    if conversation_id is None:  # a concurrent delivery of the same decision opened it
        opened = session.scalar(
            sa.select(Conversation).where(Conversation.decision_id == decision_id)
        )
        return (opened, False) if opened is not None else None
    return session.get_one(Conversation, conversation_id), True


def busy(session: Session, agent_ids: Sequence[uuid.UUID]) -> bool:
    """Whether any of these agents is in an open conversation."""
    ids = list(agent_ids)
    involved = sa.or_(Conversation.initiator_id.in_(ids), Conversation.partner_agent_id.in_(ids))
    query = sa.select(Conversation.id).where(Conversation.status == "open", involved)
    return session.scalar(query.limit(1)) is not None


def locked(session: Session, conversation_id: int) -> Conversation | None:
    """The conversation, row-locked until the transaction ends: the turns of one conversation
    are spoken one at a time, and a duplicate turn job waits, then finds its line spoken."""
    query = sa.select(Conversation).where(Conversation.id == conversation_id).with_for_update()
    return session.scalars(query.execution_options(populate_existing=True)).one_or_none()


def remember_utterance(
    session: Session, *, conversation: Conversation, speaker: Agent, listener: Agent, turn: Turn
) -> list[Memory]:
    """A spoken line as an utterance memory of both participants."""
    memory = said_memory(
        speaker.name, listener.name, turn.text, at=turn.spoken_at, source=MemorySource.AGENT
    )
    return add_for_agents(
        session,
        world_id=conversation.world_id,
        items=[(speaker.id, memory), (listener.id, memory)],
        now=turn.spoken_at,
        dedupe=True,
    )


def stale_open(session: Session, *, world_ids: Sequence[uuid.UUID], before: datetime) -> list[int]:
    """Agent↔agent conversations still open that began before `before` (their last job was
    lost): the sweep ends them, so their agents can talk again."""
    if not world_ids:
        return []
    query = sa.select(Conversation.id).where(
        Conversation.world_id.in_(list(world_ids)),
        Conversation.status == "open",
        Conversation.partner_agent_id.is_not(None),
        Conversation.started_at < before,
    )
    return list(session.scalars(query))


def spoken(session: Session, conversation_id: int) -> int:
    """How many lines the conversation holds."""
    query = sa.select(sa.func.count()).where(Utterance.conversation_id == conversation_id)
    return int(session.scalar(query) or 0)


def utterance_memories(
    session: Session, conversation: Conversation, agent_id: uuid.UUID
) -> list[int]:
    """The agent's utterance memories of this conversation's lines, in order."""
    lines = history(session, conversation.id)
    if not lines:
        return []
    texts = [line.text for line in lines]
    query = (
        sa.select(Memory.id)
        .where(
            Memory.agent_id == agent_id,
            Memory.kind == MemoryKind.UTTERANCE.value,
            Memory.created_at >= conversation.started_at,
            Memory.object.in_(texts),
        )
        .order_by(Memory.created_at, Memory.id)
    )
    return list(session.scalars(query))


def due_lines(
    session: Session, *, world_id: uuid.UUID, now: datetime, line: timedelta
) -> tuple[list[tuple[int, int]], list[int]]:
    """Open agent conversations of a world: (id, seq) of each next line whose time has come,
    and the ids of those whose closing line was said (to be ended)."""
    spoken_count = (
        sa.select(sa.func.count())
        .where(Utterance.conversation_id == Conversation.id)
        .scalar_subquery()
    )
    rows = session.execute(
        sa.select(Conversation.id, Conversation.started_at, Conversation.last_seq, spoken_count)
        .where(
            Conversation.world_id == world_id,
            Conversation.status == "open",
            Conversation.partner_agent_id.is_not(None),
        )
        .order_by(Conversation.id)
    ).all()
    lines: list[tuple[int, int]] = []
    closing: list[int] = []
    for conversation_id, started, last_seq, said in rows:
        if last_seq is not None:
            closing.append(conversation_id)
        elif started + said * line <= now:
            lines.append((conversation_id, said + 1))
    return lines, closing


# --- reading an agent's conversations (the inspector, `GET …/agents/{a}/conversations`) -------


@dataclass(frozen=True)
class Line:
    seq: int
    speaker: str
    speaker_agent_id: uuid.UUID | None
    text: str
    spoken_at: datetime


@dataclass(frozen=True)
class Transcript:
    """A conversation as a reader sees it: who took part, by name, and every line in order."""

    conversation: Conversation
    initiator: str
    partner: str
    lines: list[Line]


def agent_transcripts(
    session: Session, *, agent_id: uuid.UUID, before: tuple[datetime, int] | None, limit: int
) -> list[Transcript]:
    """A page of the conversations the agent took part in, newest first by (started_at, id);
    `before` is the previous page's last. Two queries whatever the page size."""
    initiator, partner = aliased(Agent), aliased(Agent)
    query = (
        sa.select(
            Conversation,
            initiator.name,
            sa.func.coalesce(partner.name, Conversation.partner_player),
        )
        .join(initiator, initiator.id == Conversation.initiator_id)
        .outerjoin(partner, partner.id == Conversation.partner_agent_id)
        .where(
            sa.or_(Conversation.initiator_id == agent_id, Conversation.partner_agent_id == agent_id)
        )
    )
    if before is not None:
        query = query.where(
            sa.tuple_(Conversation.started_at, Conversation.id) < sa.tuple_(*before)
        )
    query = query.order_by(Conversation.started_at.desc(), Conversation.id.desc()).limit(limit)
    rows = session.execute(query).all()
    lines = _lines(session, [conversation.id for conversation, _, _ in rows])
    return [
        Transcript(conversation, first, second or "", lines.get(conversation.id, []))
        for conversation, first, second in rows
    ]


def _lines(session: Session, conversation_ids: Sequence[int]) -> dict[int, list[Line]]:
    if not conversation_ids:
        return {}
    speaker = sa.func.coalesce(Agent.name, Utterance.speaker_player)
    query = (
        sa.select(Utterance, speaker)
        .outerjoin(Agent, Agent.id == Utterance.speaker_agent_id)
        .where(Utterance.conversation_id.in_(list(conversation_ids)))
        .order_by(Utterance.conversation_id, Utterance.seq)
    )
    found: dict[int, list[Line]] = {}
    for utterance, name in session.execute(query):
        found.setdefault(utterance.conversation_id, []).append(
            Line(
                utterance.seq,
                name or "",
                utterance.speaker_agent_id,
                utterance.text,
                utterance.spoken_at,
            )
        )
    return found
