"""The SDK against a real server: uvicorn on a free port over the session's databases."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hearth_client import Hearth, Retry
from sqlalchemy.orm import Session, sessionmaker

from db.queries.api_keys import generate_key, store_key
from db.settings import Settings
from service.app import create_app
from tests.live import serve

FAST_RETRY = Retry(attempts=3, backoff_s=0.05, max_backoff_s=0.2)
WORLD_START = "2023-02-13T07:00:00"


@pytest.fixture(scope="session")
def live_server(settings: Settings) -> Iterator[str]:
    with serve(create_app(settings)) as url:
        yield url


@pytest.fixture
def base_url(live_server: str, sessions: sessionmaker[Session]) -> str:
    """The server's URL; every table is emptied after the test (via `sessions`)."""
    return live_server


@pytest.fixture
def admin(base_url: str, sessions: sessionmaker[Session]) -> Iterator[Hearth]:
    key = generate_key("admin")
    with sessions.begin() as session:
        store_key(session, key)
    with Hearth(base_url, api_key=key, retry=FAST_RETRY) as client:
        yield client


@pytest.fixture
def world(admin: Hearth, base_url: str) -> Iterator[tuple[str, Hearth]]:
    """A fresh world and a client holding its key."""
    created = admin.create_world("Smallville", clock={"mode": "driven", "start": WORLD_START})
    with Hearth(base_url, api_key=created["api_key"], retry=FAST_RETRY) as client:
        yield created["id"], client
