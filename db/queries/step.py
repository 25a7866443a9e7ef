"""The game's hot path in batch: many agents' positions in, their current actions out.

Every query here takes the whole batch at once (`= ANY(:ids)`), so a step of 1000 agents is a
handful of statements, never a loop of per-agent round trips. No model is called.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from cognition.perception import Observed, subject_key
from cognition.types import NewMemory
from db.models import Agent, Conversation, Memory, Plan, Utterance
from db.queries.plans import LEVEL_DEPTH


@dataclass(frozen=True)
class Whereabouts:
    agent_id: uuid.UUID
    place: str | None
    position: dict[str, Any] | None


def known_agent_places(
    session: Session, world_id: uuid.UUID, ids: Sequence[uuid.UUID]
) -> dict[uuid.UUID, str | None]:
    """The agents among `ids` that exist in the world, with where each stood before this step."""
    query = sa.select(Agent.id, Agent.place).where(Agent.world_id == world_id, Agent.id.in_(ids))
    return {agent_id: place for agent_id, place in session.execute(query)}


@dataclass(frozen=True)
class Move:
    agent_id: uuid.UUID
    name: str
    place: str
    previous: str | None


MOVE_AGENTS = sa.text(
    "UPDATE agents AS a SET place = v.place "
    "FROM unnest(CAST(:ids AS uuid[]), CAST(:places AS text[])) AS v(id, place) "
    "JOIN agents AS before ON before.id = v.id "
    "WHERE a.id = v.id AND a.place IS DISTINCT FROM v.place "
    "RETURNING a.id, a.name, v.place, before.place AS previous"
)


def move_agents(session: Session, moves: Sequence[Whereabouts]) -> list[Move]:
    """Record where the game says each agent is (only the fields it sent), and return the
    agents whose place changed: one statement for places (an agent that stayed is not
    written), one executemany for positions."""
    moves = sorted(moves, key=lambda m: m.agent_id)  # agents are locked in id order everywhere
    placed = [m for m in moves if m.place is not None]
    moved: list[Move] = []
    if placed:
        params = {"ids": [m.agent_id for m in placed], "places": [m.place for m in placed]}
        moved = [Move(*row) for row in session.execute(MOVE_AGENTS, params)]
    positions = [
        {"id": m.agent_id, "position": m.position} for m in moves if m.position is not None
    ]
    if positions:
        session.execute(sa.update(Agent), positions)
    return moved


def last_observations(
    session: Session, agent_ids: Sequence[uuid.UUID], subjects: Sequence[str]
) -> dict[tuple[uuid.UUID, str], Observed]:
    """Each agent's last observation of each subject, keyed by (agent, `subject_key`), as
    `perception.unseen` reads them to leave repeats out. One query for the batch."""
    if not agent_ids or not subjects:
        return {}
    query = (
        sa.select(Memory.agent_id, Memory.subject, Memory.predicate, Memory.object)
        .add_columns(Memory.description)
        .where(
            Memory.agent_id.in_(agent_ids),
            Memory.subject.in_(sorted(set(subjects))),
            Memory.kind == "observation",
        )
        .order_by(Memory.agent_id, Memory.subject, Memory.created_at.desc(), Memory.id.desc())
        .distinct(Memory.agent_id, Memory.subject)
    )
    return {
        (r.agent_id, subject_key(r.subject)): NewMemory(
            description=r.description, subject=r.subject, predicate=r.predicate, object=r.object
        )
        for r in session.execute(query)
    }


def current_leaves(at: datetime, *where: sa.ColumnElement[bool]) -> sa.Select[Plan]:
    """The deepest live plan covering `at` of each agent matching `where`: an agent's current
    action, the one rule every reader of "what is X doing now" shares."""
    depth = sa.case(LEVEL_DEPTH, value=Plan.level)
    ends = Plan.start + sa.func.make_interval(0, 0, 0, 0, 0, Plan.duration_min)
    return (
        sa.select(Plan)
        .where(Plan.status != "superseded", Plan.start <= at, ends > at, *where)
        .order_by(Plan.agent_id, depth.desc(), Plan.start.desc(), Plan.id.desc())
        .distinct(Plan.agent_id)
    )


def current_actions(
    session: Session, agent_ids: Sequence[uuid.UUID], at: datetime
) -> dict[uuid.UUID, Plan]:
    """Each agent's deepest live plan covering `at`, in one query."""
    query = current_leaves(at, Plan.agent_id.in_(agent_ids))
    return {plan.agent_id: plan for plan in session.scalars(query)}


@dataclass(frozen=True)
class Speech:
    conversation_id: int
    speaker: str
    text: str
    spoken_at: datetime


def utterances_in_progress(
    session: Session, agent_ids: Sequence[uuid.UUID], *, now: datetime, line: timedelta
) -> dict[uuid.UUID, Speech]:
    """The line each agent is saying or hearing at `now`: one said at most a line's time ago
    in a conversation it takes part in (lines take game time, so a conversation's lines
    show one after another as the clock moves)."""
    speaker = sa.func.coalesce(Agent.name, Utterance.speaker_player)
    latest = (
        sa.select(
            Conversation.id,
            Conversation.initiator_id,
            Conversation.partner_agent_id,
            Utterance.text,
            Utterance.spoken_at,
            speaker.label("speaker"),
        )
        .join(Utterance, Utterance.conversation_id == Conversation.id)
        .outerjoin(Agent, Agent.id == Utterance.speaker_agent_id)
        .where(Utterance.spoken_at <= now, Utterance.spoken_at > now - line)
        .where(
            sa.or_(
                Conversation.initiator_id.in_(agent_ids),
                Conversation.partner_agent_id.in_(agent_ids),
            )
        )
        .order_by(Conversation.id, Utterance.seq.desc())
        .distinct(Conversation.id)
    )
    wanted, found = set(agent_ids), dict[uuid.UUID, Speech]()
    for row in session.execute(latest):
        speech = Speech(row.id, row.speaker, row.text, row.spoken_at)
        for agent_id in (row.initiator_id, row.partner_agent_id):
            if agent_id in wanted and agent_id not in found:
                found[agent_id] = speech
    return found
