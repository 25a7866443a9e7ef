"""The map over HTTP: a tree in, the same tree with states out; upserts by path; field errors."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session, sessionmaker

from cognition.places import MAX_MAP_DEPTH, MAX_MAP_NODES
from db.models import Place
from tests.service.api import (
    SMALL_MAP_PLACES,
    create_agent,
    events,
    fields,
    put_map,
    small_map,
    url,
)


def _names(nodes: list[dict[str, Any]]) -> list[str]:
    return [node["name"] for node in nodes]


def _find(nodes: list[dict[str, Any]], path: str) -> dict[str, Any]:
    for node in nodes:
        if node["path"] == path:
            return node
        if path.startswith(node["path"] + ": "):
            return _find(node["children"], path)
    raise KeyError(path)


def test_put_then_get_returns_the_tree_with_states(
    client: TestClient, world: dict[str, Any]
) -> None:
    summary = put_map(client, world, small_map())
    assert summary.status_code == 200, summary.json()
    assert summary.json() == {
        "places": SMALL_MAP_PLACES,
        "created": SMALL_MAP_PLACES,
        "updated": 0,
        "removed": 0,
    }
    tree = client.get(url(world, "/map"), headers=world["headers"]).json()
    assert tree["name"] == world["name"]
    assert _names(tree["children"]) == ["Hobbs Cafe", "Lin house", "park"]
    cafe = tree["children"][0]
    assert cafe["norms"] == {"capacity": 20, "opening_hours": "08:00-20:00"}
    machine = _find(tree["children"], "Hobbs Cafe: counter: coffee machine")
    assert machine["state"] == "idle" and machine["children"] == []
    assert _find(tree["children"], "Lin house: bedroom: bed")["state"] == "made"


def test_the_same_map_twice_changes_nothing(client: TestClient, world: dict[str, Any]) -> None:
    put_map(client, world, small_map())
    again = put_map(client, world, small_map())
    assert again.json() == {"places": SMALL_MAP_PLACES, "created": 0, "updated": 0, "removed": 0}
    assert [e["type"] for e in events(client, world)].count("map_updated") == 1


def test_a_changed_map_upserts_by_path_and_removes_the_rest(
    client: TestClient, world: dict[str, Any], sessions: sessionmaker[Session]
) -> None:
    put_map(client, world, small_map())
    camper = create_agent(
        client,
        world,
        name="Camper",
        start_place="park: bench",
        known_places=["park: bench", "Hobbs Cafe"],
    )
    sleeper = create_agent(client, world, name="Sleeper", start_place="Lin house: bedroom: bed")
    changed = small_map()
    cafe, lin_house = changed["children"][0], changed["children"][1]
    cafe["children"][0]["children"].append({"name": "register"})
    cafe["norms"] = {"capacity": 25}
    lin_house["children"] = lin_house["children"][:1]  # the bedroom and its bed go
    changed["children"] = [cafe, lin_house]  # the park goes
    summary = put_map(client, world, changed).json()
    assert summary == {"places": 10, "created": 1, "updated": 1, "removed": 4}
    tree = client.get(url(world, "/map"), headers=world["headers"]).json()
    assert _names(tree["children"]) == ["Hobbs Cafe", "Lin house"]
    assert _find(tree["children"], "Hobbs Cafe: counter: register")["state"] == "idle"
    agents_url = url(world, "/agents/{}")
    camper_now = client.get(agents_url.format(camper["id"]), headers=world["headers"]).json()
    assert camper_now["place"] is None  # the whole area is gone
    assert camper_now["known_places"] == ["Hobbs Cafe"]  # forgot the park
    sleeper_now = client.get(agents_url.format(sleeper["id"]), headers=world["headers"]).json()
    assert sleeper_now["place"] == "Lin house"  # nearest surviving ancestor
    with sessions() as session:
        assert session.scalar(sa.select(sa.func.count()).select_from(Place)) == 10


def test_omitted_state_keeps_the_live_state(client: TestClient, world: dict[str, Any]) -> None:
    put_map(client, world, small_map())
    client.post(
        url(world, "/objects/state"),
        headers=world["headers"],
        json={"place": "Hobbs Cafe: kitchen: stove", "state": "cooking"},
    )
    assert put_map(client, world, small_map()).json()["updated"] == 0
    tree = client.get(url(world, "/map"), headers=world["headers"]).json()
    assert _find(tree["children"], "Hobbs Cafe: kitchen: stove")["state"] == "cooking"
    given = small_map()
    given["children"][0]["children"][1]["children"][0]["state"] = "off"
    assert put_map(client, world, given).json()["updated"] == 1
    tree = client.get(url(world, "/map"), headers=world["headers"]).json()
    assert _find(tree["children"], "Hobbs Cafe: kitchen: stove")["state"] == "off"


def test_malformed_maps_name_the_field(client: TestClient, world: dict[str, Any]) -> None:
    colon = small_map()
    colon["children"][2]["children"][0]["name"] = "bench: left"
    assert fields(put_map(client, world, colon)) == {"body.children.2.children.0.name"}
    twins = small_map()
    twins["children"][0]["children"][1]["name"] = "counter"
    response = put_map(client, world, twins)
    assert response.status_code == 422
    assert fields(response) == {"body.children.0.children.1.name"}
    blank = small_map()
    blank["children"][1]["name"] = "   "
    assert fields(put_map(client, world, blank)) == {"body.children.1.name"}
    typo = small_map()
    typo["children"][0]["childs"] = []
    assert fields(put_map(client, world, typo)) == {"body.children.0.childs"}
    for norms, norm in (
        ({"opening_hours": "8am to 8pm"}, "opening_hours"),
        ({"opening_hours": "08:00-25:00"}, "opening_hours"),
        ({"capacity": 0}, "capacity"),
        ({"capacity": "many"}, "capacity"),
    ):
        bad = small_map()
        bad["children"][0]["children"][1]["norms"] = norms
        response = put_map(client, world, bad)
        assert response.status_code == 422, norms
        assert fields(response) == {f"body.children.0.children.1.norms.{norm}"}
    assert client.get(url(world, "/map"), headers=world["headers"]).json()["children"] == []


def test_too_deep_and_too_big_maps_are_refused(client: TestClient, world: dict[str, Any]) -> None:
    node: dict[str, Any] = {"name": "leaf"}
    for level in range(MAX_MAP_DEPTH):
        node = {"name": f"level {level}", "children": [node]}
    deep = put_map(client, world, {"children": [node]})
    assert deep.status_code == 422
    assert fields(deep) == {"body" + ".children.0" * MAX_MAP_DEPTH + ".children"}
    flat = {"children": [{"name": f"lot {i}"} for i in range(MAX_MAP_NODES + 1)]}
    big = put_map(client, world, flat)
    assert big.status_code == 413 and fields(big) == {"body.children"}
    exact = put_map(client, world, {"children": [node["children"][0]]})
    assert exact.status_code == 200 and exact.json()["places"] == MAX_MAP_DEPTH
