"""`POST /v1/worlds/{id}/personas/import`: a whole cast in one request, idempotent by name.

An agent whose name exists is updated, never duplicated; one that already matches is left
alone. The pack's start places apply to new agents (and to ones with no place yet): an
existing agent stays where the simulation put it. Known places are added to what agents
know. Relationships name other agents of the world, the pack's own included.
"""

from __future__ import annotations

from collections.abc import Sequence

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from sqlalchemy.orm import Session

from db.models import Agent, World
from db.queries.agents import find_agent_by_name
from db.queries.events import emit
from db.queries.memories import add_memories
from db.queries.relationships import set_relationship
from db.queries.worlds import game_now
from service.deps import CurrentWorld, IdempotencyDep, SessionDep
from service.errors import ERROR_RESPONSES, ApiError
from service.idempotency import run_once
from service.map_tree import put_map
from service.personas import (
    PLACEMENT_FIELDS,
    announce_update,
    create_persona,
    relationship_seed,
    resolve_placement,
    update_persona,
)
from service.schemas.personas import ImportSummary, PersonaPack, PersonaSpec
from service.schemas.places import MapSummary

router = APIRouter(
    prefix="/v1/worlds/{world_id}/personas", tags=["agents"], responses=ERROR_RESPONSES
)

NOT_PERSONA_FIELDS = {*PLACEMENT_FIELDS, "relationships"}


@router.post(
    "/import",
    response_model=ImportSummary,
    summary="Import a persona pack (map + personas + relationships)",
)
def import_pack(
    body: PersonaPack,
    world: CurrentWorld,
    idempotency: IdempotencyDep,
    session: SessionDep,
) -> JSONResponse:
    def make() -> tuple[int, ImportSummary]:
        _require_unique_names(body.personas)
        map_summary = _apply_map(session, world, body)
        agents, created, changes = _write_personas(session, world, body.personas)
        for index, spec in enumerate(body.personas):
            if _write_relationships(session, world, agents, spec, field=f"body.personas.{index}"):
                changes[spec.name].append("relationships")
        for name, changed in changes.items():
            if name not in created:
                announce_update(session, agents[name], changed)
        return 200, ImportSummary(
            created=created,
            map=map_summary,
            updated=[n for n, c in changes.items() if c and n not in created],
            unchanged=[n for n, c in changes.items() if not c and n not in created],
        )

    return run_once(
        session,
        idempotency,
        body=body,
        world_id=world.id,
        create=make,
    )


def _require_unique_names(personas: Sequence[PersonaSpec]) -> None:
    seen: set[str] = set()
    for index, spec in enumerate(personas):
        if spec.name in seen:
            raise ApiError(
                422,
                "validation_error",
                f"{spec.name!r} appears twice in the pack",
                field=f"body.personas.{index}.name",
            )
        seen.add(spec.name)


def _apply_map(session: Session, world: World, body: PersonaPack) -> MapSummary | None:
    if body.map is None:
        return None
    summary = put_map(session, world_id=world.id, spec=body.map, field="body.map")
    if summary.created or summary.updated or summary.removed:
        emit(session, world_id=world.id, type="map_updated", payload=summary.model_dump())
    return summary


def _write_personas(
    session: Session, world: World, personas: Sequence[PersonaSpec]
) -> tuple[dict[str, Agent], list[str], dict[str, list[str]]]:
    """Create or update each persona: (agents by name, names created, changes by name)."""
    now = game_now(world)
    agents: dict[str, Agent] = {}
    created: list[str] = []
    changes: dict[str, list[str]] = {}
    for index, spec in enumerate(personas):
        placement = resolve_placement(
            session,
            world_id=world.id,
            start_place=spec.start_place,
            known_places=spec.known_places,
            field=f"body.personas.{index}",
            living_area=spec.living_area,
            create=spec.create_places,
        )
        fields = spec.model_dump(exclude=NOT_PERSONA_FIELDS)
        agent = find_agent_by_name(session, world_id=world.id, name=spec.name)
        if agent is None:
            agent = create_persona(
                session, world=world, fields=fields, placement=placement, now=now
            )
            created.append(spec.name)
            changes[spec.name] = ["created"]
        else:
            changes[spec.name] = update_persona(
                session,
                agent=agent,
                fields=fields,
                placement=placement,
                move=agent.place is None,
                now=now,
            )
        agents[spec.name] = agent
    return agents, created, changes


def _write_relationships(
    session: Session, world: World, agents: dict[str, Agent], spec: PersonaSpec, *, field: str
) -> bool:
    """Upsert each of a persona's relationships; True if any changed."""
    me, now, changed = agents[spec.name], game_now(world), False
    for index, rel in enumerate(spec.relationships):
        other = agents.get(rel.other) or find_agent_by_name(
            session, world_id=world.id, name=rel.other
        )
        where = f"{field}.relationships.{index}.other"
        if other is None:
            raise ApiError(
                422, "validation_error", f"no agent named {rel.other!r} in this world", field=where
            )
        if other.id == me.id:
            raise ApiError(
                422, "validation_error", "an agent has no relationship with itself", field=where
            )
        if set_relationship(
            session,
            agent_id=me.id,
            other_name=other.name,
            other_agent_id=other.id,
            summary=rel.summary,
            sentiment=rel.sentiment,
            at=now,
        ):
            changed = True
            known = relationship_seed(me.name, other.name, rel.summary)
            add_memories(session, world_id=world.id, agent_id=me.id, items=[known], now=now)
    return changed
