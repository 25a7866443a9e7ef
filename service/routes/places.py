"""The map (the environment tree), object states the game changes, and each agent's known map.

"Near" rule: when an object changes state, every agent whose current place is in the same
area — the same first path segment, e.g. anywhere in "Fernwood apartment 2" for its stove —
perceives it as an observation "stove is <state>" (`db.queries.objects.change_states`, the
rule agents' own actions use too). Areas are the unit a game usually renders as one scene (a
house, the cafe), so this needs no coordinates.
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from sqlalchemy.orm import Session

from cognition.errors import InvalidInput
from cognition.places import normalize_path, parse_state_statement
from db.models import AgentPlace, Place, World
from db.queries.events import emit
from db.queries.objects import Wanted, change_states
from db.queries.places import known_tree, world_places
from db.queries.worlds import game_now
from service.deps import CurrentAgent, CurrentWorld, IdempotencyDep, SessionDep
from service.enqueue import enqueue, enrichment
from service.errors import ERROR_RESPONSES, ApiError
from service.idempotency import run_once
from service.map_tree import nest, put_map
from service.place_names import resolve_places
from service.schemas.places import (
    KnownMap,
    KnownPlaceRead,
    MapRead,
    MapSpec,
    MapSummary,
    ObjectStateChange,
    ObjectStateRead,
    Perceiver,
    PlaceRead,
)

router = APIRouter(prefix="/v1/worlds/{world_id}", tags=["map"], responses=ERROR_RESPONSES)


@router.put("/map", response_model=MapSummary, summary="Replace the map (upsert by path)")
def replace_map(body: MapSpec, world: CurrentWorld, session: SessionDep) -> MapSummary:
    """Idempotent: the same map twice changes nothing. See docs/architecture.md for removals."""
    summary = put_map(session, world_id=world.id, spec=body, field="body")
    if summary.created or summary.updated or summary.removed:
        emit(session, world_id=world.id, type="map_updated", payload=summary.model_dump())
    session.commit()
    return summary


@router.get("/map", response_model=MapRead, summary="The map with every place's state")
def read_map(world: CurrentWorld, session: SessionDep) -> MapRead:
    def make(place: Place, children: list[PlaceRead]) -> PlaceRead:
        return PlaceRead(
            name=place.name,
            path=place.path,
            state=place.state,
            norms=place.norms,
            children=children,
        )

    return MapRead(name=world.name, children=nest(world_places(session, world.id), make))


@router.get(
    "/agents/{agent_id}/places",
    response_model=KnownMap,
    summary="The part of the map an agent knows, as it last saw it",
)
def read_known(agent: CurrentAgent, session: SessionDep) -> KnownMap:
    rows = known_tree(session, agent.id)
    seen = {place.id: view for place, view in rows}

    def make(place: Place, children: list[KnownPlaceRead]) -> KnownPlaceRead:
        view: AgentPlace = seen[place.id]
        return KnownPlaceRead(
            name=place.name,
            path=place.path,
            state=view.seen_state,
            seen_at=view.seen_at,
            children=children,
        )

    return KnownMap(agent_id=agent.id, children=nest([place for place, _ in rows], make))


@router.post(
    "/objects/state",
    response_model=ObjectStateRead,
    summary="Change a place's state; agents in its area perceive it",
)
def change_state(
    body: ObjectStateChange,
    world: CurrentWorld,
    idempotency: IdempotencyDep,
    session: SessionDep,
) -> JSONResponse:
    path, state, field = _target(body)

    def make() -> tuple[int, ObjectStateRead]:
        place = resolve_places(
            session, world_id=world.id, named=[(field, path)], create=body.create_places
        )[path]
        session.refresh(place, with_for_update=True)  # two changes of one place queue up
        previous = place.state
        perceived = _apply(session, world, path, state) if previous != state else []
        enqueue(session, enrichment([p.memory_id for p in perceived]))
        return 200, ObjectStateRead(
            place=path,
            state=state,
            previous_state=previous,
            changed=previous != state,
            perceived_by=perceived,
        )

    return run_once(session, idempotency, body=body, world_id=world.id, create=make)


def _target(body: ObjectStateChange) -> tuple[str, str, str]:
    """(canonical path, state, the field to blame) from either form of the request."""
    try:
        if body.statement is not None:
            path, state = parse_state_statement(body.statement)
            return path, state, "body.statement"
        assert body.place is not None and body.state is not None
        return normalize_path(body.place), body.state, "body.place"
    except InvalidInput as exc:
        field = "body.statement" if body.statement is not None else "body.place"
        raise ApiError(422, "validation_error", str(exc), field=field) from None


def _apply(session: Session, world: World, path: str, state: str) -> list[Perceiver]:
    """Set the new state; the area perceives it and the world announces it."""
    changed = change_states(
        session, world_id=world.id, wanted=[Wanted(path, state)], now=game_now(world)
    )
    return [
        Perceiver(agent_id=agent.id, name=agent.name, memory_id=memory.id)
        for change in changed
        for agent, memory in change.perceived
    ]
