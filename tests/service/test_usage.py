"""Every model call is audited, and `/usage` and the `llm_usage` view report the same."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session, sessionmaker

from cognition.offline import OfflineMind
from cognition.requests import RateImportance
from cognition.types import CallRecord
from db.audit import recorded_calls
from db.models import Agent, LlmCall
from service.sql_console import analyst_url, run_query
from tests import seed
from tests.service.api import agent_ids, create_world

GAME_NOON = datetime(2023, 2, 13, 12, 0)


def _call(operation: str, *, tokens: int = 10, cost: float = 0.0, **extra: Any) -> CallRecord:
    return CallRecord(
        operation=operation,
        model="gpt-test",
        tokens_in=tokens,
        tokens_out=tokens // 2,
        latency_ms=5.0,
        cost_usd=cost,
        **extra,
    )


@pytest.fixture
def agent_id(world: dict[str, Any], client: TestClient) -> uuid.UUID:
    return agent_ids(client, world, "Rosa")[0]


def test_calls_are_recorded_even_when_the_work_fails(
    sessions: sessionmaker[Session], world: dict[str, Any], agent_id: uuid.UUID
) -> None:
    world_id = uuid.UUID(world["id"])
    with pytest.raises(RuntimeError):  # noqa: SIM117 — the failure must happen inside the block
        with recorded_calls(
            sessions, world_id=world_id, agent_id=agent_id, game_time=GAME_NOON
        ) as sink:
            OfflineMind(audit=sink).think(RateImportance(["Rosa's cafe caught fire!"]))
            raise RuntimeError("the task failed after the model answered")
    with sessions() as session:
        row = session.scalars(sa.select(LlmCall)).one()
    assert row.operation == "rate_importance" and row.model == "offline-heuristic"
    assert row.agent_id == agent_id and row.game_time == GAME_NOON and row.tokens_in > 0


def test_usage_report_and_the_view_agree(
    client: TestClient,
    sessions: sessionmaker[Session],
    database_url: str,
    world: dict[str, Any],
    agent_id: uuid.UUID,
) -> None:
    world_id = uuid.UUID(world["id"])
    with recorded_calls(sessions, world_id=world_id, agent_id=agent_id, game_time=GAME_NOON) as s:
        s.record(_call("plan_day", tokens=100, cost=0.002))
        s.record(_call("react", tokens=40, cost=0.001, degraded=True, error="timeout"))
        s.record(_call("react", tokens=40, cost=0.001))
    with recorded_calls(
        sessions, world_id=world_id, agent_id=None, game_time=datetime(2023, 2, 14, 9)
    ) as s:
        s.record(_call("summarize_agent", tokens=20))

    report = client.get(f"/v1/worlds/{world['id']}/usage", headers=world["headers"]).json()
    assert report["total"]["calls"] == 4 and report["total"]["tokens_in"] == 200
    assert float(report["total"]["cost_usd"]) == pytest.approx(0.004)
    by_op = {r["operation"]: r for r in report["by_operation"]}
    assert by_op["react"]["calls"] == 2 and by_op["react"]["degraded"] == 1
    assert by_op["react"]["errors"] == 1
    by_agent = {r["agent"]: r["calls"] for r in report["by_agent"]}
    assert by_agent == {"Rosa": 3, "(world)": 1}

    _, rows = run_query(
        analyst_url(database_url),
        f"SELECT count(*), sum(tokens_in), sum(cost_usd) FROM llm_usage "
        f"WHERE world_id = '{world_id}'",
    )
    assert rows[0][0] == 4 and rows[0][1] == 200 and float(rows[0][2]) == pytest.approx(0.004)

    first_day = client.get(
        f"/v1/worlds/{world['id']}/usage",
        params={"until": "2023-02-14T00:00:00"},
        headers=world["headers"],
    )
    assert first_day.json()["total"]["calls"] == 3


def test_usage_is_per_world(
    client: TestClient, admin_headers: dict[str, str], world: dict[str, Any]
) -> None:
    other = create_world(client, admin_headers, name="Elsewhere")
    assert (
        client.get(f"/v1/worlds/{other['id']}/usage", headers=world["headers"]).status_code == 404
    )
    empty = client.get(f"/v1/worlds/{world['id']}/usage", headers=world["headers"]).json()
    assert empty["total"]["calls"] == 0 and empty["by_agent"] == []


def test_deleting_an_agent_keeps_its_bill(
    client: TestClient, sessions: sessionmaker[Session], world: dict[str, Any], agent_id: uuid.UUID
) -> None:
    with recorded_calls(
        sessions, world_id=uuid.UUID(world["id"]), agent_id=agent_id, game_time=GAME_NOON
    ) as s:
        s.record(_call("plan_day"))
    client.delete(f"/v1/worlds/{world['id']}/agents/{agent_id}", headers=world["headers"])
    with sessions() as session:
        assert session.get(Agent, agent_id) is None
        assert session.scalar(sa.select(sa.func.count()).select_from(LlmCall)) == 1


def test_timeline_buckets_calls_by_game_time(
    client: TestClient, sessions: sessionmaker[Session], world: dict[str, Any], agent_id: uuid.UUID
) -> None:
    world_id = uuid.UUID(world["id"])
    with sessions.begin() as session:
        seed.model_calls(
            session,
            world_id=world_id,
            calls=[
                (agent_id, "plan_day", datetime(2023, 2, 13, 7, 5), 100),
                (agent_id, "react", datetime(2023, 2, 13, 7, 55), 40),
                (None, "summarize_agent", datetime(2023, 2, 13, 7, 30), 20),
                (agent_id, "react", datetime(2023, 2, 13, 9, 0), 10),
            ],
        )
    path = f"/v1/worlds/{world['id']}/usage/timeline"
    body = client.get(path, headers=world["headers"]).json()
    assert body["bucket_minutes"] == 60
    assert [b["start"] for b in body["buckets"]] == ["2023-02-13T07:00:00", "2023-02-13T09:00:00"]
    seven = body["buckets"][0]
    assert seven["total"]["calls"] == 3 and seven["total"]["tokens_in"] == 160
    assert {r["operation"]: r["calls"] for r in seven["by_operation"]} == {
        "plan_day": 1,
        "react": 1,
        "summarize_agent": 1,
    }
    assert {r["agent"]: r["tokens_in"] for r in seven["by_agent"]} == {"Rosa": 140, "(world)": 20}
    assert float(seven["total"]["cost_usd"]) == pytest.approx(160e-6)
    halves = client.get(
        path,
        params={
            "bucket_minutes": 30,
            "since": "2023-02-13T07:00:00",
            "until": "2023-02-13T09:00:00",
        },
        headers=world["headers"],
    ).json()
    assert [(b["start"][11:16], b["total"]["calls"]) for b in halves["buckets"]] == [
        ("07:00", 1),
        ("07:30", 2),
    ]
    too_many = client.get(
        path, params={"bucket_minutes": 1, "since": "2023-01-01T00:00:00"}, headers=world["headers"]
    )
    assert too_many.status_code == 422
    assert too_many.json()["error"]["details"][0]["field"] == "query.bucket_minutes"
    empty = client.get(path, params={"since": "2024-01-01T00:00:00"}, headers=world["headers"])
    assert empty.json()["buckets"] == []
