"""Rows only the agents' own jobs write (reflections, plans, conversations, relationships,
model calls), written straight into the real database for tests that read them back."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from decimal import Decimal

from sqlalchemy.orm import Session

from cognition.types import PlanItem, PlanLevel
from db.models import Conversation, LlmCall, Memory, MemoryEvidence, Utterance
from db.queries.plans import save_items, supersede
from db.queries.relationships import set_relationship


def reflection(
    session: Session,
    *,
    world_id: uuid.UUID,
    agent_id: uuid.UUID,
    text: str,
    cites: Sequence[int],
    depth: int,
    at: datetime,
) -> int:
    row = Memory(world_id=world_id, agent_id=agent_id, kind="reflection", description=text,
                 created_at=at, last_accessed_at=at, importance=7, importance_scored=True,
                 content_hash="0" * 64, depth=depth, source="agent")  # fmt: skip
    session.add(row)
    session.flush()
    session.add_all(MemoryEvidence(reflection_id=row.id, evidence_id=i) for i in cites)
    session.flush()
    return row.id


def conversation(
    session: Session,
    *,
    world_id: uuid.UUID,
    initiator: uuid.UUID,
    partner: uuid.UUID | None = None,
    player: str | None = None,
    topic: str = "",
    lines: Sequence[tuple[uuid.UUID | str, str]],
    at: datetime,
    ended: bool = True,
) -> int:
    """`lines` are (speaker agent id, or a player's label, text), a minute apart."""
    talk = Conversation(world_id=world_id, initiator_id=initiator, partner_agent_id=partner,
                        partner_player=player, topic=topic, started_at=at,
                        status="ended" if ended else "open",
                        ended_at=at + timedelta(minutes=len(lines)) if ended else None)  # fmt: skip
    session.add(talk)
    session.flush()
    for seq, (speaker, text) in enumerate(lines, start=1):
        is_agent = isinstance(speaker, uuid.UUID)
        session.add(Utterance(conversation_id=talk.id, seq=seq, text=text,
                              speaker_agent_id=speaker if is_agent else None,
                              speaker_player=None if is_agent else str(speaker),
                              spoken_at=at + timedelta(minutes=seq - 1)))  # fmt: skip
    session.flush()
    return talk.id


def relationship(
    session: Session,
    *,
    agent_id: uuid.UUID,
    other: str,
    views: Sequence[tuple[str, int]],
    at: datetime,
    other_agent_id: uuid.UUID | None = None,
) -> None:
    """Each (summary, sentiment) replaces the one before an hour later: the last is current."""
    for hour, (summary, sentiment) in enumerate(views):
        set_relationship(session, agent_id=agent_id, other_name=other,
                         other_agent_id=other_agent_id, summary=summary, sentiment=sentiment,
                         at=at + timedelta(hours=hour))  # fmt: skip


def day_plan(session: Session, *, agent_id: uuid.UUID, day: datetime) -> dict[str, int]:
    """A day outline with hour chunks and tasks under its 8 am item, and a superseded
    afternoon replaced by a reaction: the shapes a plan timeline must show."""
    at = day.replace(hour=0, minute=0)
    days = save_items(session, agent_id=agent_id, level=PlanLevel.DAY, decided_at=at, items=[
        PlanItem(at, 7 * 60, "sleep", "Lin house: bedroom: bed", "😴"),
        PlanItem(at + timedelta(hours=7), 60, "wake up and get ready", "Lin house: bathroom", "🪥"),
        PlanItem(at + timedelta(hours=8), 4 * 60, "work at the cafe", "Hobbs Cafe: counter", "☕"),
        PlanItem(at + timedelta(hours=12), 6 * 60, "paint in the park", "park: bench", "🎨"),
        PlanItem(at + timedelta(hours=18), 6 * 60, "dinner, then read", "Lin house: kitchen", "📖"),
    ])  # fmt: skip
    hours = save_items(session, agent_id=agent_id, level=PlanLevel.HOUR, parent_id=days[2].id,
                       decided_at=at, items=[
        PlanItem(at + timedelta(hours=8), 60, "open the cafe", "Hobbs Cafe: counter", "🔑"),
        PlanItem(at + timedelta(hours=9), 180, "serve customers", "Hobbs Cafe: counter", "☕"),
    ])  # fmt: skip
    save_items(session, agent_id=agent_id, level=PlanLevel.TASK, parent_id=hours[0].id,
               decided_at=at, items=[
        PlanItem(at + timedelta(hours=8), 15, "unlock the door", "Hobbs Cafe", "🔑"),
        PlanItem(at + timedelta(hours=8, minutes=15), 30, "brew the first pot",
                 "Hobbs Cafe: counter: coffee machine", "☕", "brewing"),
        PlanItem(at + timedelta(hours=8, minutes=45), 15, "wipe the tables", "Hobbs Cafe", "🧽"),
    ])  # fmt: skip
    reaction = save_items(session, agent_id=agent_id, level=PlanLevel.DAY, decided_at=at,
                          items=[PlanItem(at + timedelta(hours=12), 60,
                                          "help Tomas carry boxes", "park", "📦")])  # fmt: skip
    supersede(session, plan_ids=[days[3].id], replacement_id=reaction[0].id)
    rest = save_items(session, agent_id=agent_id, level=PlanLevel.DAY, decided_at=at, items=[
        PlanItem(at + timedelta(hours=13), 5 * 60, "paint in the park", "park: bench", "🎨"),
    ])  # fmt: skip
    return {"superseded": days[3].id, "reaction": reaction[0].id, "rest": rest[0].id,
            "work": days[2].id}  # fmt: skip


def model_calls(
    session: Session,
    *,
    world_id: uuid.UUID,
    calls: Sequence[tuple[uuid.UUID | None, str, datetime, int]],
) -> None:
    """(agent, operation, game time, tokens in) each; tokens out are half, cost 1e-6 a token."""
    session.add_all(
        LlmCall(world_id=world_id, agent_id=agent, operation=operation, model="gpt-test",
                tokens_in=tokens, tokens_out=tokens // 2, latency_ms=5.0,
                cost_usd=Decimal(tokens) / Decimal(1_000_000), game_time=at)
        for agent, operation, at, tokens in calls
    )  # fmt: skip
    session.flush()
