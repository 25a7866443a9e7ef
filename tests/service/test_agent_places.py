"""Agents' start place and known places: validated against the map, ancestors included."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.service.api import create_agent, fields, put_map, small_map, url


def test_an_agent_knows_its_places_and_their_ancestors(
    client: TestClient, world: dict[str, Any]
) -> None:
    put_map(client, world, small_map())
    agent = create_agent(
        client,
        world,
        name="Mei Lin",
        start_place="Lin house: bedroom: bed",
        known_places=["Hobbs Cafe:counter:coffee machine", "park"],
    )
    assert agent["place"] == "Lin house: bedroom: bed"
    assert agent["known_places"] == [
        "Hobbs Cafe",
        "Hobbs Cafe: counter",
        "Hobbs Cafe: counter: coffee machine",
        "Lin house",
        "Lin house: bedroom",
        "Lin house: bedroom: bed",
        "park",
    ]
    tree = client.get(url(world, f"/agents/{agent['id']}/places"), headers=world["headers"])
    assert tree.status_code == 200
    top = tree.json()["children"]
    assert [node["name"] for node in top] == ["Hobbs Cafe", "Lin house", "park"]
    bed = top[1]["children"][0]["children"][0]
    assert (bed["path"], bed["state"], bed["seen_at"]) == (
        "Lin house: bedroom: bed",
        "made",
        "2023-02-13T07:00:00",
    )
    assert top[2]["children"] == []  # knows the park, not its bench


def test_unknown_places_are_422_on_the_field(client: TestClient, world: dict[str, Any]) -> None:
    put_map(client, world, small_map())
    agents = url(world, "/agents")
    unknown = client.post(
        agents,
        headers=world["headers"],
        json={"name": "A", "known_places": ["park", "Hobbs Cafe: attic"]},
    )
    assert unknown.status_code == 422 and fields(unknown) == {"body.known_places.1"}
    start = client.post(agents, json={"name": "A", "start_place": "moon"}, headers=world["headers"])
    assert fields(start) == {"body.start_place"}
    malformed = client.post(
        agents, json={"name": "A", "known_places": ["park::bench"]}, headers=world["headers"]
    )
    assert malformed.status_code == 422 and fields(malformed) == {"body.known_places.0"}
    listed = client.get(agents, headers=world["headers"]).json()["items"]
    assert listed == []


def test_patch_moves_and_teaches_places(client: TestClient, world: dict[str, Any]) -> None:
    put_map(client, world, small_map())
    agent = create_agent(client, world, name="Mei Lin", known_places=["park"])
    assert agent["place"] is None
    patched = client.patch(
        url(world, f"/agents/{agent['id']}"),
        headers=world["headers"],
        json={"start_place": "Hobbs Cafe: kitchen", "known_places": ["Lin house: kitchen: fridge"]},
    )
    assert patched.status_code == 200, patched.json()
    body = patched.json()
    assert body["place"] == "Hobbs Cafe: kitchen"
    assert body["known_places"] == [
        "Hobbs Cafe",
        "Hobbs Cafe: kitchen",
        "Lin house",
        "Lin house: kitchen",
        "Lin house: kitchen: fridge",
        "park",
    ]
    bad = client.patch(
        url(world, f"/agents/{agent['id']}"),
        headers=world["headers"],
        json={"known_places": ["Lin house: garage"]},
    )
    assert bad.status_code == 422 and fields(bad) == {"body.known_places.0"}


def test_agents_list_shows_known_places(client: TestClient, world: dict[str, Any]) -> None:
    put_map(client, world, small_map())
    create_agent(client, world, name="A", known_places=["park: bench"])
    create_agent(client, world, name="B")
    items = client.get(url(world, "/agents"), headers=world["headers"]).json()["items"]
    assert {a["name"]: a["known_places"] for a in items} == {"A": ["park", "park: bench"], "B": []}


def _known(client: TestClient, world: dict[str, Any], agent: dict[str, Any]) -> dict[str, Any]:
    """path → state as the agent last saw it, from `GET …/agents/{a}/places`."""
    tree = client.get(url(world, f"/agents/{agent['id']}/places"), headers=world["headers"])
    assert tree.status_code == 200, tree.json()
    found: dict[str, Any] = {}
    nodes = list(tree.json()["children"])
    while nodes:
        node = nodes.pop()
        found[node["path"]] = node["state"]
        nodes += node["children"]
    return found


def _step(client: TestClient, world: dict[str, Any], **agent: Any) -> None:
    response = client.post(url(world, "/step"), json={"agents": [agent]}, headers=world["headers"])
    assert response.status_code == 200, response.json()


def test_the_known_map_grows_as_the_agent_moves_and_perceives(
    client: TestClient, world: dict[str, Any]
) -> None:
    put_map(client, world, small_map())
    mei = create_agent(client, world, name="Mei Lin", start_place="Lin house: bedroom: bed")
    assert set(_known(client, world, mei)) == {
        "Lin house",
        "Lin house: bedroom",
        "Lin house: bedroom: bed",
    }

    _step(client, world, agent_id=mei["id"], place="Hobbs Cafe : counter")
    cafe = {p for p in _known(client, world, mei) if p.startswith("Hobbs Cafe")}
    assert cafe == {  # its rooms, and what is in the room it stands in; not the kitchen's stove
        "Hobbs Cafe",
        "Hobbs Cafe: counter",
        "Hobbs Cafe: kitchen",
        "Hobbs Cafe: counter: coffee machine",
    }

    wet = {"kind": "object", "subject": "park:bench", "state": "wet"}
    _step(client, world, agent_id=mei["id"], perceived=[wet])
    known = _known(client, world, mei)
    assert (known["park: bench"], known["park"]) == ("wet", "idle")

    _step(client, world, agent_id=mei["id"], place="park")
    broken = {"place": "Hobbs Cafe: counter: coffee machine", "state": "broken"}
    client.post(url(world, "/objects/state"), json=broken, headers=world["headers"])
    assert _known(client, world, mei)["Hobbs Cafe: counter: coffee machine"] == "idle"  # away
    _step(client, world, agent_id=mei["id"], place="Hobbs Cafe: counter")
    assert _known(client, world, mei)["Hobbs Cafe: counter: coffee machine"] == "broken"
