"""The database down or restarting is a 503 `unavailable` with `Retry-After` — the envelope, the
request id, `Connection: close` — never a 500; and the API recovers by itself."""

from __future__ import annotations

import socket
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session, sessionmaker

from db.queries.api_keys import generate_key, store_key
from db.settings import Settings
from service.app import create_app
from service.contract import error_statuses
from tests.factories import committed_agent


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])  # nothing listens there once the socket closes


@pytest.fixture
def no_database(settings: Settings) -> TestClient:
    url = f"postgresql+psycopg://hearth@127.0.0.1:{_closed_port()}/hearth"
    return TestClient(create_app(settings.model_copy(update={"database_url": url})))


def _unavailable(response: Any) -> None:
    assert response.status_code == 503, response.text
    error = response.json()["error"]
    assert (error["code"], error["request_id"]) == ("unavailable", response.headers["x-request-id"])
    assert int(response.headers["retry-after"]) > 0
    assert response.headers["connection"] == "close"


def test_every_kind_of_request_answers_503_while_the_database_is_down(
    no_database: TestClient,
) -> None:
    world, agent = "0b3c2d1e-0000-4000-8000-000000000001", "0b3c2d1e-0000-4000-8000-000000000002"
    headers = {"Authorization": "Bearer hk_admin_whatever"}
    with no_database as client:
        _unavailable(client.get("/v1/worlds", headers=headers))
        _unavailable(
            client.post(
                f"/v1/worlds/{world}/agents/{agent}/memories",
                json={"memories": [{"description": "The bakery burned"}]},
                headers=headers,
            )
        )
        _unavailable(client.post(f"/v1/worlds/{world}/step", json={"agents": []}, headers=headers))
        assert client.get("/healthz").status_code == 200  # alive; /readyz says what is not


def test_the_contract_documents_the_503_wherever_a_session_is_opened(settings: Settings) -> None:
    app = create_app(settings)
    spec = app.openapi()
    for route in app.routes:
        statuses = error_statuses(route) if hasattr(route, "dependant") else set()
        for method in getattr(route, "methods", ()) if 503 in statuses else ():
            answer = spec["paths"][route.path_format][method.lower()]["responses"]["503"]
            assert answer["headers"]["Retry-After"]["required"], route.path
    step = spec["paths"]["/v1/worlds/{world_id}/step"]["post"]["responses"]
    assert "503" in step and "503" not in spec["paths"]["/healthz"]["get"]["responses"]


def test_connections_the_database_dropped_cost_at_most_a_503(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    """A restart ends every connection the API holds: no request answers 500, and the API
    serves again without a restart of its own."""
    agent = committed_agent(sessions)
    key = generate_key("admin")
    with sessions.begin() as session:
        store_key(session, key)
    headers = {"Authorization": f"Bearer {key}"}
    memories = f"/v1/worlds/{agent.world_id}/agents/{agent.id}/memories"
    with TestClient(create_app(settings)) as client:
        assert client.get(memories, headers=headers).status_code == 200
        with sessions.begin() as session:
            session.execute(
                sa.text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid() "
                    "AND backend_type = 'client backend'"
                )
            )
        statuses = [client.get(memories, headers=headers).status_code for _ in range(3)]
    assert set(statuses) <= {200, 503} and statuses[-1] == 200, statuses
