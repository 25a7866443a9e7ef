"""Alembic environment: the URL comes from the caller (`hearth db …`) or HEARTH_DATABASE_URL."""

from __future__ import annotations

import os

import sqlalchemy as sa
from alembic import context

import db.models  # noqa: F401  (registers every table on the metadata)
from db.models import Base

config = context.config
target_metadata = Base.metadata

ANALYST_VIEWS = {
    "memory_stream",
    "reflection_evidence",
    "plan_tree",
    "dialogue",
    "relationships_now",
    "llm_usage",
    "heard",
    "relationship_pairs",
}


def _url() -> str:
    url = config.get_main_option("sqlalchemy.url") or os.environ.get("HEARTH_DATABASE_URL")
    if not url:
        raise SystemExit("no database URL: run migrations with `hearth db upgrade`")
    return url


def _include_object(
    obj: object, name: str | None, type_: str, reflected: bool, compare_to: object
) -> bool:
    # Views are created by hand-written SQL in the revisions; autogenerate must not drop them.
    return not (type_ == "table" and reflected and name in ANALYST_VIEWS)


def run_migrations_online() -> None:
    connectable = config.attributes.get("connection")
    if connectable is not None:
        _run(connectable)
        return
    engine = sa.create_engine(_url(), poolclass=sa.pool.NullPool)
    with engine.connect() as connection:
        _run(connection)
    engine.dispose()


def _run(connection: sa.Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        include_object=_include_object,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


run_migrations_online()
