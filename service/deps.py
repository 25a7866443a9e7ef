"""FastAPI dependencies as `Annotated` aliases, so handlers read like their signature:
`def create_agent(world: CurrentWorld, body: AgentCreate, session: SessionDep)`."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, Header, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session, sessionmaker

from cognition.mind import Embedder, Mind
from db.flows.faculties import Faculties
from db.models import Agent, World
from db.queries.agents import get_agent
from db.queries.worlds import get_world
from db.settings import Settings
from service.auth import Caller, authenticate
from service.errors import ApiError
from service.idempotency import MAX_KEY_LENGTH, Idempotency
from service.rate_limits import BAD_KEY, DEFAULT, ROUTE_KIND, RateLimiter
from service.schemas.common import NON_BLANK

bearer = HTTPBearer(auto_error=False, description="An admin key or a world key")


def _session(request: Request) -> Iterator[Session]:
    """One session per request; routes commit once, anything uncommitted is rolled back."""
    session: Session = request.app.state.sessions()
    try:
        yield session
    finally:
        session.rollback()
        session.close()


SessionDep = Annotated[Session, Depends(_session)]


def _session_factory(request: Request) -> sessionmaker[Session]:
    """For work that must commit apart from the request's transaction (the model-call audit)."""
    factory: sessionmaker[Session] = request.app.state.sessions
    return factory


SessionFactoryDep = Annotated[sessionmaker[Session], Depends(_session_factory)]


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


SettingsDep = Annotated[Settings, Depends(_settings)]


def _caller(
    request: Request,
    session: SessionDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> Caller:
    """The calling key, once its request fits the key's rate limit (`service.rate_limits`:
    429 `rate_limited` with `Retry-After` when it does not). A request whose key fails is
    counted against its client address: past that allowance it is a 429, not a 401."""
    limiter: RateLimiter = request.app.state.rate_limiter
    try:
        caller = authenticate(session, credentials)
    except ApiError:
        address = request.client.host if request.client else "unknown"
        wait = limiter.wait(address, BAD_KEY)
        if wait is not None:
            raise _limited("this address sent too many wrong keys", wait) from None
        raise
    route = request.scope.get("route")
    kind = str((getattr(route, "openapi_extra", None) or {}).get(ROUTE_KIND, DEFAULT))
    wait = limiter.wait(caller.key_id, kind)
    if wait is not None:
        raise _limited(f"this key is over its {kind} rate limit", wait)
    return caller


def _limited(reason: str, wait: int) -> ApiError:
    return ApiError(
        429, "rate_limited", f"{reason}; retry in {wait} s", headers={"Retry-After": str(wait)}
    )


CallerDep = Annotated[Caller, Depends(_caller)]


def _admin(caller: CallerDep) -> Caller:
    if not caller.is_admin:
        raise ApiError(403, "forbidden", "this route needs the admin key")
    return caller


AdminDep = Annotated[Caller, Depends(_admin)]


def _world(world_id: uuid.UUID, caller: CallerDep, session: SessionDep) -> World:
    world = get_world(session, world_id) if caller.can_see(world_id) else None
    if world is None:
        raise ApiError(404, "not_found", f"no world {world_id}")
    return world


CurrentWorld = Annotated[World, Depends(_world)]


def _agent(agent_id: uuid.UUID, world: CurrentWorld, session: SessionDep) -> Agent:
    agent = get_agent(session, world_id=world.id, agent_id=agent_id)
    if agent is None:
        raise ApiError(404, "not_found", f"no agent {agent_id} in this world")
    return agent


CurrentAgent = Annotated[Agent, Depends(_agent)]


def _mind(request: Request) -> Mind:
    """The process's Mind (LLM or offline); routes bind their own audit sink to it."""
    mind: Mind = request.app.state.mind
    return mind


MindDep = Annotated[Mind, Depends(_mind)]


def _embedder(request: Request) -> Embedder:
    embedder: Embedder = request.app.state.embedder
    return embedder


EmbedderDep = Annotated[Embedder, Depends(_embedder)]


def _faculties(request: Request) -> Faculties:
    """What the flows think with: the process's settings, Mind and Embedder; model calls are
    audited through its session factory, apart from the request's transaction."""
    state = request.app.state
    return Faculties(
        settings=state.settings, mind=state.mind, embedder=state.embedder, audit=state.sessions
    )


FacultiesDep = Annotated[Faculties, Depends(_faculties)]


def _idempotency(
    request: Request,
    caller: CallerDep,
    key: Annotated[
        str | None,
        Header(
            alias="Idempotency-Key",
            min_length=1,
            max_length=MAX_KEY_LENGTH,
            pattern=NON_BLANK,
            description="retrying the same request with the same key returns the first answer; "
            "the key reused for another body or target answers 409 `idempotency_conflict`",
        ),
    ] = None,
) -> Idempotency:
    return Idempotency(key=key, caller=caller, method=request.method, path=request.url.path)


IdempotencyDep = Annotated[Idempotency, Depends(_idempotency)]
