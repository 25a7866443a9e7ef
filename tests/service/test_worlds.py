"""Worlds, keys and clocks over HTTP, and the wall between worlds."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.service.api import create_world


def test_create_world_returns_its_key_once(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    world = create_world(client, admin_headers, name="Oakvale")
    assert world["api_key"].startswith("hk_world_")
    assert world["clock"]["now"] == "2023-02-13T07:00:00" and world["clock"]["mode"] == "driven"
    read = client.get(f"/v1/worlds/{world['id']}", headers=world["headers"]).json()
    assert read["name"] == "Oakvale" and "api_key" not in read


def test_world_routes_need_a_key(client: TestClient, world: dict[str, Any]) -> None:
    assert client.get(f"/v1/worlds/{world['id']}").status_code == 401
    bad = client.get(f"/v1/worlds/{world['id']}", headers={"Authorization": "Bearer nope"})
    assert bad.status_code == 401 and bad.json()["error"]["code"] == "unauthorized"


def test_only_admin_creates_worlds(client: TestClient, world: dict[str, Any]) -> None:
    response = client.post("/v1/worlds", json={"name": "x"}, headers=world["headers"])
    assert response.status_code == 403


def test_a_world_key_cannot_see_another_world(
    client: TestClient, admin_headers: dict[str, str], world: dict[str, Any]
) -> None:
    other = create_world(client, admin_headers, name="Elsewhere")
    for path in ("", "/agents"):
        response = client.get(f"/v1/worlds/{other['id']}{path}", headers=world["headers"])
        assert response.status_code == 404, path
        assert response.json()["error"]["code"] == "not_found"
    # …and the answer is the same as for a world that does not exist at all
    missing = client.get(
        "/v1/worlds/00000000-0000-0000-0000-000000000000", headers=world["headers"]
    )
    assert missing.status_code == 404


def test_rotate_and_revoke_keys(
    client: TestClient, admin_headers: dict[str, str], world: dict[str, Any]
) -> None:
    url = f"/v1/worlds/{world['id']}"
    new = client.post(f"{url}/keys", headers=admin_headers).json()
    new_headers = {"Authorization": f"Bearer {new['api_key']}"}
    assert client.get(url, headers=new_headers).status_code == 200
    keys = client.get(f"{url}/keys", headers=admin_headers).json()
    old_id = next(k["id"] for k in keys if k["id"] != new["id"])
    assert client.delete(f"{url}/keys/{old_id}", headers=admin_headers).status_code == 204
    assert client.get(url, headers=world["headers"]).status_code == 401
    assert client.get(url, headers=new_headers).status_code == 200


def test_driven_clock_set_and_advance(client: TestClient, world: dict[str, Any]) -> None:
    url = f"/v1/worlds/{world['id']}/clock"
    moved = client.post(url, json={"advance_minutes": 90}, headers=world["headers"]).json()
    assert moved["now"] == "2023-02-13T08:30:00"
    jumped = client.post(url, json={"set": "2023-02-14T06:00:00+00:00"}, headers=world["headers"])
    assert jumped.json()["now"] == "2023-02-14T06:00:00"


def test_clock_rejects_contradictions(client: TestClient, world: dict[str, Any]) -> None:
    url = f"/v1/worlds/{world['id']}/clock"
    both = client.post(
        url, json={"set": "2023-02-14T06:00:00", "advance_minutes": 5}, headers=world["headers"]
    )
    assert both.status_code == 422
    negative = client.post(url, json={"advance_minutes": -5}, headers=world["headers"])
    assert negative.json()["error"]["details"][0]["field"] == "body.advance_minutes"


def test_running_clock_advances_and_pauses(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    world = create_world(
        client,
        admin_headers,
        clock={"mode": "running", "rate": 3600, "start": "2023-02-13T07:00:00"},
    )
    url = f"/v1/worlds/{world['id']}/clock"
    paused = client.post(url, json={"paused": True}, headers=world["headers"]).json()
    assert paused["now"] > "2023-02-13T07:00:00"  # an hour per second: time has moved
    again = client.get(f"/v1/worlds/{world['id']}", headers=world["headers"]).json()["clock"]
    assert again["now"] == paused["now"] and again["paused"]


def test_idempotent_world_creation(client: TestClient, admin_headers: dict[str, str]) -> None:
    headers = {**admin_headers, "Idempotency-Key": "create-oakvale-1"}
    first = client.post("/v1/worlds", json={"name": "Oakvale"}, headers=headers)
    second = client.post("/v1/worlds", json={"name": "Oakvale"}, headers=headers)
    assert first.status_code == second.status_code == 201
    assert first.json() == second.json()
    assert second.headers["Idempotent-Replayed"] == "true"
    conflict = client.post("/v1/worlds", json={"name": "Other"}, headers=headers)
    assert conflict.status_code == 409
    assert conflict.json()["error"]["details"][0]["field"] == "header.Idempotency-Key"


def test_admin_lists_worlds_in_pages(
    client: TestClient, admin_headers: dict[str, str], world: dict[str, Any]
) -> None:
    names = ["Smallville", *(create_world(client, admin_headers, name=n)["name"] for n in "AB")]
    seen, cursor = [], None
    while True:
        params = {"limit": 2, **({"cursor": cursor} if cursor else {})}
        page = client.get("/v1/worlds", params=params, headers=admin_headers).json()
        seen += [w["name"] for w in page["items"]]
        assert all("api_key" not in w and "clock" in w for w in page["items"])
        if (cursor := page["next_cursor"]) is None:
            break
    assert seen == names
    refused = client.get("/v1/worlds", headers=world["headers"])
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"


def test_me_tells_an_admin_key_from_a_world_key(
    client: TestClient, admin_headers: dict[str, str], world: dict[str, Any]
) -> None:
    assert client.get("/v1/me", headers=admin_headers).json() == {
        "scope": "admin",
        "world_id": None,
    }
    assert client.get("/v1/me", headers=world["headers"]).json() == {
        "scope": "world",
        "world_id": world["id"],
    }
    refused = client.get("/v1/me", headers={"Authorization": "Bearer hk_world_wrong"})
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "unauthorized"
