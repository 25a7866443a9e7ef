"""The game's hot path in batch: many agents' positions in, their current actions out.

Every query here takes the whole batch at once, so a step of 1000 agents is a handful of
statements, never a loop of per-agent round trips, and no ORM object is built per agent: rows
come back as plain values. No model is called. Batches travel as one parameter each — ids as
an array literal, records as JSON (`json_to_recordset`) — because psycopg adapts a Python list
element by element in Python (~40 µs per thousand values), and a step sends thousands.

- `move_agents` writes only the agents whose place, position or focus changed (one UPDATE): a game
  reports everyone every step, most of whom did not move, and an unchanged row rewritten is a
  dead tuple for vacuum and a new entry in every index of `agents`.
- `last_observations` reads, per (agent, subject) perceived, the latest observation of that
  subject (for `perception.unseen`) — one probe of `ix_memories_agent_subject_latest` per pair.
- `current_actions` reads each agent's current action by the one rule
  (`db.queries.plans.current_leaves`), for the whole batch in one statement.
- `utterances_in_progress` reads only the lines said in the last line's time
  (`ix_utterances_spoken_at`), not every line the agents ever said.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.orm import Session
from sqlalchemy.types import NullType

from cognition.perception import Observed, subject_key
from cognition.types import NewMemory
from db.models import Agent, Plan
from db.queries.plans import current_leaves


@dataclass(frozen=True)
class Whereabouts:
    agent_id: uuid.UUID
    place: str | None
    position: dict[str, Any] | None
    focus: bool | None = None
    """In focus from now on (`cognition.focus`); None leaves it as it is."""


@dataclass(frozen=True)
class Move:
    """An agent whose place changed in this step (for the `agents_moved` event)."""

    agent_id: uuid.UUID
    name: str
    place: str
    previous: str | None


@dataclass(frozen=True)
class Current:
    """An agent's current action: its deepest live plan item covering now."""

    id: int
    agent_id: uuid.UUID
    level: str
    description: str
    location: str | None
    emoji: str | None
    object_state: str | None
    start: datetime
    end: datetime

    def as_json(self) -> dict[str, object]:
        """The action as the step answers it and `action_changed` announces it."""
        return {
            "plan_id": self.id,
            "level": self.level,
            "description": self.description,
            "location": self.location,
            "emoji": self.emoji,
            "object_state": self.object_state,
            "start": self.start.isoformat(),
            "end": self.end.isoformat(),
        }


@dataclass(frozen=True)
class Speech:
    conversation_id: int
    speaker: str
    text: str
    spoken_at: datetime

    def as_json(self) -> dict[str, object]:
        return {
            "conversation_id": self.conversation_id,
            "speaker": self.speaker,
            "text": self.text,
            "spoken_at": self.spoken_at.isoformat(),
        }


_KNOWN = sa.text("SELECT id FROM agents WHERE world_id = :world AND id = ANY(CAST(:ids AS uuid[]))")


def id_array(ids: Sequence[uuid.UUID]) -> str:
    """A uuid[] literal (uuids need no quoting)."""
    return "{" + ",".join(map(str, ids)) + "}"


def known_agent_ids(
    session: Session, world_id: uuid.UUID, ids: Sequence[uuid.UUID]
) -> set[uuid.UUID]:
    return set(session.scalars(_KNOWN, {"world": world_id, "ids": id_array(ids)}))


def agent_names(session: Session, world_id: uuid.UUID) -> dict[uuid.UUID, str]:
    """Every agent of the world by id (perception asks whether a subject is an agent)."""
    query = sa.select(Agent.id, Agent.name).where(Agent.world_id == world_id)
    return {agent_id: name for agent_id, name in session.execute(query)}


_MOVE = sa.text("""
WITH v AS (
       SELECT * FROM json_to_recordset(CAST(:moves AS json))
           AS v(id uuid, place text, position jsonb, focus boolean)
     ),
     moving AS (
       SELECT a.id, a.place AS previous FROM agents AS a JOIN v ON v.id = a.id
        WHERE (v.place IS NOT NULL AND a.place IS DISTINCT FROM v.place)
           OR (v.position IS NOT NULL AND a.position IS DISTINCT FROM v.position)
           OR (v.focus IS NOT NULL AND a.in_focus IS DISTINCT FROM v.focus)
        ORDER BY a.id
          FOR NO KEY UPDATE OF a
     )
UPDATE agents AS a
   SET place = COALESCE(v.place, a.place),
       position = COALESCE(v.position, a.position),
       in_focus = COALESCE(v.focus, a.in_focus)
  FROM v JOIN moving ON moving.id = v.id
 WHERE a.id = v.id
RETURNING a.id, a.name, v.place, moving.previous
""")
"""Rows are locked in id order first, as every writer of many agents does (enrichment's
accumulator, the sweep's action markers), so concurrent ones wait instead of deadlocking."""


def move_agents(session: Session, moves: Sequence[Whereabouts]) -> list[Move]:
    """Record where the game says each agent is and whether it is in focus (only the fields it
    sent; unchanged rows are not written), in one statement; returns the agents whose place
    changed."""
    sent = [
        m for m in moves if m.place is not None or m.position is not None or m.focus is not None
    ]
    if not sent:
        return []
    records = [
        {"id": str(m.agent_id), "place": m.place, "position": m.position, "focus": m.focus}
        for m in sent
    ]
    rows = session.execute(_MOVE, {"moves": json.dumps(records)}).all()
    return [Move(*row) for row in rows if row[2] is not None and row[2] != row[3]]


_LAST_OBSERVED = sa.text("""
SELECT p.i, latest.subject, latest.predicate, latest.object, latest.description
  FROM json_to_recordset(CAST(:pairs AS json)) AS p(i integer, agent_id uuid, subject text)
 CROSS JOIN LATERAL (
       SELECT m.subject, m.predicate, m.object, m.description FROM memories AS m
        WHERE m.agent_id = p.agent_id AND m.subject = p.subject AND m.kind = 'observation'
        ORDER BY m.created_at DESC, m.id DESC
        LIMIT 1) AS latest
""")


def last_observations(
    session: Session, pairs: Sequence[tuple[uuid.UUID, str]]
) -> dict[tuple[uuid.UUID, str], Observed]:
    """Each agent's last observation of each subject asked, keyed by (agent, `subject_key`),
    as `perception.unseen` reads them to leave repeats out (pairs never observed are absent).
    One statement for the batch."""
    unique = list(dict.fromkeys((agent, subject) for agent, subject in pairs if subject))
    if not unique:
        return {}
    records = [{"i": i, "agent_id": str(a), "subject": s} for i, (a, s) in enumerate(unique)]
    rows = session.execute(_LAST_OBSERVED, {"pairs": json.dumps(records)}).all()
    return {
        (unique[i][0], subject_key(subject)): NewMemory(
            description=description, subject=subject, predicate=predicate, object=state
        )
        for i, subject, predicate, state, description in rows
    }


_CURRENT = current_leaves(
    sa.bindparam("at", type_=sa.DateTime()),
    Plan.agent_id == sa.any_(sa.cast(sa.bindparam("ids", type_=NullType()), ARRAY(sa.Uuid))),
    columns=(
        Plan.id,
        Plan.agent_id,
        Plan.level,
        Plan.description,
        Plan.location,
        Plan.emoji,
        Plan.object_state,
        Plan.start,
        Plan.end.label("end"),
    ),
)
"""The one rule (`plans.current_leaves`) for a batch: the ids travel as one untyped uuid[]
literal, which PostgreSQL parses once (a text-typed one would be cast again for every row)."""


def current_actions(
    session: Session, agent_ids: Sequence[uuid.UUID], at: datetime
) -> dict[uuid.UUID, Current]:
    """Each agent's current action (`plans.current_leaves`), in one query."""
    if not agent_ids:
        return {}
    params = {"at": at, "ids": id_array(agent_ids)}
    rows = session.connection().execute(_CURRENT, params).all()  # Core rows, no ORM loading
    return {row[1]: Current(*row) for row in rows}


_LINES_NOW = sa.text("""
SELECT DISTINCT ON (c.id)
       c.id, c.initiator_id, c.partner_agent_id, u.text, u.spoken_at,
       COALESCE(speaker.name, u.speaker_player) AS speaker
  FROM utterances AS u
  JOIN conversations AS c ON c.id = u.conversation_id
  LEFT JOIN agents AS speaker ON speaker.id = u.speaker_agent_id
 WHERE u.spoken_at <= :now AND u.spoken_at > :since
   AND (c.initiator_id = ANY(CAST(:ids AS uuid[]))
        OR c.partner_agent_id = ANY(CAST(:ids AS uuid[])))
 ORDER BY c.id, u.seq DESC
""")


def utterances_in_progress(
    session: Session, agent_ids: Sequence[uuid.UUID], *, now: datetime, line: timedelta
) -> dict[uuid.UUID, Speech]:
    """The line each agent is saying or hearing at `now`: one said at most a line's time ago
    in a conversation it takes part in (lines take game time, so a conversation's lines
    show one after another as the clock moves). `ix_utterances_spoken_at` keeps the read to
    the lines of the last moments, however long the world has talked."""
    if not agent_ids:
        return {}
    params = {"now": now, "since": now - line, "ids": id_array(agent_ids)}
    wanted, found = set(agent_ids), dict[uuid.UUID, Speech]()
    for row in session.execute(_LINES_NOW, params).all():
        speech = Speech(row.id, row.speaker, row.text, row.spoken_at)
        for agent_id in (row.initiator_id, row.partner_agent_id):
            if agent_id in wanted and agent_id not in found:
                found[agent_id] = speech
    return found
