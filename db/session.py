"""Engines and sessions. No import-time side effects: callers build them from settings.

The edge owns the transaction: query functions may flush, never commit; a route or a task
commits once through `session_scope`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

DEFAULT_POOL_SIZE = 10
CONNECT_TIMEOUT_S = 5
"""A database host that does not answer fails a connection in seconds (the caller answers 503
or retries), instead of after the operating system's TCP timeout of minutes."""


def make_engine(
    url: str, *, pool_size: int = DEFAULT_POOL_SIZE, pre_ping: bool = True
) -> sa.Engine:
    """An engine with pre-ping, so a restarted database costs one failed checkout, not a crash.
    Workers go without (a round trip per checkout, several per job): a job whose connection
    died fails with an OperationalError and is retried (`workers.tasks.base.RETRY_POLICY`)."""
    return sa.create_engine(
        url,
        pool_size=pool_size,
        max_overflow=pool_size,
        pool_pre_ping=pre_ping,
        connect_args={"connect_timeout": CONNECT_TIMEOUT_S},
    )


def make_session_factory(engine: sa.Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


@contextmanager
def session_scope(factory: sessionmaker[Session]) -> Iterator[Session]:
    """One unit of work: commit on success, roll back on any error."""
    session = factory()
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()
