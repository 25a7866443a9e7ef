"""A world's model budget over HTTP: set by the admin, read by the world's key, and a player
spamming chat stops reaching the model at the limit — the offline mind answers instead, and
`GET …/usage` says so — until the world's next game day, which its own key cannot bring on
sooner by moving its clock."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session, sessionmaker

from bench.responder import OfflineResponder
from db.models import BudgetSpend
from db.settings import Settings
from service.app import create_app
from tests.fakes.openai_server import FakeOpenAI
from tests.service.api import create_agent, create_world, url

LIMIT = 3
HOUR = timedelta(hours=1)
CHATS = 7


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(chat_responder=OfflineResponder(year=2023)) as server:
        yield server


@pytest.fixture
def llm_client(
    settings: Settings, sessions: sessionmaker[Session], fake: FakeOpenAI
) -> Iterator[TestClient]:
    """The API thinking with the LLM mind on the fake model server."""
    llm = settings.model_copy(
        update={"llm_base_url": fake.base_url, "llm_model": "gpt-test", "llm_api_key": "k"}
    )
    with TestClient(create_app(llm)) as client:
        yield client


def _chat(client: TestClient, world: dict[str, Any], agent: str, message: str) -> str:
    body = {"player": "Mallory", "message": message}
    answer = client.post(url(world, f"/agents/{agent}/chat"), json=body, headers=world["headers"])
    assert answer.status_code == 200, answer.json()
    return str(answer.json()["reply"])


def test_a_player_spamming_chat_stops_reaching_the_model_at_the_budget(
    llm_client: TestClient,
    admin_headers: dict[str, str],
    fake: FakeOpenAI,
    sessions: sessionmaker[Session],
) -> None:
    budget = {"per_game_day": {"calls": LIMIT}}
    world = create_world(llm_client, admin_headers, settings={"budget": budget})
    agent = create_agent(llm_client, world, name="Isabella", background="Isabella runs a cafe")
    replies = [_chat(llm_client, world, agent["id"], f"Hello, again ({n})") for n in range(CHATS)]
    assert all(text.strip() for text in replies)  # the offline mind answered the rest
    assert fake.calls() == LIMIT

    usage = llm_client.get(url(world, "/usage"), headers=world["headers"]).json()
    day = usage["budget"]["game_day"]
    assert usage["budget"]["source"] == "world" and usage["budget"]["wall_hour"] is None
    assert (day["limit_calls"], day["spent_calls"], day["remaining_calls"]) == (LIMIT, LIMIT, 0)
    assert day["exhausted"] and day["answered_offline"] >= CHATS - LIMIT
    assert (day["starts_at"], day["resets_at"]) == ("2023-02-13T00:00:00", "2023-02-14T00:00:00")
    assert usage["total"]["degraded"] == day["answered_offline"]

    # The world's key moves its clock a day on, then back 73 years: its window does not move.
    for move in ({"advance_minutes": 1440}, {"set": "1950-01-01T07:00:00", "rewind": True}):
        clock = llm_client.post(url(world, "/clock"), json=move, headers=world["headers"])
        assert clock.status_code == 200
        _chat(llm_client, world, agent["id"], "Good morning")
        assert fake.calls() == LIMIT
        same = llm_client.get(url(world, "/usage"), headers=world["headers"]).json()
        assert same["budget"]["game_day"]["starts_at"] == "2023-02-13T00:00:00"
        assert same["budget"]["game_day"]["exhausted"]

    moved = llm_client.post(
        url(world, "/clock"), json={"set": "2023-02-14T07:00:00"}, headers=world["headers"]
    )
    assert moved.status_code == 200
    with sessions.begin() as session:  # an hour of wall time since the window opened
        session.execute(sa.update(BudgetSpend).values(opened_at=BudgetSpend.opened_at - HOUR))
    _chat(llm_client, world, agent["id"], "Good morning")
    assert fake.calls() > LIMIT  # a new game day, an hour on: the model answers again
    after = llm_client.get(url(world, "/usage"), headers=world["headers"]).json()
    assert after["budget"]["game_day"]["starts_at"] == "2023-02-14T00:00:00"
    assert after["budget"]["game_day"]["answered_offline"] == 0


def test_the_admin_sets_the_budget_and_the_worlds_key_only_reads_it(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    world = create_world(client, admin_headers)
    assert world["settings"]["budget"] is None
    assert client.get(url(world, "/usage"), headers=world["headers"]).json()["budget"] is None
    budget = {"per_game_day": {"calls": 500, "cost_usd": 2.5}, "per_wall_hour": {"calls": 100}}
    changed = client.patch(
        url(world, ""), json={"settings": {"budget": budget}}, headers=admin_headers
    )
    assert changed.status_code == 200, changed.json()
    seen = client.get(url(world, ""), headers=world["headers"]).json()["settings"]["budget"]
    assert seen == {
        "per_game_day": {"calls": 500, "cost_usd": 2.5},
        "per_wall_hour": {"calls": 100, "cost_usd": None},
    }
    report = client.get(url(world, "/usage"), headers=world["headers"]).json()["budget"]
    assert report["game_day"]["remaining_calls"] == 500
    assert report["game_day"]["remaining_cost_usd"] == "2.5"
    assert report["wall_hour"]["limit_calls"] == 100 and not report["wall_hour"]["exhausted"]

    lifted = client.patch(
        url(world, ""), json={"settings": {"budget": {}}}, headers=world["headers"]
    )
    assert lifted.status_code == 403  # a world's key cannot lift its own budget
    renamed = client.patch(url(world, ""), json={"name": "Larkspur"}, headers=admin_headers).json()
    assert renamed["name"] == "Larkspur" and renamed["settings"]["budget"] == seen
    cleared = client.patch(
        url(world, ""), json={"settings": {"budget": None}}, headers=admin_headers
    )
    assert cleared.json()["settings"]["budget"] is None


@pytest.mark.parametrize(
    ("budget", "field"),
    [
        ({"per_game_day": {"calls": -1}}, "body.settings.budget.per_game_day.calls"),
        ({"per_game_day": {"calls": 1.5}}, "body.settings.budget.per_game_day.calls"),
        ({"per_wall_hour": {"cost": 1}}, "body.settings.budget.per_wall_hour.cost"),
        ({"per_day": {"calls": 1}}, "body.settings.budget.per_day"),
    ],
)
def test_a_bad_budget_is_a_422_naming_the_field(
    client: TestClient, admin_headers: dict[str, str], budget: dict[str, Any], field: str
) -> None:
    world = create_world(client, admin_headers)
    answer = client.patch(
        url(world, ""), json={"settings": {"budget": budget}}, headers=admin_headers
    )
    assert answer.status_code == 422
    assert answer.json()["error"]["details"][0]["field"] == field
