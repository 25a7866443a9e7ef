"""Writing personas, shared by the agents routes and the persona-pack import, so an agent made
either way gets the same seed memories, place knowledge and events."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from cognition.places import ancestors
from cognition.types import MemoryKind, MemorySource, NewMemory
from db.models import Agent, Place, World
from db.queries.agents import create_agent
from db.queries.events import emit
from db.queries.memories import add_memories
from db.queries.places import known_paths, known_place_ids, learn_places
from db.queries.step import current_actions
from db.queries.worlds import game_now
from service.place_names import canonical, resolve_places
from service.schemas.agents import AgentRead

PLACEMENT_FIELDS = ("start_place", "known_places", "create_places")
"""Request fields that are not persona columns: they write `agents.place` and `agent_places`."""


@dataclass(frozen=True)
class Placement:
    """Where an agent starts, its home (canonical path, or "" for none) and every place it
    knows (listed ones and their ancestors)."""

    start: Place | None
    known: list[Place]
    home: str | None = None


def resolve_placement(
    session: Session,
    *,
    world_id: uuid.UUID,
    start_place: str | None,
    known_places: Sequence[str],
    field: str,
    living_area: str | None = None,
    create: bool = False,
) -> Placement:
    """Check every path against the world's map (`service.place_names`: a 422 naming an
    unknown one, or its creation with `create`)."""
    listed = [(f"{field}.known_places.{i}", path) for i, path in enumerate(known_places)]
    if start_place is not None:
        listed.append((f"{field}.start_place", start_place))
    home = [(f"{field}.living_area", living_area)] if living_area else []
    found = resolve_places(session, world_id=world_id, named=[*listed, *home], create=create)
    paths = [canonical(path, where) for where, path in listed]
    wanted = {p for path in paths for p in (*ancestors(path), path)}
    return Placement(
        start=found[paths[-1]] if start_place is not None else None,
        known=[found[path] for path in sorted(wanted)],
        home=canonical(living_area, home[0][0]) if home and living_area else living_area,
    )


def seed_phrases(background: str) -> list[str]:
    """The paper seeds memory with each semicolon-separated phrase of the background."""
    return [phrase.strip() for phrase in background.split(";") if phrase.strip()]


def relationship_seed(name: str, other: str, summary: str) -> NewMemory:
    """A pack's relationship as a seed memory, so "Do you know of <other>?" can be answered
    from memory: "Junie Halvorsen knows Tomas Ferreira: her barista."."""
    how = " ".join(summary.split()).rstrip(".")
    text = f"{name} knows {other}: {how}." if how else f"{name} knows {other}."
    return NewMemory(
        description=text, kind=MemoryKind.SEED, subject=name, source=MemorySource.ADMIN
    )


def create_persona(
    session: Session, *, world: World, fields: dict[str, Any], placement: Placement, now: datetime
) -> Agent:
    """A new agent with its seed memories, standing at its start place, knowing its places."""
    place = placement.start.path if placement.start else None
    home = {"living_area": placement.home} if placement.home is not None else {}
    agent = create_agent(session, world_id=world.id, fields={**fields, **home, "place": place})
    seeds = [
        NewMemory(description=p, kind=MemoryKind.SEED, source=MemorySource.ADMIN)
        for p in seed_phrases(agent.background)
    ]
    add_memories(session, world_id=world.id, agent_id=agent.id, items=seeds, now=now)
    learn_places(session, agent_ids=[agent.id], places=placement.known, at=now)
    emit(
        session,
        world_id=world.id,
        type="agent_created",
        payload={"agent_id": str(agent.id), "name": agent.name},
    )
    return agent


def update_persona(
    session: Session,
    *,
    agent: Agent,
    fields: dict[str, Any],
    placement: Placement,
    move: bool,
    now: datetime,
) -> list[str]:
    """Apply what differs; learn places not yet known; move to the start place if `move`.

    Returns the names of what changed (empty: nothing did); the caller announces it.
    """
    if placement.home is not None and "living_area" in fields:
        fields = {**fields, "living_area": placement.home}
    changed = [name for name, value in fields.items() if getattr(agent, name) != value]
    for name in changed:
        setattr(agent, name, fields[name])
    known = known_place_ids(session, agent.id)
    new = [place for place in placement.known if place.id not in known]
    learn_places(session, agent_ids=[agent.id], places=new, at=now)
    changed += ["known_places"] if new else []
    if move and placement.start is not None and agent.place != placement.start.path:
        agent.place = placement.start.path
        changed.append("place")
    session.flush()
    return changed


def announce_update(session: Session, agent: Agent, changed: Sequence[str]) -> None:
    """One `agent_updated` event naming what changed; nothing when nothing did."""
    if changed:
        emit(
            session,
            world_id=agent.world_id,
            type="agent_updated",
            payload={"agent_id": str(agent.id), "name": agent.name, "changed": list(changed)},
        )


def agent_reads(session: Session, agents: Sequence[Agent]) -> list[AgentRead]:
    """Agents as the API shows them, with their known places and what each is doing now (one
    query each for all of them)."""
    ids = [agent.id for agent in agents]
    paths = known_paths(session, ids)
    world = session.get(World, agents[0].world_id) if agents else None
    actions = current_actions(session, ids, game_now(world)) if world is not None else {}
    return [
        AgentRead.model_validate(agent, from_attributes=True).model_copy(
            update={
                "known_places": paths[agent.id],
                "status": actions[agent.id].description if agent.id in actions else None,
            }
        )
        for agent in agents
    ]
