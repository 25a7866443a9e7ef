"""The map: upserting the place tree by path, and what each agent knows of it.

A map upload is declarative. Places are identified by path, so a renamed place is a removal
plus a creation. A removed place takes everything inside it (FK cascade) and every
`agent_places` row that pointed at it: agents forget what no longer exists. An agent standing
in a removed place is moved to its nearest surviving ancestor (or to no place).

An agent's known subtree grows as it moves and perceives (the paper's agents "update this tree
to reflect newly perceived areas … when they re-enter the area"):

- arriving at a place (`learn_arrivals`), it sees the place, every place on its path, and
  what is directly inside each of those: the rooms of the cafe once inside it, the objects
  of the room it stands in — not the rooms of the other flats of its building, nor what
  lies in rooms it has not entered. What it sees is recorded in the state it is in now;
- perceiving an object's state (`learn_sightings`), it knows the object in that state, and
  the places on its path.

Each is one set-based statement for a whole step.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import ARRAY, UUID, insert
from sqlalchemy.orm import Session

from cognition.errors import InvalidInput
from cognition.norms import Norms
from cognition.places import (
    DEFAULT_STATE,
    JOINER,
    KnownPlace,
    PlaceSpec,
    ancestors,
    normalize_path,
    parse_path,
)
from db.models import Agent, AgentPlace, Place, Plan
from db.queries.plans import current_leaves


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


def world_place_count(session: Session, world_id: uuid.UUID) -> int:
    return session.scalar(sa.select(sa.func.count()).where(Place.world_id == world_id)) or 0


def places_by_path(
    session: Session, *, world_id: uuid.UUID, paths: Iterable[str]
) -> dict[str, Place]:
    """The places among `paths` (canonical spellings) that exist in the world."""
    wanted = sorted(set(paths))
    if not wanted:
        return {}
    query = sa.select(Place).where(Place.world_id == world_id, Place.path.in_(wanted))
    return {place.path: place for place in session.scalars(query)}


def paths_in_map(session: Session, *, world_id: uuid.UUID, paths: Iterable[str]) -> set[str]:
    """Which of `paths` (canonical spellings) the world's map has: paths only, no rows loaded
    (a step names a thousand places)."""
    wanted = sorted(set(paths))
    if not wanted:
        return set()
    query = sa.select(Place.path).where(Place.world_id == world_id, Place.path.in_(wanted))
    return set(session.scalars(query))


def add_places(
    session: Session, *, world_id: uuid.UUID, paths: Iterable[str], found: dict[str, Place]
) -> dict[str, Place]:
    """Create the canonical `paths` missing from `found` (the world's places by path, with
    every ancestor of each path either found or among `paths`), parents first, state idle.

    Two requests creating one place at once both succeed: the insert skips an existing path
    and the rows are read back. Returns `found` with the new places."""
    found = dict(found)
    missing = sorted({p for p in paths if p not in found}, key=lambda p: (p.count(JOINER), p))
    for depth in sorted({len(ancestors(p)) for p in missing}):
        level = [p for p in missing if len(ancestors(p)) == depth]
        rows: list[dict[str, Any]] = [
            {
                "world_id": world_id,
                "parent_id": found[ancestors(p)[-1]].id if depth else None,
                "name": parse_path(p)[-1],
                "path": p,
                "depth": depth,
                "state": DEFAULT_STATE,
                "norms": {},
            }
            for p in level
        ]
        session.execute(insert(Place).values(rows).on_conflict_do_nothing())
        found.update(places_by_path(session, world_id=world_id, paths=level))
    return found


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
        for agent_id in sorted(set(agent_ids))
        for place in sorted(places, key=lambda p: p.id)
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


def known_places(
    session: Session, *, agent_id: uuid.UUID, world_id: uuid.UUID, at: datetime
) -> list[KnownPlace]:
    """What the agent knows of the map, in map order, each place with its norms and, for the
    places with a capacity, how many other agents' current actions are located in it at `at`.
    Two queries, the second only when a known place has a capacity."""
    query = (
        sa.select(Place.path, Place.norms)
        .join(AgentPlace, AgentPlace.place_id == Place.id)
        .where(AgentPlace.agent_id == agent_id)
        .order_by(Place.depth, Place.id)
    )
    rows = [(path, Norms.read(norms)) for path, norms in session.execute(query)]
    limited = [path for path, norms in rows if norms.capacity is not None]
    there = occupancy(session, world_id=world_id, paths=limited, at=at, besides=agent_id)
    return [KnownPlace(path, norms, there.get(path, 0)) for path, norms in rows]


def occupancy(
    session: Session,
    *,
    world_id: uuid.UUID,
    paths: Sequence[str],
    at: datetime,
    besides: uuid.UUID | None = None,
) -> dict[str, int]:
    """For each path, the agents of the world (but `besides`) whose current action at `at` is
    located at it or inside it. One query."""
    if not paths:
        return {}
    in_world = Plan.agent_id.in_(sa.select(Agent.id).where(Agent.world_id == world_id))
    others = [Plan.agent_id != besides] if besides is not None else []
    leaves = current_leaves(at, in_world, Plan.location.is_not(None), *others).subquery()
    wanted = (
        sa.func.unnest(sa.cast(list(paths), ARRAY(sa.Text))).table_valued("path").render_derived()
    )
    inside = sa.or_(
        leaves.c.location == wanted.c.path,
        sa.func.left(leaves.c.location, sa.func.length(wanted.c.path) + 2)
        == wanted.c.path.concat(JOINER),
    )
    query = (
        sa.select(wanted.c.path, sa.func.count())
        .select_from(wanted.join(leaves, inside))
        .group_by(wanted.c.path)
    )
    return {path: int(n) for path, n in session.execute(query)}


def learn_arrivals(
    session: Session,
    *,
    world_id: uuid.UUID,
    arrivals: Sequence[tuple[uuid.UUID, str]],
    at: datetime,
) -> None:
    """Each (agent, place path) arrival: the agent now knows the places on the path and what
    is directly inside each, as they are now (module docstring). Unknown paths are ignored."""
    pairs = [(agent_id, step) for agent_id, path in arrivals for step in _on_path(path)]
    if not pairs:
        return
    seen = _pairs(pairs)
    on_path = (
        sa.select(seen.c.agent_id, Place.id.label("place_id"))
        .join(Place, sa.and_(Place.world_id == world_id, Place.path == seen.c.path))
        .cte("on_path")
    )
    visible = sa.union(
        sa.select(on_path.c.agent_id, on_path.c.place_id),
        sa.select(on_path.c.agent_id, Place.id).join(Place, Place.parent_id == on_path.c.place_id),
    ).subquery("visible")
    rows = sa.select(visible.c.agent_id, visible.c.place_id, Place.state, sa.literal(at)).join(
        Place, Place.id == visible.c.place_id
    )
    _upsert_seen(session, rows)


def learn_sightings(
    session: Session,
    *,
    world_id: uuid.UUID,
    sightings: Sequence[tuple[uuid.UUID, str, str]],
    at: datetime,
) -> None:
    """Each (agent, object path, state) perceived: the agent knows the object in that state,
    and the places on its path (in the state it last saw them, if it knew them)."""
    latest = {(a, p): state for a, path, state in sightings if (p := _canonical(path))}
    canonical = [(a, p, state) for (a, p), state in latest.items()]
    if not canonical:
        return
    seen = _pairs([(a, p) for a, p, _ in canonical], [state for *_, state in canonical])
    rows = sa.select(seen.c.agent_id, Place.id, seen.c.state, sa.literal(at)).join(
        Place, sa.and_(Place.world_id == world_id, Place.path == seen.c.path)
    )
    _upsert_seen(session, rows)
    above = [(a, step) for a, p, _ in canonical for step in _on_path(p)[:-1]]
    if above:
        up = _pairs(above)
        known = sa.select(up.c.agent_id, Place.id, Place.state, sa.literal(at)).join(
            Place, sa.and_(Place.world_id == world_id, Place.path == up.c.path)
        )
        session.execute(
            insert(AgentPlace)
            .from_select(["agent_id", "place_id", "seen_state", "seen_at"], _in_key_order(known))
            .on_conflict_do_nothing(index_elements=[AgentPlace.agent_id, AgentPlace.place_id])
        )


def _on_path(path: str) -> list[str]:
    """The canonical path and its ancestors, area first; [] if it is not a path."""
    canonical = _canonical(path)
    return [*ancestors(canonical), canonical] if canonical else []


def _pairs(
    pairs: Sequence[tuple[uuid.UUID, str]], states: Sequence[str] | None = None
) -> sa.TableValuedAlias:
    """(agent_id, path[, state]) rows from arrays: one parameter per column, any batch size."""
    columns = [
        sa.cast([str(a) for a, _ in pairs], ARRAY(UUID(as_uuid=False))),
        sa.cast([p for _, p in pairs], ARRAY(sa.Text)),
    ]
    names = ["agent_id", "path"]
    if states is not None:
        columns.append(sa.cast(list(states), ARRAY(sa.Text)))
        names.append("state")
    return sa.func.unnest(*columns).table_valued(*names).render_derived()


def _in_key_order(rows: sa.Select[Any]) -> sa.Select[Any]:
    """(agent_id, place_id, …) rows ordered by that key: concurrent steps that see the same
    places upsert their rows in one order, and wait for each other instead of deadlocking (in
    the order a game listed its agents, 200 agents stepped from four clients did)."""
    agent_id, place_id = list(rows.selected_columns)[:2]
    return rows.order_by(agent_id, place_id)


def _upsert_seen(session: Session, rows: sa.Select[Any]) -> None:
    """Insert (agent_id, place_id, seen_state, seen_at) rows, in key order; a place already
    known takes the new view only when its state differs (no write when nothing changed)."""
    stmt = insert(AgentPlace).from_select(
        ["agent_id", "place_id", "seen_state", "seen_at"], _in_key_order(rows)
    )
    session.execute(
        stmt.on_conflict_do_update(
            index_elements=[AgentPlace.agent_id, AgentPlace.place_id],
            set_={"seen_state": stmt.excluded.seen_state, "seen_at": stmt.excluded.seen_at},
            where=AgentPlace.seen_state.is_distinct_from(stmt.excluded.seen_state),
        )
    )
