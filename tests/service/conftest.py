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


def make_world(client: TestClient, admin: dict[str, str], **body: Any) -> dict[str, Any]:
    body.setdefault("name", "Smallville")
    body.setdefault("clock", {"mode": "driven", "start": "2023-02-13T07:00:00"})
    response = client.post("/v1/worlds", json=body, headers=admin)
    assert response.status_code == 201, response.json()
    world: dict[str, Any] = response.json()
    world["headers"] = {"Authorization": f"Bearer {world['api_key']}"}
    return world


@pytest.fixture
def world(client: TestClient, admin_headers: dict[str, str]) -> dict[str, Any]:
    return make_world(client, admin_headers)
