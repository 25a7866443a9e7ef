"""Worlds (admin creates; the world's key reads), their keys, and the game clock."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import sqlalchemy as sa
from fastapi import APIRouter, Response
from fastapi.responses import JSONResponse

from cognition import game_time
from db.models import ApiKey, World
from db.queries.api_keys import generate_key, store_key
from db.queries.worlds import (
    advance_clock,
    configure_clock,
    create_world,
    game_now,
    list_worlds,
    set_clock,
)
from service.deps import AdminDep, CurrentWorld, IdempotencyDep, SessionDep
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
from service.schemas.common import Page
from service.schemas.worlds import (
    ClockRead,
    ClockUpdate,
    KeyCreated,
    KeyRead,
    WorldCreate,
    WorldCreated,
    WorldRead,
    WorldSettings,
    WorldUpdate,
)

router = APIRouter(prefix="/v1/worlds", tags=["worlds"], responses=ERROR_RESPONSES)


def clock_read(world: World) -> ClockRead:
    return ClockRead(
        mode=world.clock_mode, rate=world.clock_rate, now=game_now(world), paused=world.paused
    )


def world_read(world: World) -> WorldRead:
    return WorldRead(
        id=world.id,
        name=world.name,
        clock=clock_read(world),
        settings=WorldSettings.model_validate(world.settings),
        created_at=world.created_at,
    )


@router.post("", status_code=201, response_model=WorldCreated, summary="Create a world (admin)")
def create(
    body: WorldCreate,
    caller: AdminDep,
    session: SessionDep,
    idempotency: IdempotencyDep,
) -> JSONResponse:
    def make() -> tuple[int, WorldCreated]:
        start = body.clock.start or datetime.now(UTC).replace(tzinfo=None, microsecond=0)
        world = create_world(
            session,
            name=body.name,
            start=start,
            mode=body.clock.mode,
            rate=body.clock.rate,
            settings=body.settings.model_dump(exclude_none=True),
        )
        key = generate_key("world")
        store_key(session, key, world_id=world.id, name="created with the world")
        session.refresh(world)
        return 201, WorldCreated(**world_read(world).model_dump(), api_key=key)

    return run_once(session, idempotency, body=body, world_id=None, create=make)


@router.get("", response_model=Page[WorldRead], summary="List worlds (admin; cursor pages)")
def index(
    caller: AdminDep,
    session: SessionDep,
    limit: LimitQuery = DEFAULT_PAGE_SIZE,
    cursor: CursorQuery = None,
) -> Page[WorldRead]:
    """Every world in creation order; a world key answers 403 (it reaches one world: `/v1/me`)."""
    position = decode_cursor(cursor, time_and_uuid)
    rows = list_worlds(session, after=position, limit=limit + 1)
    page, more = rows[:limit], len(rows) > limit
    last = page[-1] if more else None
    next_cursor = encode_cursor([last.created_at.isoformat(), str(last.id)]) if last else None
    return Page[WorldRead](items=[world_read(w) for w in page], next_cursor=next_cursor)


@router.get("/{world_id}", response_model=WorldRead, summary="Read a world and its clock")
def read(world: CurrentWorld) -> WorldRead:
    return world_read(world)


@router.patch("/{world_id}", response_model=WorldRead, summary="Rename or change settings (admin)")
def update(
    body: WorldUpdate, world: CurrentWorld, caller: AdminDep, session: SessionDep
) -> WorldRead:
    """Each setting given replaces the world's (a model budget, weights, the reflection
    threshold); null returns it to the server's default; a setting left out is kept. Only the
    admin key may: a world's key must not lift its own budget."""
    if body.name is not None:
        world.name = body.name
    if body.settings is not None:
        changed = dict(world.settings or {})
        for name in body.settings.model_fields_set:
            value = getattr(body.settings, name)
            if value is None:
                changed.pop(name, None)
            else:
                changed[name] = body.settings.model_dump(include={name}, exclude_none=True)[name]
        world.settings = changed
    session.commit()
    return world_read(world)


@router.post(
    "/{world_id}/clock",
    response_model=ClockRead,
    responses=errors(409),
    summary="Set, advance or pause",
)
def update_clock(body: ClockUpdate, world: CurrentWorld, session: SessionDep) -> ClockRead:
    """The clock moves forward: an earlier `set` needs `rewind: true` (409 `clock_backwards`
    otherwise), and an advance past the end of game time is a 422."""
    _check_move(body, game_now(world))
    if body.mode is not None or body.rate is not None or body.paused is not None:
        configure_clock(session, world, mode=body.mode, rate=body.rate, paused=body.paused)
    if body.set is not None:
        set_clock(session, world, to=body.set)
    elif body.advance_minutes is not None:
        advance_clock(session, world, minutes=body.advance_minutes)
    session.commit()
    return clock_read(world)


def _check_move(body: ClockUpdate, now: datetime) -> None:
    if body.set is not None and body.set < now and not body.rewind:
        raise ApiError(
            409,
            "clock_backwards",
            f"{body.set.isoformat()} is before the world's "
            f"now ({now.isoformat()}); send `rewind: true` to move the clock back",
            field="body.set",
        )
    if (
        body.advance_minutes is not None
        and game_time.advanced(now, body.advance_minutes * 60) >= game_time.LATEST
    ):
        raise ApiError(
            422,
            "validation_error",
            f"the advance would pass the end of game time ({game_time.SPAN_TEXT})",
            field="body.advance_minutes",
        )


@router.delete(
    "/{world_id}", status_code=204, summary="Delete a world and everything in it (admin)"
)
def delete(world: CurrentWorld, caller: AdminDep, session: SessionDep) -> Response:
    """Its agents, memories, plans, dialogue, map, keys and events go with it (export it first
    to keep a copy: `GET …/export`)."""
    session.execute(sa.delete(World).where(World.id == world.id))
    session.commit()
    return Response(status_code=204)


@router.post(
    "/{world_id}/keys",
    status_code=201,
    response_model=KeyCreated,
    summary="Issue another key for the world (rotation; admin)",
)
def create_key(world: CurrentWorld, caller: AdminDep, session: SessionDep) -> KeyCreated:
    key = generate_key("world")
    row = store_key(session, key, world_id=world.id, name="rotated")
    session.commit()
    return KeyCreated(
        id=row.id, prefix=row.prefix, created_at=row.created_at, revoked_at=None, api_key=key
    )


@router.get("/{world_id}/keys", response_model=list[KeyRead], summary="List keys (admin)")
def list_keys(world: CurrentWorld, caller: AdminDep, session: SessionDep) -> list[KeyRead]:
    rows = session.scalars(
        sa.select(ApiKey).where(ApiKey.world_id == world.id).order_by(ApiKey.created_at)
    )
    return [
        KeyRead(id=r.id, prefix=r.prefix, created_at=r.created_at, revoked_at=r.revoked_at)
        for r in rows
    ]


@router.delete("/{world_id}/keys/{key_id}", status_code=204, summary="Revoke a key (admin)")
def revoke_key(
    key_id: uuid.UUID, world: CurrentWorld, caller: AdminDep, session: SessionDep
) -> Response:
    row = session.get(ApiKey, key_id)
    if row is None or row.world_id != world.id:
        raise ApiError(404, "not_found", f"no key {key_id} in this world")
    row.revoked_at = row.revoked_at or datetime.now(UTC)
    session.commit()
    return Response(status_code=204)
