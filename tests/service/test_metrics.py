"""`GET /metrics`: Prometheus text for the admin key only; requests by route template, model
calls by operation, retrieval by path and cache use, and the figures read at scrape time
(queue depths, database size, rows, agents by the level of their current action)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy.orm import Session, sessionmaker

from bench.prometheus import Scrape
from cognition.types import PlanItem, PlanLevel
from db.queries.plans import save_items
from tests.service.api import agent_ids

NOON = datetime(2023, 2, 13, 12, 0)


def _scrape(client: TestClient, headers: dict[str, str]) -> Scrape:
    response = client.get("/metrics", headers=headers)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    found = Scrape()
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            key = frozenset(sample.labels.items())
            found.samples.setdefault(sample.name, {})[key] = float(sample.value)
    return found


def test_metrics_need_the_admin_key(
    client: TestClient, world: dict[str, Any], admin_headers: dict[str, str]
) -> None:
    assert client.get("/metrics").status_code == 401
    forbidden = client.get("/metrics", headers=world["headers"])
    assert forbidden.status_code == 403
    assert forbidden.json()["error"]["code"] == "forbidden"
    assert client.get("/metrics", headers=admin_headers).status_code == 200


def test_metrics_count_what_the_api_did(
    client: TestClient,
    world: dict[str, Any],
    admin_headers: dict[str, str],
    sessions: sessionmaker[Session],
) -> None:
    before = _scrape(client, admin_headers)
    headers, base = world["headers"], f"/v1/worlds/{world['id']}"
    client.post(f"{base}/clock", json={"set": NOON.isoformat()}, headers=headers)
    planned, idle = (str(agent) for agent in agent_ids(client, world, "Rosa", "Tomas"))
    with sessions.begin() as session:
        day = PlanItem(datetime(2023, 2, 13, 11), 120, "bake bread", "Bakery: kitchen")
        save_items(session, agent_id=uuid.UUID(planned), level=PlanLevel.DAY, items=[day])
    both = {"agents": [{"agent_id": planned}, {"agent_id": idle}]}
    for _ in range(3):
        assert client.post(f"{base}/step", headers=headers, json=both).status_code == 200
    memories = f"{base}/agents/{planned}/memories"
    client.post(memories, json={"memories": [{"description": "Rosa baked rye"}]}, headers=headers)
    for _ in range(2):
        client.post(f"{memories}/search", json={"query": "rye", "k": 3}, headers=headers)
    interview = client.post(
        f"{base}/agents/{planned}/interview",
        headers=headers,
        json={"question": "What did you bake?"},
    )
    assert interview.status_code == 200
    run = _scrape(client, admin_headers).minus(before)

    route = "/v1/worlds/{world_id}/step"
    assert run.total("hearth_http_request_duration_seconds_count", route=route, status="200") == 3
    assert not any(
        "Rosa" in str(k) or planned in str(k)  # templates, never raw paths
        for k in run.samples["hearth_http_request_duration_seconds_count"]
    )
    assert run.quantile(0.5, "hearth_http_request_duration_seconds", route=route) is not None
    assert run.total("hearth_model_calls_total") >= 1  # the interview's answer, audited
    assert run.by("hearth_model_calls_total", "outcome").keys() <= {"ok", "error"}
    assert run.total("hearth_retrieval_duration_seconds_count") >= 2
    cache = run.by("hearth_retrieval_cache_total", "result")
    assert cache.get("hit", 0) >= 1  # the second search found the agent's rows in the cache

    now = _scrape(client, admin_headers)
    assert now.by("hearth_agents", "action", world=world["id"]) == {"day": 1.0, "none": 1.0}
    assert set(now.by("hearth_queue_depth", "queue")) == {"fast", "slow"}
    assert now.total("hearth_database_size_bytes") > 0
    assert now.total("hearth_db_rows_inserted_total", table="memories") >= 1


@pytest.mark.parametrize("path", ["/healthz", "/nowhere/at/all"])
def test_unmatched_paths_share_one_series(
    client: TestClient, admin_headers: dict[str, str], path: str
) -> None:
    client.get(path)
    routes = _scrape(client, admin_headers).by(
        "hearth_http_request_duration_seconds_count", "route"
    )
    assert "/nowhere/at/all" not in routes
    assert ("unmatched" if path.startswith("/nowhere") else path) in routes
