"""The map: upserting the place tree by path, and what each agent knows of it.

A map upload is declarative. Places are identified by path, so a renamed place is a removal
plus a creation. A removed place takes everything inside it (FK cascade) and every
`agent_places` row that pointed at it: agents forget what no longer exists. An agent standing
in a removed place is moved to its nearest surviving ancestor (or to no place).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from cognition.errors import InvalidInput
from cognition.places import DEFAULT_STATE, PlaceSpec, ancestors, area_of, normalize_path
from db.models import Agent, AgentPlace, Place


@dataclass(frozen=True)
class MapChange:
    places: int
    created: int
    updated: int
    removed: int


def world_places(session: Session, world_id: uuid.UUID) -> list[Place]:
    """Every place of a world, parents before children (depth, then creation order)."""
    query = sa.select(Place).where(Place.world_id == world_id).order_by(Place.depth, Place.id)
    return list(session.scalars(query))


def apply_map(session: Session, *, world_id: uuid.UUID, specs: Sequence[PlaceSpec]) -> MapChange:
    """Make the world's places exactly `specs` (parents listed before children)."""
    existing = {place.path: place for place in world_places(session, world_id)}
    wanted = {spec.path for spec in specs}
    removed = [path for path in existing if path not in wanted]
    _remove(session, world_id, [existing.pop(path) for path in removed])
    updated = sum(_update(existing[s.path], s) for s in specs if s.path in existing)
    new = [spec for spec in specs if spec.path not in existing]
    for depth in sorted({spec.depth for spec in new}):
        rows = [_new_place(world_id, s, existing) for s in new if s.depth == depth]
        session.add_all(rows)
        session.flush()
        existing.update((row.path, row) for row in rows)
    return MapChange(places=len(specs), created=len(new), updated=updated, removed=len(removed))


def _new_place(world_id: uuid.UUID, spec: PlaceSpec, existing: dict[str, Place]) -> Place:
    parent_id = existing[spec.parent].id if spec.parent else None
    return Place(
        world_id=world_id,
        parent_id=parent_id,
        name=spec.name,
        path=spec.path,
        depth=spec.depth,
        state=spec.state or DEFAULT_STATE,
        norms=dict(spec.norms),
    )


def _update(place: Place, spec: PlaceSpec) -> bool:
    """Norms are design data and follow the map; state follows it only when the map gives one."""
    state = spec.state if spec.state is not None else place.state
    if place.state == state and place.norms == dict(spec.norms):
        return False
    place.state, place.norms = state, dict(spec.norms)
    return True


def _remove(session: Session, world_id: uuid.UUID, places: list[Place]) -> None:
    if not places:
        return
    gone = {place.path for place in places}
    session.execute(sa.delete(Place).where(Place.id.in_([p.id for p in places])))
    for place in places:
        session.expunge(place)
    _relocate(session, world_id, gone)


def _relocate(session: Session, world_id: uuid.UUID, gone: set[str]) -> None:
    """Agents standing in a removed place move up to the nearest place that still exists."""
    standing = session.scalars(
        sa.select(Agent).where(Agent.world_id == world_id, Agent.place.is_not(None))
    )
    for agent in standing:
        path = _canonical(agent.place)
        if path in gone:
            surviving = [p for p in ancestors(path) if p not in gone]
            agent.place = surviving[-1] if surviving else None


def _canonical(path: str | None) -> str | None:
    """The stored spelling of a path the game reported, or None if it is not a path at all."""
    try:
        return normalize_path(path) if path else None
    except InvalidInput:
        return None


def places_by_path(
    session: Session, *, world_id: uuid.UUID, paths: Iterable[str]
) -> dict[str, Place]:
    """The places among `paths` (canonical spellings) that exist in the world."""
    wanted = sorted(set(paths))
    if not wanted:
        return {}
    query = sa.select(Place).where(Place.world_id == world_id, Place.path.in_(wanted))
    return {place.path: place for place in session.scalars(query)}


def learn_places(
    session: Session,
    *,
    agent_ids: Sequence[uuid.UUID],
    places: Sequence[Place],
    at: datetime,
    refresh: bool = False,
) -> None:
    """Each agent now knows each place; `refresh` also records the state it sees there now.

    Without `refresh`, a place an agent already knew keeps the state it last saw.
    """
    rows = [
        {"agent_id": agent_id, "place_id": place.id, "seen_state": place.state, "seen_at": at}
        for agent_id in agent_ids
        for place in places
    ]
    if not rows:
        return
    stmt = insert(AgentPlace).values(rows)
    key = [AgentPlace.agent_id, AgentPlace.place_id]
    if refresh:
        stmt = stmt.on_conflict_do_update(
            index_elements=key,
            set_={"seen_state": stmt.excluded.seen_state, "seen_at": stmt.excluded.seen_at},
        )
    else:
        stmt = stmt.on_conflict_do_nothing(index_elements=key)
    session.execute(stmt)


def known_place_ids(session: Session, agent_id: uuid.UUID) -> set[int]:
    query = sa.select(AgentPlace.place_id).where(AgentPlace.agent_id == agent_id)
    return set(session.scalars(query))


def known_paths(session: Session, agent_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, list[str]]:
    """Every path each agent knows, sorted (one query for a whole page of agents)."""
    found: dict[uuid.UUID, list[str]] = {agent_id: [] for agent_id in agent_ids}
    if not agent_ids:
        return found
    query = (
        sa.select(AgentPlace.agent_id, Place.path)
        .join(Place, Place.id == AgentPlace.place_id)
        .where(AgentPlace.agent_id.in_(agent_ids))
        .order_by(AgentPlace.agent_id, Place.path)
    )
    for agent_id, path in session.execute(query):
        found[agent_id].append(path)
    return found


def known_tree(session: Session, agent_id: uuid.UUID) -> list[tuple[Place, AgentPlace]]:
    """The places an agent knows with its view of each, parents before children."""
    query = (
        sa.select(Place, AgentPlace)
        .join(AgentPlace, AgentPlace.place_id == Place.id)
        .where(AgentPlace.agent_id == agent_id)
        .order_by(Place.depth, Place.id)
    )
    return [(place, seen) for place, seen in session.execute(query)]


def agents_in_area(session: Session, *, world_id: uuid.UUID, area: str) -> list[Agent]:
    """Agents whose current place is in the area (its first path segment), by name."""
    first = sa.func.btrim(sa.func.split_part(Agent.place, ":", 1))
    query = (
        sa.select(Agent)
        .where(Agent.world_id == world_id, Agent.place.is_not(None), first == area_of(area))
        .order_by(Agent.name)
    )
    return list(session.scalars(query))
