"""An app on the session's databases, an admin key, and a world made through the API."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session, sessionmaker

from db.queries.api_keys import generate_key, store_key
from db.settings import Settings
from service.app import create_app
from tests.service.api import create_world


@pytest.fixture
def client(settings: Settings, sessions: sessionmaker[Session]) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as test_client:
        yield test_client


@pytest.fixture
def admin_headers(sessions: sessionmaker[Session]) -> dict[str, str]:
    key = generate_key("admin")
    with sessions.begin() as session:
        store_key(session, key)
    return {"Authorization": f"Bearer {key}"}


@pytest.fixture
def world(client: TestClient, admin_headers: dict[str, str]) -> dict[str, Any]:
    return create_world(client, admin_headers)
