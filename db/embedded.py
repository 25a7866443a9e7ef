"""Embedded PostgreSQL 16 + pgvector from the `pgserver` package, in the Hearth data folder.

Used when HEARTH_DATABASE_URL is unset. The server is real and its data folder persists, so a
restart finds every row again. pgserver shares one server between processes that ask for the
same folder and stops it when the last of them exits.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import sqlalchemy as sa

log = logging.getLogger(__name__)

DATABASE_NAME = "hearth"


class EmbeddedPostgres:
    """A running pgserver instance and the SQLAlchemy URL of Hearth's database in it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._server: Any = None

    def start(self) -> str:
        """Start (or join) the server, create the `hearth` database and pgvector; return its URL."""
        import pgserver  # imported here: only the embedded mode needs it

        self.folder.mkdir(parents=True, exist_ok=True)
        self._server = pgserver.get_server(self.folder, cleanup_mode="stop")
        self._ensure_database()
        return self.url

    @property
    def url(self) -> str:
        return to_sqlalchemy_url(self._server.get_uri(DATABASE_NAME))

    @property
    def admin_url(self) -> str:
        return to_sqlalchemy_url(self._server.get_uri("postgres"))

    def _ensure_database(self) -> None:
        engine = sa.create_engine(self.admin_url, isolation_level="AUTOCOMMIT")
        with engine.connect() as conn:
            exists = conn.scalar(
                sa.text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": DATABASE_NAME}
            )
            if not exists:
                conn.execute(sa.text(f'CREATE DATABASE "{DATABASE_NAME}"'))
        engine.dispose()
        engine = sa.create_engine(self.url, isolation_level="AUTOCOMMIT")
        with engine.connect() as conn:
            conn.execute(sa.text("CREATE EXTENSION IF NOT EXISTS vector"))
        engine.dispose()

    def stop(self) -> None:
        """Release this process's hold; pgserver stops the server when nobody else holds it."""
        if self._server is not None:
            self._server.cleanup()
            self._server = None


def to_sqlalchemy_url(uri: str) -> str:
    """pgserver hands out libpq URIs; SQLAlchemy needs the psycopg 3 driver named."""
    for prefix in ("postgresql+psycopg://", "postgresql://", "postgres://"):
        if uri.startswith(prefix):
            return "postgresql+psycopg://" + uri[len(prefix) :]
    return uri
