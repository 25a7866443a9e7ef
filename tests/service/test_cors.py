"""CORS per world: none by default; the admin lists a world's origins, and a page from one of
them gets its preflights answered and may read every answer of that world's routes (an
`OPTIONS` had answered 405 with no CORS header: a browser game could not call Hearth)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.service.api import create_world, fields, url

GAME = "http://localhost:5173"
PREFLIGHT = {
    "Origin": GAME,
    "Access-Control-Request-Method": "POST",
    "Access-Control-Request-Headers": "authorization, content-type",
}


def test_no_origin_is_allowed_by_default(client: TestClient, world: dict[str, Any]) -> None:
    preflight = client.options(url(world, "/step"), headers=PREFLIGHT)
    assert preflight.status_code == 204
    assert "access-control-allow-origin" not in preflight.headers
    read = client.get(url(world, ""), headers={**world["headers"], "Origin": GAME})
    assert read.status_code == 200 and "access-control-allow-origin" not in read.headers


def test_the_admin_allows_an_origin_and_its_pages_may_call_the_world(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    world = create_world(client, admin_headers)
    body = {"settings": {"cors_origins": [GAME]}}
    assert client.patch(url(world, ""), json=body, headers=world["headers"]).status_code == 403
    changed = client.patch(url(world, ""), json=body, headers=admin_headers)
    assert changed.status_code == 200 and changed.json()["settings"]["cors_origins"] == [GAME]

    preflight = client.options(url(world, "/step"), headers=PREFLIGHT)
    assert preflight.status_code == 204
    assert preflight.headers["access-control-allow-origin"] == GAME
    assert "POST" in preflight.headers["access-control-allow-methods"]
    allowed = preflight.headers["access-control-allow-headers"].lower()
    assert {"authorization", "content-type", "idempotency-key"} <= set(allowed.split(", "))
    assert "access-control-allow-credentials" not in preflight.headers

    read = client.get(url(world, ""), headers={**world["headers"], "Origin": GAME})
    assert read.status_code == 200
    assert read.headers["access-control-allow-origin"] == GAME
    assert "Retry-After" in read.headers["access-control-expose-headers"]
    refused = client.get(url(world, "/agents/nope"), headers={**world["headers"], "Origin": GAME})
    assert refused.status_code == 422  # errors are readable by the page too
    assert refused.headers["access-control-allow-origin"] == GAME

    other = {**PREFLIGHT, "Origin": "https://evil.example"}
    assert (
        "access-control-allow-origin"
        not in client.options(url(world, "/step"), headers=other).headers
    )


def test_a_bad_origin_is_a_422_naming_it(
    client: TestClient, admin_headers: dict[str, str], world: dict[str, Any]
) -> None:
    for origin in ("localhost:5173", "http://game.example/path", "*"):
        body = {"settings": {"cors_origins": [origin]}}
        response = client.patch(url(world, ""), json=body, headers=admin_headers)
        assert response.status_code == 422, origin
        assert "body.settings.cors_origins.0" in fields(response)
