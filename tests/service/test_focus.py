"""Focus through the API (issue 22): a step or an agent update marks an agent in focus and it
stays so until changed; the world's `mind_focus` is an admin setting; bad values are 422 naming
the field; a world's key reaches no other world's agents; `/usage` and `/metrics` split calls by
focus."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session, sessionmaker

from cognition.focus import Focus
from cognition.types import CallRecord
from db.audit import recorded_calls
from tests.service.api import agent_ids, create_world, fields, url
from tests.service.test_metrics import _scrape

NOON = datetime(2023, 2, 13, 12, 0)


def _focus(client: TestClient, world: dict[str, Any], agent_id: uuid.UUID) -> bool:
    response = client.get(url(world, f"/agents/{agent_id}"), headers=world["headers"])
    assert response.status_code == 200, response.text
    marked: bool = response.json()["in_focus"]
    return marked


def _step(client: TestClient, world: dict[str, Any], *agents: dict[str, Any]) -> Any:
    return client.post(url(world, "/step"), json={"agents": list(agents)}, headers=world["headers"])


def test_a_step_marks_focus_and_it_stays_until_changed(
    client: TestClient, world: dict[str, Any]
) -> None:
    rosa, tomas = agent_ids(client, world, "Rosa", "Tomas")
    assert not _focus(client, world, rosa)  # nobody is in focus until the game says so
    assert _step(client, world, {"agent_id": str(rosa), "in_focus": True}).status_code == 200
    assert _focus(client, world, rosa) and not _focus(client, world, tomas)
    assert (
        _step(client, world, {"agent_id": str(rosa)}, {"agent_id": str(tomas)}).status_code == 200
    )
    assert _focus(client, world, rosa)  # left out: unchanged
    flip = _step(
        client,
        world,
        {"agent_id": str(rosa), "in_focus": False},
        {"agent_id": str(tomas), "in_focus": True},
    )
    assert flip.status_code == 200
    assert not _focus(client, world, rosa) and _focus(client, world, tomas)


def test_an_update_marks_focus(client: TestClient, world: dict[str, Any]) -> None:
    [rosa] = agent_ids(client, world, "Rosa")
    path = url(world, f"/agents/{rosa}")
    response = client.patch(path, json={"in_focus": True}, headers=world["headers"])
    assert response.status_code == 200 and response.json()["in_focus"] is True
    response = client.patch(path, json={"currently": "bakes bread"}, headers=world["headers"])
    assert response.json()["in_focus"] is True  # another change keeps it
    response = client.patch(path, json={"in_focus": False}, headers=world["headers"])
    assert response.json()["in_focus"] is False


@pytest.mark.parametrize("value", [1, "yes", [True]])
def test_a_focus_that_is_not_a_boolean_is_refused_naming_the_field(
    client: TestClient, world: dict[str, Any], value: Any
) -> None:
    [rosa] = agent_ids(client, world, "Rosa")
    stepped = _step(client, world, {"agent_id": str(rosa), "in_focus": value})
    assert stepped.status_code == 422 and fields(stepped) == {"body.agents.0.in_focus"}
    patched = client.patch(
        url(world, f"/agents/{rosa}"), json={"in_focus": value}, headers=world["headers"]
    )
    assert patched.status_code == 422 and fields(patched) == {"body.in_focus"}
    assert not _focus(client, world, rosa)


def test_a_worlds_key_cannot_mark_another_worlds_agents(
    client: TestClient, admin_headers: dict[str, str], world: dict[str, Any]
) -> None:
    other = create_world(client, admin_headers, name="Elsewhere")
    [stranger] = agent_ids(client, other, "Stranger")
    stepped = _step(client, world, {"agent_id": str(stranger), "in_focus": True})
    assert stepped.status_code == 422 and fields(stepped) == {"body.agents.0.agent_id"}
    patched = client.patch(
        f"/v1/worlds/{other['id']}/agents/{stranger}",
        json={"in_focus": True},
        headers=world["headers"],
    )
    assert patched.status_code == 404
    sideways = client.patch(
        url(world, f"/agents/{stranger}"), json={"in_focus": True}, headers=world["headers"]
    )
    assert sideways.status_code == 404
    assert not _focus(client, other, stranger)


def test_the_policy_is_an_admin_setting_of_the_world(
    client: TestClient, admin_headers: dict[str, str], world: dict[str, Any]
) -> None:
    path = f"/v1/worlds/{world['id']}"
    assert client.get(path, headers=world["headers"]).json()["settings"]["mind_focus"] is None
    body = {"settings": {"mind_focus": "focused"}}
    assert client.patch(path, json=body, headers=world["headers"]).status_code == 403
    changed = client.patch(path, json=body, headers=admin_headers)
    assert changed.status_code == 200 and changed.json()["settings"]["mind_focus"] == "focused"
    wrong = client.patch(path, json={"settings": {"mind_focus": "some"}}, headers=admin_headers)
    assert wrong.status_code == 422 and fields(wrong) == {"body.settings.mind_focus"}
    back = client.patch(path, json={"settings": {"mind_focus": None}}, headers=admin_headers)
    assert back.json()["settings"]["mind_focus"] is None  # the default again: all


def _call(model: str) -> CallRecord:
    return CallRecord(operation="plan_day", model=model, tokens_in=10, tokens_out=5, latency_ms=1)


def test_usage_and_metrics_split_calls_by_focus(
    client: TestClient,
    sessions: sessionmaker[Session],
    world: dict[str, Any],
    admin_headers: dict[str, str],
) -> None:
    rosa, tomas = agent_ids(client, world, "Rosa", "Tomas")
    world_id = uuid.UUID(world["id"])
    before = _scrape(client, admin_headers)
    for agent, focus, model, times in [
        (rosa, Focus.FOCUSED, "gpt-test", 3),
        (tomas, Focus.UNFOCUSED, "offline-heuristic", 2),
        (None, Focus.NONE, "gpt-test", 1),
    ]:
        with recorded_calls(
            sessions, world_id=world_id, agent_id=agent, game_time=NOON, focus=focus
        ) as sink:
            for _ in range(times):
                sink.record(_call(model))
    report = client.get(url(world, "/usage"), headers=world["headers"]).json()
    by_focus = {r["focus"]: (r["calls"], r["tokens_in"]) for r in report["by_focus"]}
    assert by_focus == {"focused": (3, 30), "unfocused": (2, 20), "none": (1, 10)}
    after = _scrape(client, admin_headers)
    grew = {
        focus: after.by("hearth_model_calls_total", "focus").get(focus, 0)
        - before.by("hearth_model_calls_total", "focus").get(focus, 0)
        for focus in ("focused", "unfocused", "none")
    }
    assert grew == {"focused": 3, "unfocused": 2, "none": 1}
    offline = after.total("hearth_model_calls_total", focus="unfocused", model="offline-heuristic")
    assert (
        offline
        - before.total("hearth_model_calls_total", focus="unfocused", model="offline-heuristic")
        == 2
    )
