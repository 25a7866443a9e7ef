"""Agents: create (with the paper's seed memories), list, read, update, delete."""

from __future__ import annotations

import uuid

from fastapi import APIRouter, Response
from fastapi.responses import JSONResponse
from sqlalchemy.orm import Session

from db.models import Agent
from db.queries.agents import delete_agent, find_agent_by_name, list_agents
from db.queries.events import emit
from db.queries.worlds import game_now
from service.deps import CurrentAgent, CurrentWorld, IdempotencyDep, SessionDep
from service.errors import ERROR_RESPONSES, ApiError, errors
from service.idempotency import run_once
from service.pagination import (
    DEFAULT_PAGE_SIZE,
    CursorQuery,
    LimitQuery,
    decode_cursor,
    encode_cursor,
    time_and_uuid,
)
from service.personas import (
    PLACEMENT_FIELDS,
    agent_reads,
    announce_update,
    create_persona,
    resolve_placement,
    update_persona,
)
from service.schemas.agents import AgentCreate, AgentRead, AgentUpdate
from service.schemas.common import Page

router = APIRouter(
    prefix="/v1/worlds/{world_id}/agents", tags=["agents"], responses=ERROR_RESPONSES
)


def agent_read(session: Session, agent: Agent) -> AgentRead:
    return agent_reads(session, [agent])[0]


@router.post("", status_code=201, response_model=AgentRead, summary="Create an agent")
def create(
    body: AgentCreate,
    world: CurrentWorld,
    idempotency: IdempotencyDep,
    session: SessionDep,
) -> JSONResponse:
    def make() -> tuple[int, AgentRead]:
        _require_free_name(session, world.id, body.name)
        placement = resolve_placement(
            session,
            world_id=world.id,
            start_place=body.start_place,
            known_places=body.known_places,
            field="body",
            living_area=body.living_area,
            create=body.create_places,
        )
        agent = create_persona(
            session,
            world=world,
            fields=body.model_dump(exclude=set(PLACEMENT_FIELDS)),
            placement=placement,
            now=game_now(world),
        )
        session.refresh(agent)
        return 201, agent_read(session, agent)

    return run_once(session, idempotency, body=body, world_id=world.id, create=make)


def _require_free_name(session: Session, world_id: uuid.UUID, name: str) -> None:
    if find_agent_by_name(session, world_id=world_id, name=name) is not None:
        raise ApiError(
            409,
            "conflict",
            f"an agent named {name!r} already exists in this world",
            field="body.name",
        )


@router.get("", response_model=Page[AgentRead], summary="List agents (cursor pages)")
def index(
    world: CurrentWorld,
    session: SessionDep,
    limit: LimitQuery = DEFAULT_PAGE_SIZE,
    cursor: CursorQuery = None,
) -> Page[AgentRead]:
    position = decode_cursor(cursor, time_and_uuid)
    rows = list_agents(session, world_id=world.id, after=position, limit=limit + 1)
    page, more = rows[:limit], len(rows) > limit
    last = page[-1] if more else None
    next_cursor = encode_cursor([last.created_at.isoformat(), str(last.id)]) if last else None
    return Page[AgentRead](items=agent_reads(session, page), next_cursor=next_cursor)


@router.get("/{agent_id}", response_model=AgentRead, summary="Read an agent")
def read(agent: CurrentAgent, session: SessionDep) -> AgentRead:
    return agent_read(session, agent)


@router.patch(
    "/{agent_id}",
    response_model=AgentRead,
    responses=errors(409),
    summary="Change persona fields, move the agent, teach it places",
)
def update(
    body: AgentUpdate, agent: CurrentAgent, world: CurrentWorld, session: SessionDep
) -> AgentRead:
    changes = body.model_dump(exclude_unset=True, exclude=set(PLACEMENT_FIELDS))
    if "name" in changes and changes["name"] is not None and changes["name"] != agent.name:
        _require_free_name(session, agent.world_id, changes["name"])
    placement = resolve_placement(
        session,
        world_id=world.id,
        start_place=body.start_place,
        known_places=body.known_places or [],
        field="body",
        living_area=body.living_area,
        create=body.create_places,
    )
    fields = {name: value for name, value in changes.items() if value is not None}
    changed = update_persona(
        session, agent=agent, fields=fields, placement=placement, move=True, now=game_now(world)
    )
    announce_update(session, agent, changed)
    session.commit()
    return agent_read(session, agent)


@router.delete("/{agent_id}", status_code=204, summary="Delete an agent and all it remembers")
def delete(agent: CurrentAgent, session: SessionDep) -> Response:
    delete_agent(session, agent.id)
    emit(
        session,
        world_id=agent.world_id,
        type="agent_deleted",
        payload={"agent_id": str(agent.id), "name": agent.name},
    )
    session.commit()
    return Response(status_code=204)
