"""The FastAPI app factory: `create_app(settings, ...)` builds everything; nothing at import."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import redis
from fastapi import FastAPI

from db.providers import build_embedder, build_mind
from db.retrieval.vector_cache import use_process_cache
from db.session import make_engine, make_session_factory
from db.settings import Settings
from service.body_limit import BodyLimit
from service.contract import install_contract
from service.cors import WorldCors
from service.docs import install_docs
from service.errors import install_error_handlers
from service.inspector import install_inspector
from service.instance import instance_id
from service.key_slots import KeySlots
from service.methods import MethodGuard
from service.outbox_relay import OutboxRelay
from service.rate_limits import RateLimiter
from service.request_context import RequestContext
from service.routes import ROUTERS
from workers.app import make_celery
from workers.dispatch import publish

API_TITLE = "Hearth"
API_DESCRIPTION = (
    "Persistent minds for game characters: memory streams, retrieval, reflection, planning and "
    "dialogue (Generative Agents, Park et al. 2023) behind a REST API. Every error answers "
    '`{"error": {"code", "message", "details", "request_id"}}`; every answer has an '
    "`X-Request-ID` header (the caller's, if it sent a sane one). Each key has a rate limit "
    "(429 `rate_limited` with `Retry-After`); the step (`x-rate-limit: step`) has its own."
)


def create_app(settings: Settings) -> FastAPI:
    """Build the API for a database and Redis that are already running (URLs in settings).

    `hearth api` checks the embedding space before building it (`service.reembed`)."""
    if settings.database_url is None or settings.redis_url is None:
        raise RuntimeError("create_app needs database and Redis URLs; `hearth api` resolves them")
    engine = make_engine(settings.database_url, pool_size=settings.db_pool_size)
    embedder = build_embedder(settings)
    use_process_cache(settings.retrieval_cache_mb)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        # What exists at start-up lives as long as the process: keep it out of the cyclic
        # collector's full passes, which otherwise scan it every few large requests (a
        # 1000-agent step's p99 was such a pass: 270 ms of CPU instead of ~75).
        gc.collect()
        gc.freeze()
        relay.start()
        yield
        relay.stop()
        engine.dispose()
        app.state.redis.close()
        app.state.rate_limiter.close()

    app = FastAPI(
        title=API_TITLE,
        description=API_DESCRIPTION,
        version="0.1.0",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.instance = instance_id(settings.home)
    app.state.engine = engine
    app.state.sessions = make_session_factory(engine)
    app.state.embedder = embedder
    app.state.mind = build_mind(settings)
    app.state.redis_url = settings.redis_url
    app.state.celery = make_celery(redis_url=settings.redis_url)
    app.state.redis = redis.Redis.from_url(settings.redis_url, socket_timeout=2.0)
    relay = OutboxRelay(app.state.sessions, send=lambda job: publish(app.state.celery, job))
    relay.watch(app.state.sessions)  # a commit that staged jobs wakes it
    app.state.outbox = relay
    app.state.rate_limiter = RateLimiter.for_settings(settings, settings.redis_url)
    app.add_middleware(MethodGuard, api=app)
    app.add_middleware(BodyLimit)
    app.add_middleware(
        KeySlots,
        max_requests=settings.max_requests_per_key,
        max_streams=settings.max_streams_per_key,
    )
    app.add_middleware(WorldCors, sessions=app.state.sessions)  # its 429s readable by a page
    app.add_middleware(RequestContext)  # outermost: every answer carries the request id
    install_error_handlers(app)
    for router in ROUTERS:
        app.include_router(router)
    install_contract(app)  # error statuses per route, event schemas
    install_docs(app)  # Swagger UI and ReDoc served from a package, not a CDN
    install_inspector(app)
    return app
