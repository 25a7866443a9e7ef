"""The event stream (SSE): every route's events in id order, resumable without loss.

Live streaming over a real server is exercised in tests/clients; here `?once=true` reads what
is there, which the in-process test client can buffer.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.service.api import create_agent, create_world, events, fields, put_map, small_map, url


def _activity(client: TestClient, world: dict[str, Any]) -> None:
    put_map(client, world, small_map())
    agent = create_agent(client, world, name="Cook", start_place="Lin house: kitchen")
    client.post(
        url(world, "/objects/state"),
        json={"statement": "<Lin house: kitchen: stove> is on"},
        headers=world["headers"],
    )
    client.post(
        url(world, f"/agents/{agent['id']}/inner-voice"),
        json={"text": "Turn it off"},
        headers=world["headers"],
    )
    client.patch(
        url(world, f"/agents/{agent['id']}"),
        json={"currently": "cooking"},
        headers=world["headers"],
    )
    client.delete(url(world, f"/agents/{agent['id']}"), headers=world["headers"])


def test_each_route_emits_its_event_in_order(client: TestClient, world: dict[str, Any]) -> None:
    _activity(client, world)
    seen = events(client, world)
    assert [e["type"] for e in seen] == [
        "map_updated",
        "agent_created",
        "object_state_changed",
        "inner_voice",
        "agent_updated",
        "agent_deleted",
    ]
    ids = [e["id"] for e in seen]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    assert seen[4]["data"]["changed"] == ["currently"]
    assert seen[0]["data"] == {"places": 13, "created": 13, "updated": 0, "removed": 0}


def test_resume_after_an_id_loses_and_repeats_nothing(
    client: TestClient, world: dict[str, Any]
) -> None:
    _activity(client, world)
    everything = events(client, world)
    cut = everything[2]["id"]
    by_header = client.get(
        url(world, "/events"),
        params={"once": "true", "after": 0},
        headers={**world["headers"], "Last-Event-ID": str(cut)},
    )
    from tests.service.api import parse_sse

    assert parse_sse(by_header.text) == everything[3:]
    assert events(client, world, after=cut) == everything[3:]
    assert events(client, world, after=everything[-1]["id"]) == []


def test_events_are_per_world(
    client: TestClient, world: dict[str, Any], admin_headers: dict[str, str]
) -> None:
    other = create_world(client, admin_headers, name="Elsewhere")
    _activity(client, world)
    assert events(client, other) == []


def test_a_bad_last_event_id_is_422(client: TestClient, world: dict[str, Any]) -> None:
    response = client.get(
        url(world, "/events"),
        params={"once": "true"},
        headers={**world["headers"], "Last-Event-ID": "yesterday"},
    )
    assert response.status_code == 422 and fields(response) == {"header.Last-Event-ID"}
    negative = client.get(
        url(world, "/events"), params={"once": "true", "after": -1}, headers=world["headers"]
    )
    assert fields(negative) == {"query.after"}
