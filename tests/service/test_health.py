"""/healthz answers while the process lives; /readyz needs the database, Redis and a worker."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session, sessionmaker

from db.queries.api_keys import generate_key, store_key
from db.settings import Settings
from service.app import create_app
from service.instance import instance_id
from tests.factories import make_world


@pytest.fixture
def client(settings: Settings) -> TestClient:
    return TestClient(create_app(settings))


def test_healthz(client: TestClient, settings: Settings) -> None:
    body = client.get("/healthz").json()
    assert body == {"status": "ok", "instance": instance_id(settings.home)}
    assert body["instance"].startswith("hi_")


def test_readyz_is_red_without_a_worker(settings: Settings) -> None:
    # A Redis with no worker listening: a separate broker database nobody consumes.
    lonely = settings.model_copy(update={"redis_url": str(settings.redis_url)[:-1] + "9"})
    response = TestClient(create_app(lonely)).get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "not_ready"
    assert body["checks"]["database"]["ok"] and body["checks"]["redis"]["ok"]
    assert not body["checks"]["worker_fast"]["ok"] and not body["checks"]["worker_slow"]["ok"]


def test_readyz_is_red_when_redis_is_down(settings: Settings) -> None:
    down = settings.model_copy(update={"redis_url": "redis://127.0.0.1:1/0"})
    body = TestClient(create_app(down)).get("/readyz").json()
    assert body["status"] == "not_ready" and not body["checks"]["redis"]["ok"]


@pytest.mark.worker
def test_readyz_is_green_with_a_worker(
    client: TestClient, celery_worker: None, sessions: sessionmaker[Session]
) -> None:
    response = client.get("/readyz")
    assert response.status_code == 200, response.json()
    checks = response.json()["checks"]
    assert checks["worker_fast"]["ok"] and checks["worker_slow"]["ok"]
    # Anyone may ask; only the admin key learns which process answered.
    assert checks["worker_fast"]["detail"] == "" and "pid" not in response.text
    world_key, admin_key = generate_key("world"), generate_key("admin")
    with sessions.begin() as session:
        world = make_world(session)
        store_key(session, world_key, world_id=world.id)
        store_key(session, admin_key)
    as_world = client.get("/readyz", headers={"Authorization": f"Bearer {world_key}"})
    assert "pid" not in as_world.text
    as_admin = client.get("/readyz", headers={"Authorization": f"Bearer {admin_key}"})
    assert as_admin.json()["checks"]["worker_fast"]["detail"].startswith("pid ")


def test_openapi_documents_the_health_routes(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/healthz", "/readyz"} <= set(paths)
    assert client.get("/docs").status_code == 200
