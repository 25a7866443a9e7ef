"""Every route of the map, personas, perception, events and the inspector's reads answers 404
across worlds."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.service.api import create_agent, create_world, put_map, small_map

ROUTES: list[tuple[str, str, dict[str, Any] | None]] = [
    ("PUT", "/map", small_map()),
    ("GET", "/map", None),
    ("POST", "/objects/state", {"place": "park: bench", "state": "wet"}),
    ("POST", "/personas/import", {"personas": [{"name": "Spy"}]}),
    ("GET", "/events?once=true", None),
    ("GET", "/agents/{agent}/places", None),
    ("POST", "/agents/{agent}/inner-voice", {"text": "psst"}),
    ("GET", "/actions", None),
    ("GET", "/usage/timeline", None),
    ("GET", "/agents/{agent}/conversations", None),
    ("GET", "/agents/{agent}/relationships", None),
]


@pytest.mark.parametrize(("method", "path", "body"), ROUTES)
def test_another_worlds_routes_are_404(
    client: TestClient,
    world: dict[str, Any],
    admin_headers: dict[str, str],
    method: str,
    path: str,
    body: dict[str, Any] | None,
) -> None:
    other = create_world(client, admin_headers, name="Elsewhere")
    put_map(client, other, small_map())
    theirs = create_agent(client, other, name="Theirs", start_place="park")
    mine = create_agent(client, world, name="Mine")
    foreign = client.request(
        method,
        f"/v1/worlds/{other['id']}" + path.format(agent=theirs["id"]),
        json=body,
        headers=world["headers"],
    )
    assert foreign.status_code == 404, foreign.text
    assert foreign.json()["error"]["code"] == "not_found"
    if "{agent}" in path:  # their agent under my world is not found either
        mixed = client.request(
            method,
            f"/v1/worlds/{world['id']}" + path.format(agent=theirs["id"]),
            json=body,
            headers=world["headers"],
        )
        assert mixed.status_code == 404
    assert (
        client.get(f"/v1/worlds/{other['id']}/map", headers=other["headers"]).json()["children"][2][
            "children"
        ][0]["state"]
        == "idle"
    )  # nothing of theirs changed
    assert mine["name"] == "Mine"
