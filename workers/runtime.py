"""What a worker process needs at hand — settings, engine, sessions, the Mind and the
Embedder — built once per process (the embedder's content-hash cache lives as long as it).

Built on `worker_process_init` (after the prefork fork, so no connection crosses a fork), or on
first use in processes that never fork (tests calling task bodies directly).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from celery.signals import worker_process_init
from sqlalchemy.orm import Session, sessionmaker

from cognition.mind import Embedder, Mind
from db.flows.faculties import Faculties
from db.providers import build_embedder, build_mind
from db.retrieval.vector_cache import use_process_cache
from db.session import make_engine, make_session_factory
from db.session import session_scope as _session_scope
from db.settings import Settings, load_settings
from workers.dispatch import CeleryDispatch, Dispatch

WORKER_POOL_SIZE = 2


@dataclass
class Runtime:
    settings: Settings
    engine: sa.Engine
    sessions: sessionmaker[Session]
    mind: Mind
    embedder: Embedder
    dispatch: Dispatch = field(default_factory=CeleryDispatch)
    """How tasks enqueue follow-up work (tests and the bench install `LocalDispatch`)."""

    @property
    def faculties(self) -> Faculties:
        """What the flows think with; the audit writes through this process's sessions."""
        return Faculties(
            settings=self.settings, mind=self.mind, embedder=self.embedder, audit=self.sessions
        )


_runtime: Runtime | None = None


def build_runtime(settings: Settings) -> Runtime:
    if settings.database_url is None:
        raise RuntimeError("workers need HEARTH_DATABASE_URL; start them with `hearth worker`")
    engine = make_engine(settings.database_url, pool_size=WORKER_POOL_SIZE, pre_ping=False)
    use_process_cache(settings.retrieval_cache_mb)
    return Runtime(
        settings=settings,
        engine=engine,
        sessions=make_session_factory(engine),
        mind=build_mind(settings),
        embedder=build_embedder(settings),
        dispatch=CeleryDispatch(),
    )


def get_runtime() -> Runtime:
    global _runtime
    if _runtime is None:
        _runtime = build_runtime(load_settings())
    return _runtime


def set_runtime(runtime: Runtime | None) -> None:
    """Install a runtime explicitly (tests call task bodies in-process with their own)."""
    global _runtime
    _runtime = runtime


@contextmanager
def session_scope() -> Iterator[Session]:
    with _session_scope(get_runtime().sessions) as session:
        yield session


@worker_process_init.connect
def _init_worker_process(**_: Any) -> None:
    global _runtime
    _runtime = None
    get_runtime()
