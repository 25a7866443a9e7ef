"""What a careless or hostile client sends is a 4xx naming the field, never a 500: numbers
beyond bigint, tampered cursors, misspelt fields, blank names, times outside the calendar, a
clock pulled back; and an `Idempotency-Key` reused for another request is refused."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session, sessionmaker

from db.models import Memory
from tests.service.api import create_agent, events, fields, url

BIG = 2**63


def _cursor(value: Any) -> str:
    return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")


def test_ids_beyond_bigint_are_refused(client: TestClient, world: dict[str, Any]) -> None:
    agent = create_agent(client, world, name="Rosa")
    chat = client.post(
        url(world, f"/agents/{agent['id']}/chat"),
        headers=world["headers"],
        json={"player": "Mo", "message": "hi", "conversation_id": BIG},
    )
    assert chat.status_code == 422 and fields(chat) == {"body.conversation_id"}
    memory = client.get(
        url(world, f"/agents/{agent['id']}/memories/{BIG}"), headers=world["headers"]
    )
    assert memory.status_code == 422 and fields(memory) == {"path.memory_id"}


@pytest.mark.parametrize(
    "cursor",
    [
        _cursor(["2023-02-13T07:00:00", BIG]),
        _cursor(["2023-02-13T07:00:00", -1]),
        _cursor(["2023-02-13T07:00:00", "12"]),
        _cursor(["not a time", 1]),
        _cursor(["2023-02-13T07:00:00"]),
        _cursor({"a": 1}),
        "W" * 20,
        base64.urlsafe_b64encode(b"[" * 5000).decode(),
        "@@@",
    ],
)
def test_a_tampered_cursor_is_a_422(client: TestClient, world: dict[str, Any], cursor: str) -> None:
    agent = create_agent(client, world, name="Rosa")
    for route in (f"/agents/{agent['id']}/memories", f"/agents/{agent['id']}/conversations"):
        response = client.get(
            url(world, route), params={"cursor": cursor}, headers=world["headers"]
        )
        assert response.status_code == 422, response.text
        assert fields(response) == {"query.cursor"}


def test_an_empty_cursor_is_the_first_page(client: TestClient, world: dict[str, Any]) -> None:
    create_agent(client, world, name="Rosa")
    page = client.get(url(world, "/agents"), params={"cursor": ""}, headers=world["headers"])
    assert page.status_code == 200 and [a["name"] for a in page.json()["items"]] == ["Rosa"]


def test_event_ids_beyond_bigint_and_an_empty_last_event_id(
    client: TestClient, world: dict[str, Any]
) -> None:
    create_agent(client, world, name="Rosa")
    too_far = client.get(
        url(world, "/events"), params={"after": BIG, "once": "true"}, headers=world["headers"]
    )
    assert too_far.status_code == 422 and fields(too_far) == {"query.after"}
    header = client.get(
        url(world, "/events"),
        params={"once": "true"},
        headers={**world["headers"], "Last-Event-ID": str(BIG)},
    )
    assert header.status_code == 422 and fields(header) == {"header.Last-Event-ID"}
    fresh = events(client, world)
    from_start = client.get(
        url(world, "/events"),
        params={"once": "true", "after": 1},
        headers={**world["headers"], "Last-Event-ID": ""},
    )
    assert from_start.status_code == 200
    assert from_start.text.count("event: agent_created") == len(
        [e for e in fresh if e["type"] == "agent_created"]
    )


def test_unknown_fields_are_refused(client: TestClient, world: dict[str, Any]) -> None:
    typo = client.post(url(world, "/clock"), json={"advanse_minutes": 5}, headers=world["headers"])
    assert typo.status_code == 422 and fields(typo) == {"body.advanse_minutes"}
    nested = client.post(
        url(world, "/agents"),
        headers=world["headers"],
        json={"name": "Rosa", "known_places": [], "extra": {"x": 1}},
    )
    assert fields(nested) == {"body.extra"}


def test_a_blank_name_fails_the_schema(client: TestClient, world: dict[str, Any]) -> None:
    for blank in ("   ", "\t\n", "\u3000", "\x1c"):
        response = client.post(
            url(world, "/agents"), json={"name": blank}, headers=world["headers"]
        )
        assert response.status_code == 422 and fields(response) == {"body.name"}, blank
    stripped = create_agent(client, world, name="  Rosa  ")
    assert stripped["name"] == "Rosa"


def test_game_time_stays_in_its_span(client: TestClient, world: dict[str, Any]) -> None:
    agent = create_agent(client, world, name="Rosa")
    headers = world["headers"]
    for moment in (
        "9999-12-31T00:00:00",
        "0001-01-01T00:00:00",
        "1899-12-31T23:59:59",
        "2023-02-30T07:00:00",
        1676271600,
        "2023-02-13 07:00:00",
    ):
        clock = client.post(url(world, "/clock"), json={"set": moment}, headers=headers)
        assert clock.status_code == 422 and fields(clock) == {"body.set"}, moment
        batch = {"memories": [{"description": "x", "created_at": moment}]}
        memory = client.post(
            url(world, f"/agents/{agent['id']}/memories"), json=batch, headers=headers
        )
        assert fields(memory) == {"body.memories.0.created_at"}, moment
    plans = client.get(
        url(world, f"/agents/{agent['id']}/plans"), params={"day": "9999-12-31"}, headers=headers
    )
    assert plans.status_code == 422 and fields(plans) == {"query.day"}
    late = client.post(url(world, "/clock"), json={"set": "2999-12-31T00:00:00"}, headers=headers)
    assert late.status_code == 200 and late.json()["now"] == "2999-12-31T00:00:00"
    past_the_end = client.post(
        url(world, "/clock"), json={"advance_minutes": 24 * 60}, headers=headers
    )
    assert past_the_end.status_code == 422 and fields(past_the_end) == {"body.advance_minutes"}
    offset = client.post(
        url(world, "/clock"), headers=headers, json={"set": "2999-12-31T05:00:00+02:00"}
    )
    assert offset.json()["now"] == "2999-12-31T03:00:00"


def test_the_clock_moves_back_only_when_asked(client: TestClient, world: dict[str, Any]) -> None:
    headers = world["headers"]
    back = client.post(url(world, "/clock"), json={"set": "2023-02-13T06:00:00"}, headers=headers)
    assert back.status_code == 409 and back.json()["error"]["code"] == "clock_backwards"
    assert fields(back) == {"body.set"}
    assert client.get(url(world, ""), headers=headers).json()["clock"]["now"] == (
        "2023-02-13T07:00:00"
    )
    rewound = client.post(
        url(world, "/clock"), headers=headers, json={"set": "2023-02-13T06:00:00", "rewind": True}
    )
    assert rewound.status_code == 200 and rewound.json()["now"] == "2023-02-13T06:00:00"


def test_an_idempotency_key_is_bound_to_its_request(
    client: TestClient, world: dict[str, Any], sessions: sessionmaker[Session]
) -> None:
    """The silent lost write: one key, another agent — the second write must not be dropped."""
    rosa, tomas = (create_agent(client, world, name=n) for n in ("Rosa", "Tomas"))
    key = {**world["headers"], "Idempotency-Key": "write-1"}
    body = {"memories": [{"description": "the bakery opened"}]}

    def write(agent: dict[str, Any], payload: dict[str, Any]) -> Any:
        return client.post(url(world, f"/agents/{agent['id']}/memories"), json=payload, headers=key)

    first, replay = write(rosa, body), write(rosa, body)
    assert first.status_code == replay.status_code == 201
    assert replay.json() == first.json() and replay.headers["Idempotent-Replayed"] == "true"
    other_target = write(tomas, body)
    assert other_target.status_code == 409
    assert other_target.json()["error"]["code"] == "idempotency_conflict"
    assert fields(other_target) == {"header.Idempotency-Key"}
    other_body = write(rosa, {"memories": [{"description": "the bakery closed"}]})
    assert other_body.status_code == 409
    other_route = client.post(
        url(world, f"/agents/{rosa['id']}/inner-voice"),
        headers=key,
        json={"text": "the bakery opened"},
    )
    assert other_route.status_code == 409
    with sessions() as session:
        stored = session.scalars(sa.select(Memory.agent_id).where(Memory.kind == "observation"))
        assert [str(a) for a in stored] == [rosa["id"]]
    fresh = {**world["headers"], "Idempotency-Key": "write-2"}
    written = client.post(url(world, f"/agents/{tomas['id']}/memories"), json=body, headers=fresh)
    assert written.status_code == 201


def test_places_named_anywhere_follow_one_rule(client: TestClient, world: dict[str, Any]) -> None:
    headers = world["headers"]
    client.put(url(world, "/map"), json={"children": [{"name": "cafe"}]}, headers=headers)
    home = client.post(
        url(world, "/agents"), json={"name": "Rosa", "living_area": "Atlantis"}, headers=headers
    )
    assert home.status_code == 422 and fields(home) == {"body.living_area"}
    created = client.post(
        url(world, "/agents"),
        headers=headers,
        json={
            "name": "Rosa",
            "living_area": "Atlantis:villa",
            "start_place": "cafe",
            "create_places": True,
        },
    )
    assert created.status_code == 201 and created.json()["living_area"] == "Atlantis: villa"
    agent = created.json()
    moved = client.patch(
        url(world, f"/agents/{agent['id']}"), json={"living_area": "Lemuria"}, headers=headers
    )
    assert moved.status_code == 422 and fields(moved) == {"body.living_area"}
    state = client.post(
        url(world, "/objects/state"), json={"place": "cafe: oven", "state": "hot"}, headers=headers
    )
    assert state.status_code == 422 and fields(state) == {"body.place"}


def test_free_form_json_is_bounded(client: TestClient, world: dict[str, Any]) -> None:
    agent = create_agent(client, world, name="Rosa")
    deep: Any = 1
    for _ in range(500):
        deep = [deep]
    for position in ({"x": deep}, {"x": "a\x00b"}, {"a\x00": 1}):
        body = {"agents": [{"agent_id": agent["id"], "position": position}]}
        response = client.post(url(world, "/step"), json=body, headers=world["headers"])
        assert response.status_code == 422, response.text
        assert fields(response) == {"body.agents.0.position"}


def test_every_request_body_refuses_unknown_fields_by_its_schema(client: TestClient) -> None:
    """`additionalProperties: false` on every object a request body holds (free-form ones
    excepted: coordinates and norms are the game's own)."""
    spec = client.get("/openapi.json").json()
    schemas = spec["components"]["schemas"]
    loose = []
    for route, methods in spec["paths"].items():
        for method, operation in methods.items():
            content = operation.get("requestBody", {}).get("content", {})
            todo = [c["schema"] for c in content.values()]
            seen: set[str] = set()
            while todo:
                schema = todo.pop()
                if "$ref" in schema:
                    name = schema["$ref"].rsplit("/", 1)[-1]
                    if name not in seen:
                        seen.add(name)
                        todo.append(schemas[name])
                    continue
                todo += schema.get("anyOf", []) + list(schema.get("properties", {}).values())
                todo += [schema["items"]] if "items" in schema else []
                if schema.get("properties") and schema.get("additionalProperties") is not False:
                    loose.append(f"{method.upper()} {route}: {schema.get('title')}")
    assert loose == []
