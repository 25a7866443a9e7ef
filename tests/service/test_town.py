"""The demo town pack ships with the SDK and imports cleanly: 25 agents, their map, their ties."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient
from hearth_client.demo import TOWN_START, load_town
from sqlalchemy.orm import Session, sessionmaker

from db.models import Relationship
from tests.service.api import create_world, url

TOWN_AGENTS = 25


def test_the_demo_town_imports_cleanly(
    client: TestClient, admin_headers: dict[str, str], sessions: sessionmaker[Session]
) -> None:
    town = load_town()
    world = create_world(
        client, admin_headers, name="Larkspur", clock={"mode": "driven", "start": TOWN_START}
    )
    response = client.post(url(world, "/personas/import"), json=town, headers=world["headers"])
    assert response.status_code == 200, response.json()
    summary = response.json()
    assert len(summary["created"]) == TOWN_AGENTS and summary["updated"] == []
    assert summary["map"]["places"] == summary["map"]["created"] > 200
    agents = client.get(
        url(world, "/agents"), params={"limit": 100}, headers=world["headers"]
    ).json()["items"]
    by_name = {agent["name"]: agent for agent in agents}
    for persona in town["personas"]:
        agent = by_name[persona["name"]]
        assert agent["place"] == persona["start_place"]
        assert set(persona["known_places"]) <= set(agent["known_places"])
        assert agent["living_area"] in agent["known_places"]
    with sessions() as session:
        ties = session.scalar(
            sa.select(sa.func.count()).where(Relationship.other_agent_id.is_not(None))
        )
    assert ties == sum(len(p.get("relationships", [])) for p in town["personas"])
    again = client.post(url(world, "/personas/import"), json=town, headers=world["headers"])
    assert len(again.json()["unchanged"]) == TOWN_AGENTS


def test_the_town_has_the_papers_scenario() -> None:
    """A party planner and a secret crush, so information diffusion can be watched."""
    personas: list[dict[str, Any]] = list(load_town()["personas"])  # type: ignore[arg-type]
    planners = [p["name"] for p in personas if "Valentine's Day party" in p["background"]]
    crushes = [p["name"] for p in personas if "secret crush" in p["background"]]
    assert len(planners) == 1 and len(crushes) == 1
    assert all(len(p["relationships"]) >= 4 for p in personas)
    homes = {p["living_area"] for p in personas}
    assert len(homes) >= 15
