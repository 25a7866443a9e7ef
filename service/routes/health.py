"""Liveness and readiness: is the process up; can it reach PostgreSQL, Redis and a worker.

`/readyz` answers anyone (a load balancer has no key), so it names no process: which worker
answered (its pid and host) is shown only to a caller with the admin key."""

from __future__ import annotations

import asyncio
from typing import Any

import redis
import sqlalchemy as sa
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session, sessionmaker

from db import jobs
from db.jobs import Queue
from db.queries.api_keys import find_active_key

router = APIRouter(tags=["health"])

WORKER_PING_TIMEOUT_S = 2.0


class Health(BaseModel):
    status: str
    instance: str | None = Field(
        description="the id of the HEARTH_HOME this API was started from (`service.instance`)"
    )


class Check(BaseModel):
    ok: bool
    detail: str = ""


class Readiness(BaseModel):
    status: str
    checks: dict[str, Check]


@router.get("/healthz", response_model=Health, summary="The process is up")
def healthz(request: Request) -> Health:
    return Health(status="ok", instance=request.app.state.instance)


@router.get(
    "/readyz",
    response_model=Readiness,
    responses={503: {"model": Readiness, "description": "a dependency does not answer"}},
    summary="PostgreSQL, Redis and at least one worker answer",
)
async def readyz(request: Request) -> Any:
    """Ready when PostgreSQL, Redis and at least one queue's worker answer. With the admin key
    (`Authorization: Bearer`, optional) each worker check names the process that answered."""
    credentials = request.headers.get("authorization")
    state = request.app.state
    database, broker = await asyncio.gather(
        asyncio.to_thread(_check_database, state.engine),
        asyncio.to_thread(_check_redis, state.redis_url),
    )
    checks: dict[str, Check] = {"database": database, "redis": broker}
    if broker.ok:
        pings = await asyncio.gather(
            *(asyncio.to_thread(_check_worker, state.celery, q) for q in Queue)
        )
        if not await asyncio.to_thread(_is_admin, state.sessions, credentials):
            pings = [Check(ok=c.ok, detail="" if c.ok else c.detail) for c in pings]
        checks.update({f"worker_{q.value}": c for q, c in zip(Queue, pings, strict=True)})
        worker_ok = any(c.ok for c in pings)
    else:
        worker_ok = False
    ready = database.ok and broker.ok and worker_ok
    body = Readiness(status="ready" if ready else "not_ready", checks=checks)
    return JSONResponse(status_code=200 if ready else 503, content=body.model_dump())


def _is_admin(sessions: sessionmaker[Session], authorization: str | None) -> bool:
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return False
    try:
        with sessions() as session:
            key = find_active_key(session, token.strip())
    except sa.exc.SQLAlchemyError:
        return False
    return key is not None and key.world_id is None


def _check_database(engine: sa.Engine) -> Check:
    try:
        with engine.connect() as conn:
            conn.execute(sa.text("SELECT 1"))
        return Check(ok=True)
    except sa.exc.SQLAlchemyError as exc:
        return Check(ok=False, detail=type(exc).__name__)


def _check_redis(url: str) -> Check:
    try:
        client = redis.Redis.from_url(url, socket_timeout=1.0, socket_connect_timeout=1.0)
        client.ping()
        return Check(ok=True)
    except redis.RedisError as exc:
        return Check(ok=False, detail=type(exc).__name__)


def _check_worker(celery: Any, queue: Queue) -> Check:
    result = celery.send_task(jobs.PING.name, queue=queue.value, expires=WORKER_PING_TIMEOUT_S)
    try:
        answer = result.get(timeout=WORKER_PING_TIMEOUT_S)
        return Check(ok=True, detail=f"pid {answer['pid']} on {answer['host']}")
    except Exception as exc:  # a timeout is the expected "no worker" answer
        result.forget()
        return Check(
            ok=False, detail=f"no worker answered on '{queue.value}' ({type(exc).__name__})"
        )
