"""Rows only the agents' own jobs write (reflections, plans, conversations, relationships,
model calls), written straight into the real database for tests that read them back."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from decimal import Decimal

from sqlalchemy.orm import Session

from cognition.embedding_cache import content_hash
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
    row = Memory(
        world_id=world_id,
        agent_id=agent_id,
        kind="reflection",
        description=text,
        created_at=at,
        last_accessed_at=at,
        importance=7,
        importance_scored=True,
        content_hash=content_hash(text),
        depth=depth,
        source="agent",
    )
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
    talk = Conversation(
        world_id=world_id,
        initiator_id=initiator,
        partner_agent_id=partner,
        partner_player=player,
        topic=topic,
        started_at=at,
        status="ended" if ended else "open",
        ended_at=at + timedelta(minutes=len(lines)) if ended else None,
    )
    session.add(talk)
    session.flush()
    for seq, (speaker, text) in enumerate(lines, start=1):
        is_agent = isinstance(speaker, uuid.UUID)
        session.add(
            Utterance(
                conversation_id=talk.id,
                seq=seq,
                text=text,
                speaker_agent_id=speaker if is_agent else None,
                speaker_player=None if is_agent else str(speaker),
                spoken_at=at + timedelta(minutes=seq - 1),
            )
        )
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
        set_relationship(
            session,
            agent_id=agent_id,
            other_name=other,
            other_agent_id=other_agent_id,
            summary=summary,
            sentiment=sentiment,
            at=at + timedelta(hours=hour),
        )


HOME = "Riverside Apartments: apartment 1"
CAFE = "The Copper Kettle"


def day_plan(session: Session, *, agent_id: uuid.UUID, day: datetime) -> dict[str, int]:
    """Junie's day in the demo town: an outline, hour chunks of the morning, tasks of its
    9 o'clock hour, and an afternoon superseded by a reaction and written again after it —
    every shape a plan timeline must show."""
    at = day.replace(hour=0, minute=0)

    def t(hours: float) -> datetime:
        return at + timedelta(hours=hours)

    days = save_items(
        session,
        agent_id=agent_id,
        level=PlanLevel.DAY,
        decided_at=at,
        items=[
            PlanItem(t(0), 330, "sleep", f"{HOME}: bedroom: bed", "😴"),
            PlanItem(t(5.5), 90, "wake up and bake pastries", f"{HOME}: kitchen: stove", "🥐"),
            PlanItem(t(7), 300, "open the cafe and serve breakfast", f"{CAFE}: counter", "☕"),
            PlanItem(t(12), 360, "work the afternoon shift", f"{CAFE}: counter", "🧁"),
            PlanItem(t(18), 120, "host the Valentine's Day party", f"{CAFE}: dining area", "💘"),
            PlanItem(t(20), 240, "tidy up and go to bed", f"{HOME}: bedroom: bed", "🧹"),
        ],
    )
    hours = save_items(
        session,
        agent_id=agent_id,
        level=PlanLevel.HOUR,
        parent_id=days[2].id,
        decided_at=at,
        items=[
            PlanItem(t(7), 60, "open the cafe", f"{CAFE}: counter", "🔑"),
            PlanItem(
                t(8), 60, "serve the morning rush", f"{CAFE}: counter: espresso machine", "☕"
            ),
            PlanItem(t(9), 60, "invite the regulars to the party", f"{CAFE}: dining area", "💌"),
            PlanItem(t(10), 120, "bake for the party", f"{CAFE}: kitchen: oven", "🎂"),
        ],
    )
    save_items(
        session,
        agent_id=agent_id,
        level=PlanLevel.TASK,
        parent_id=hours[2].id,
        decided_at=at,
        items=[
            PlanItem(
                t(9), 15, "brew a fresh pot", f"{CAFE}: counter: espresso machine", "☕", "brewing"
            ),
            PlanItem(t(9.25), 15, "take orders at the counter", f"{CAFE}: counter", "🧾"),
            PlanItem(
                t(9.5), 15, "tell the customers about the party", f"{CAFE}: dining area", "💌"
            ),
            PlanItem(t(9.75), 15, "restock the pastry case", f"{CAFE}: counter: pastry case", "🥐"),
        ],
    )
    reaction = save_items(
        session,
        agent_id=agent_id,
        level=PlanLevel.DAY,
        decided_at=at,
        items=[
            PlanItem(
                t(12), 60, "help Tomas carry the party decorations", f"{CAFE}: dining area", "📦"
            )
        ],
    )
    supersede(session, plan_ids=[days[3].id], replacement_id=reaction[0].id)
    rest = save_items(
        session,
        agent_id=agent_id,
        level=PlanLevel.DAY,
        decided_at=at,
        items=[
            PlanItem(t(13), 300, "work the afternoon shift", f"{CAFE}: counter", "🧁"),
        ],
    )
    return {
        "superseded": days[3].id,
        "reaction": reaction[0].id,
        "rest": rest[0].id,
        "morning": days[2].id,
    }


def model_calls(
    session: Session,
    *,
    world_id: uuid.UUID,
    calls: Sequence[tuple[uuid.UUID | None, str, datetime, int]],
) -> None:
    """(agent, operation, game time, tokens in) each; tokens out are half, cost 1e-6 a token."""
    session.add_all(
        LlmCall(
            world_id=world_id,
            agent_id=agent,
            operation=operation,
            model="gpt-test",
            tokens_in=tokens,
            tokens_out=tokens // 2,
            latency_ms=5.0,
            cost_usd=Decimal(tokens) / Decimal(1_000_000),
            game_time=at,
        )
        for agent, operation, at, tokens in calls
    )
    session.flush()
