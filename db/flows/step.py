"""The game's hot path: many agents' positions and perceptions in, their current actions out —
from stored state; no model is called and nothing waits on one.

`report` records one step: moves and focus (only what changed), what arrivals see and which
objects were perceived in which state (`db.queries.places`), the perceptions as observations through
`cognition.perception` (its wording, and its rule for leaving out repeats), which of them may
call for a reaction, and `agents_moved`. `doing` reads what agents are doing and saying now.
Each is a fixed number of statements whatever the batch (`db.queries.step`).

Steps of one world are recorded one at a time (a transaction-scoped advisory lock, taken
first): two steps of the same agents write the same rows — the agents, what they know of the
places they see (`agent_places`, in several statements) — and, interleaved, could each hold
what the other needed next. Four clients stepping 200 agents each in its own order deadlocked
that way; one game loop per world never waits.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy.orm import Session

from cognition.perception import canonical_subject, new_observation, subject_key, unseen
from cognition.places import normalize_path
from cognition.types import MemorySource, NewMemory
from db import locks
from db.models import World
from db.queries.events import emit
from db.queries.memories import insert_for_agents
from db.queries.places import learn_arrivals, learn_sightings
from db.queries.reactions import Observation
from db.queries.reactions import candidates as reaction_candidates
from db.queries.step import (
    Current,
    Move,
    Speech,
    Whereabouts,
    agent_names,
    current_actions,
    last_observations,
    move_agents,
    utterances_in_progress,
)
from db.queries.worlds import game_now


class Seen(Protocol):
    """One perception as the game reports it: another agent's activity, an object's state, or
    an event in its own words."""

    @property
    def kind(self) -> str: ...
    @property
    def subject(self) -> str | None: ...
    @property
    def state(self) -> str | None: ...
    @property
    def description(self) -> str | None: ...


class Reported(Protocol):
    """One agent of a step: where the game says it is, and what it perceives."""

    @property
    def agent_id(self) -> uuid.UUID: ...
    @property
    def place(self) -> str | None: ...
    @property
    def position(self) -> dict[str, Any] | None: ...
    @property
    def perceived(self) -> Sequence[Seen]: ...
    @property
    def in_focus(self) -> bool | None: ...


@dataclass(frozen=True)
class Stepped:
    now: datetime
    stored: Sequence[Observation]
    """The new observations (repeats are not stored), to enrich once committed."""
    to_decide: list[tuple[uuid.UUID, int]]
    """(agent, observation) pairs that may call for a reaction, to decide once committed."""


@dataclass(frozen=True)
class Doing:
    actions: Mapping[uuid.UUID, Current]
    speech: Mapping[uuid.UUID, Speech]


def report(session: Session, *, world: World, agents: Sequence[Reported], focal: bool) -> Stepped:
    """Record a step of agents already known to be the world's, each once; `focal` keeps one
    reaction candidate per agent (the economy profile), else every one (the paper's)."""
    locks.hold(session, f"step:{world.id}")
    now = game_now(world)
    moved = move_agents(
        session,
        [
            Whereabouts(a.agent_id, a.place and normalize_path(a.place), a.position, a.in_focus)
            for a in agents
        ],
    )
    _learn_places(session, world.id, agents, moved=moved, now=now)
    observations, before = _new_observations(session, agents)
    stored = insert_for_agents(session, world_id=world.id, items=observations, now=now)
    to_decide = reaction_candidates(
        session,
        world_id=world.id,
        memories=stored,
        focal=focal,
        names=agent_names(session, world.id) if stored else {},
        states_before={m.id: state for m, state in zip(stored, before, strict=True)},
    )
    if moved:
        emit(session, world_id=world.id, type="agents_moved", payload=_moves(moved))
    return Stepped(now, stored, to_decide)


def doing(
    session: Session, agent_ids: Sequence[uuid.UUID], *, now: datetime, line: timedelta
) -> Doing:
    """Each agent's current action, and the line it is saying or hearing (a line is heard
    for `line`, `HEARTH_CONVERSATION_LINE_S`)."""
    return Doing(
        actions=current_actions(session, agent_ids, now),
        speech=utterances_in_progress(session, agent_ids, now=now, line=line),
    )


def _moves(moved: Sequence[Move]) -> dict[str, object]:
    return {
        "moves": [
            {"agent_id": str(m.agent_id), "name": m.name, "place": m.place, "previous": m.previous}
            for m in moved
        ]
    }


def _learn_places(
    session: Session,
    world_id: uuid.UUID,
    agents: Sequence[Reported],
    *,
    moved: Sequence[Move],
    now: datetime,
) -> None:
    """What each agent sees where it arrived, and the objects it perceived in their state."""
    arrivals = [
        (m.agent_id, m.place)
        for m in moved
        if canonical_subject(m.place) != canonical_subject(m.previous or "")
    ]
    learn_arrivals(session, world_id=world_id, arrivals=arrivals, at=now)
    sightings = [
        (a.agent_id, p.subject, p.state)
        for a in agents
        for p in a.perceived
        if p.kind == "object" and p.subject and p.state
    ]
    learn_sightings(session, world_id=world_id, sightings=sightings, at=now)


def observation(seen: Seen) -> NewMemory:
    """The paper's observation, "<subject> is <state>" (`perception.new_observation`), or an
    event's own words."""
    if seen.kind == "event":
        return NewMemory(description=str(seen.description), source=MemorySource.GAME)
    return new_observation(str(seen.subject), str(seen.state), doing=seen.kind == "agent")


def _new_observations(
    session: Session, agents: Sequence[Reported]
) -> tuple[list[tuple[uuid.UUID, NewMemory]], list[str | None]]:
    """Perceptions as memories, minus repeats (`perception.unseen`: the same subject in the
    same state as the agent last observed it, in the stream or earlier in this batch), and for
    each the state its subject was last seen in (None: never, or no subject)."""
    perceived = [(a.agent_id, observation(seen)) for a in agents for seen in a.perceived]
    last = last_observations(session, [(i, m.subject) for i, m in perceived if m.subject])
    fresh = unseen(perceived, dict(last))
    before: list[str | None] = []
    for agent_id, memory in fresh:
        key = (agent_id, subject_key(memory.subject or ""))
        previous = last.get(key) if memory.subject else None
        before.append(previous.object if previous is not None else None)
        if memory.subject:
            last[key] = memory
    return fresh, before
