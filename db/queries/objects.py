"""Object states on the map, as the game sets them and as agents' actions use them, and their
perception by everyone within sight.

One rule for every change of a place's state (`change_states`): the state is written, every
agent whose current place is within sight of it (`cognition.places.within_sight`: in the
object's room — the cafe's counter, one apartment's kitchen — or anywhere in the area for an
alarm such as a fire) perceives "<object> is <state>" unless it already last saw it so
(`perception.unseen`), now knows the object in that state, and the world announces
`object_state_changed`.

Actions use objects (`settle_objects`, from the beat sweep when current actions change): an
action that starts with an `object_state` for its place sets the place to it ("espresso
machine is brewing coffee"); when it ends, the place goes back to idle — unless another
agent's current action holds it, or something else (the game) changed it meanwhile.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from cognition.perception import is_alarming, new_observation, unseen
from cognition.places import DEFAULT_STATE, area_of, within_sight
from db.models import Agent, Memory, Plan
from db.queries.events import emit
from db.queries.memories import add_for_agents
from db.queries.places import learn_sightings
from db.queries.step import last_observations


@dataclass(frozen=True)
class Wanted:
    """A state to give a place; `only_from` set: only if the place is still in that state."""

    path: str
    state: str
    only_from: str | None = None


@dataclass
class Changed:
    """A place whose state changed, and the observations its area stored of it."""

    path: str
    previous: str
    state: str
    perceived: list[tuple[Agent, Memory]] = field(default_factory=list)


@dataclass(frozen=True)
class ActionChange:
    """An agent's current action changed (from the beat sweep's `action_changed`)."""

    agent_id: uuid.UUID
    previous_plan_id: int | None
    current: Any
    """The action now: a `plans` row (ORM or Core, read by attribute), or None."""


_SET_STATES = sa.text(
    """
    WITH wanted AS (
        SELECT * FROM unnest(CAST(:paths AS text[]), CAST(:states AS text[]),
                             CAST(:only_from AS text[])) AS w(path, state, only_from)
    ), locked AS (
        SELECT p.id, p.path, p.state AS previous, w.state AS wanted, w.only_from
        FROM places p JOIN wanted w ON p.path = w.path
        WHERE p.world_id = :world_id
        ORDER BY p.id
        FOR UPDATE OF p
    )
    UPDATE places SET state = locked.wanted
    FROM locked
    WHERE places.id = locked.id
      AND locked.previous IS DISTINCT FROM locked.wanted
      AND (locked.only_from IS NULL OR locked.previous = locked.only_from)
    RETURNING places.path, locked.previous, places.state
    """
)


def change_states(
    session: Session,
    *,
    world_id: uuid.UUID,
    wanted: Sequence[Wanted],
    now: datetime,
    unseen_by: Mapping[str, Collection[uuid.UUID]] | None = None,
) -> list[Changed]:
    """Apply the states (locking the places in id order), let each area perceive what changed
    (but the agents `unseen_by[path]`, whose own action it is), announce it. A few statements
    for any number of places."""
    if not wanted:
        return []
    rows = session.execute(
        _SET_STATES,
        {
            "world_id": world_id,
            "paths": [w.path for w in wanted],
            "states": [w.state for w in wanted],
            "only_from": [w.only_from for w in wanted],
        },
    )
    changed = [Changed(path, previous, state) for path, previous, state in rows]
    if changed:
        _perceive(session, world_id=world_id, changed=changed, now=now, unseen_by=unseen_by or {})
        for change in changed:
            emit(session, world_id=world_id, type="object_state_changed", payload=_payload(change))
    return changed


def settle_objects(
    session: Session,
    *,
    world_id: uuid.UUID,
    changes: Sequence[ActionChange],
    current: Mapping[uuid.UUID, Any],
    now: datetime,
) -> list[Changed]:
    """Write back the object states of actions that started, release those of actions that
    ended (module docstring). `current` is every agent's current action in the world."""
    held: dict[str, uuid.UUID] = {}
    for agent_id, leaf in current.items():
        if leaf is not None and leaf.location and leaf.object_state:
            held.setdefault(leaf.location, agent_id)
    wanted: dict[str, Wanted] = {}
    caused: dict[str, set[uuid.UUID]] = {}
    for old in _plans(session, [c.previous_plan_id for c in changes if c.previous_plan_id]):
        if old.location and old.object_state and old.location not in held:
            wanted[old.location] = Wanted(old.location, DEFAULT_STATE, only_from=old.object_state)
            caused.setdefault(old.location, set()).add(old.agent_id)
    for change in changes:
        leaf = change.current
        if leaf is not None and leaf.location and leaf.object_state:
            wanted[leaf.location] = Wanted(leaf.location, leaf.object_state)
            caused.setdefault(leaf.location, set()).add(change.agent_id)
    return change_states(
        session, world_id=world_id, wanted=list(wanted.values()), now=now, unseen_by=caused
    )


def _plans(session: Session, ids: Sequence[int]) -> list[Plan]:
    if not ids:
        return []
    return list(session.scalars(sa.select(Plan).where(Plan.id.in_(ids)).order_by(Plan.id)))


def _perceive(
    session: Session,
    *,
    world_id: uuid.UUID,
    changed: Sequence[Changed],
    now: datetime,
    unseen_by: Mapping[str, Collection[uuid.UUID]],
) -> None:
    """Everyone within sight of each changed place (`cognition.places.within_sight`) observes
    it (repeats left out) and knows it."""
    areas = {area_of(c.path) for c in changed}
    present = _agents_in_areas(session, world_id=world_id, areas=areas)
    candidates = [
        (agent, new_observation(change.path, change.state, now=now))
        for change in changed
        for agent in present.get(area_of(change.path), [])
        if agent.id not in unseen_by.get(change.path, ())
        and within_sight(change.path, agent.place or "", alarming=is_alarming(change.state))
    ]
    last = last_observations(session, [(a.id, m.subject or "") for a, m in candidates])
    keyed = {a.id: a for a, _ in candidates}
    fresh = unseen([(a.id, m) for a, m in candidates], last)
    stored = add_for_agents(session, world_id=world_id, items=fresh, now=now)
    by_path = {c.path: c for c in changed}
    for (agent_id, memory), row in zip(fresh, stored, strict=True):
        by_path[memory.subject or ""].perceived.append((keyed[agent_id], row))
    learn_sightings(
        session,
        world_id=world_id,
        sightings=[(a.id, c.path, c.state) for c in changed for a, _ in c.perceived],
        at=now,
    )


def _agents_in_areas(
    session: Session, *, world_id: uuid.UUID, areas: Collection[str]
) -> dict[str, list[Agent]]:
    """The agents whose current place lies in each area, by name. One query."""
    first = sa.func.btrim(sa.func.split_part(Agent.place, ":", 1))
    query = (
        sa.select(Agent, first)
        .where(Agent.world_id == world_id, Agent.place.is_not(None))
        .where(first.in_(sorted(areas)))
        .order_by(Agent.name, Agent.id)
    )
    found: dict[str, list[Agent]] = {}
    for agent, area in session.execute(query):
        found.setdefault(area, []).append(agent)
    return found


def _payload(change: Changed) -> dict[str, object]:
    return {
        "place": change.path,
        "state": change.state,
        "previous_state": change.previous,
        "perceived_by": [str(agent.id) for agent, _ in change.perceived],
    }
