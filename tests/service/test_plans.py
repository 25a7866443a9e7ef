"""The plan tree over HTTP: nesting, statuses by the game clock, the current action, and
superseded plans kept rather than deleted."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy.orm import Session, sessionmaker

from cognition.types import PlanItem, PlanLevel
from db.queries.plans import current_action, save_items, supersede_from
from tests.service.api import agent_ids

DAY = datetime(2023, 2, 13)


def _at(hour: int, minute: int = 0) -> datetime:
    return DAY + timedelta(hours=hour, minutes=minute)


def _seed_plan(sessions: sessionmaker[Session], agent_id: uuid.UUID) -> dict[str, int]:
    with sessions.begin() as session:
        day = save_items(
            session,
            agent_id=agent_id,
            level=PlanLevel.DAY,
            items=[
                PlanItem(_at(7), 60, "wake up and complete the morning routine", "home: bedroom"),
                PlanItem(_at(8), 240, "open the cafe and serve breakfast", "cafe: counter"),
            ],
        )
        hours = save_items(
            session,
            agent_id=agent_id,
            level=PlanLevel.HOUR,
            parent_id=day[1].id,
            items=[PlanItem(_at(8), 60, "open the cafe"), PlanItem(_at(9), 60, "serve breakfast")],
        )
        tasks = save_items(
            session,
            agent_id=agent_id,
            level=PlanLevel.TASK,
            parent_id=hours[0].id,
            items=[
                PlanItem(_at(8), 15, "unlock the door", emoji="🔑"),
                PlanItem(
                    _at(8, 15),
                    15,
                    "turn on the coffee machine",
                    "cafe: counter: coffee machine",
                    "☕",
                    "brewing",
                ),
                PlanItem(_at(8, 30), 30, "wipe the tables"),
            ],
        )
        return {"day": day[1].id, "hour": hours[0].id, "task": tasks[1].id}


def test_tree_statuses_and_current_action(
    client: TestClient, world: dict[str, Any], sessions: sessionmaker[Session]
) -> None:
    agent_id = agent_ids(client, world, "Rosa")[0]
    ids = _seed_plan(sessions, agent_id)
    clock = f"/v1/worlds/{world['id']}/clock"
    client.post(clock, json={"set": "2023-02-13T08:20:00"}, headers=world["headers"])
    url = f"/v1/worlds/{world['id']}/agents/{agent_id}/plans"
    body = client.get(url, headers=world["headers"]).json()

    assert body["day"] == "2023-02-13"
    assert [i["status"] for i in body["items"]] == ["done", "active"]
    cafe = body["items"][1]
    assert [h["description"] for h in cafe["children"]] == ["open the cafe", "serve breakfast"]
    tasks = cafe["children"][0]["children"]
    assert [t["status"] for t in tasks] == ["done", "active", "planned"]
    current = body["current_action"]
    assert current["id"] == ids["task"] and current["emoji"] == "☕"
    assert current["object_state"] == "brewing" and current["level"] == "task"


def test_superseded_plans_stay_visible(
    client: TestClient, world: dict[str, Any], sessions: sessionmaker[Session]
) -> None:
    agent_id = agent_ids(client, world, "Rosa")[0]
    _seed_plan(sessions, agent_id)
    with sessions.begin() as session:
        count = supersede_from(session, agent_id=agent_id, at=_at(8, 30), replacement_id=None)
    assert count == 2  # "wipe the tables" (8:30) and the "serve breakfast" hour (9:00)
    url = f"/v1/worlds/{world['id']}/agents/{agent_id}/plans?day=2023-02-13"
    tasks = client.get(url, headers=world["headers"]).json()["items"][1]["children"][0]["children"]
    assert tasks[-1]["status"] == "superseded" and len(tasks) == 3
    with sessions() as session:
        # at 8:40 the superseded task no longer counts: the hour chunk is the live leaf
        live = current_action(session, agent_id=agent_id, at=_at(8, 40))
    assert live is not None and live.level == "hour"


def test_a_day_without_plans_is_empty(client: TestClient, world: dict[str, Any]) -> None:
    agent_id = agent_ids(client, world, "Rosa")[0]
    url = f"/v1/worlds/{world['id']}/agents/{agent_id}/plans?day=2023-03-01"
    body = client.get(url, headers=world["headers"]).json()
    assert body["items"] == [] and body["current_action"] is None
    bad = client.get(f"{url[:-10]}2023-13-45", headers=world["headers"])
    assert bad.status_code == 422 and bad.json()["error"]["details"][0]["field"] == "query.day"


def test_a_stand_in_is_shown_as_one(
    client: TestClient, world: dict[str, Any], sessions: sessionmaker[Session]
) -> None:
    """The offline mind's outline standing in while a model plans says so (issue 24)."""
    agent_id = agent_ids(client, world, "Rosa")[0]
    with sessions.begin() as session:
        save_items(
            session,
            agent_id=agent_id,
            level=PlanLevel.DAY,
            items=[PlanItem(_at(7), 60, "wake up and complete the morning routine")],
            stand_in=True,
        )
        save_items(
            session,
            agent_id=agent_id,
            level=PlanLevel.DAY,
            items=[PlanItem(_at(8), 60, "open the cafe")],
        )
    clock = f"/v1/worlds/{world['id']}/clock"
    client.post(clock, json={"set": "2023-02-13T07:20:00"}, headers=world["headers"])
    url = f"/v1/worlds/{world['id']}/agents/{agent_id}/plans"
    body = client.get(url, headers=world["headers"]).json()
    assert [i["stand_in"] for i in body["items"]] == [True, False]
    assert body["current_action"]["stand_in"] is True
