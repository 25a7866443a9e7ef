"""The step protocol: batch in, current actions out, repeats not stored, all-or-nothing."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session, sessionmaker

from cognition.types import PlanItem, PlanLevel
from db.models import Agent, Conversation, Memory, Utterance
from db.queries.plans import save_items
from service.schemas.step import StepResponse
from tests.service.api import agent_ids, create_world, events, url

NOON = datetime(2023, 2, 13, 12, 0)
MAP = {
    "children": [
        {
            "name": "cafe",
            "children": [{"name": "counter"}, {"name": "kitchen", "children": [{"name": "stove"}]}],
        },
        {"name": "square"},
        {"name": "park"},
    ]
}


@pytest.fixture(autouse=True)
def mapped(client: TestClient, world: dict[str, Any]) -> None:
    """The places these steps name are in the world's map (`service.place_names`)."""
    response = client.put(f"/v1/worlds/{world['id']}/map", json=MAP, headers=world["headers"])
    assert response.status_code == 200, response.json()


def _step(client: TestClient, world: dict[str, Any], agents: list[dict[str, Any]]) -> Any:
    return client.post(
        f"/v1/worlds/{world['id']}/step", json={"agents": agents}, headers=world["headers"]
    )


def _observations(sessions: sessionmaker[Session]) -> list[str]:
    with sessions() as session:
        return list(
            session.scalars(
                sa.select(Memory.description)
                .where(Memory.kind == "observation")
                .order_by(Memory.id)
            )
        )


def test_step_moves_agents_stores_perceptions_and_answers_actions(
    client: TestClient, world: dict[str, Any], sessions: sessionmaker[Session]
) -> None:
    rosa, tomas = agent_ids(client, world, "Rosa", "Tomas")
    client.post(
        f"/v1/worlds/{world['id']}/clock", json={"set": NOON.isoformat()}, headers=world["headers"]
    )
    with sessions.begin() as session:
        save_items(
            session,
            agent_id=rosa,
            level=PlanLevel.DAY,
            items=[
                PlanItem(
                    datetime(2023, 2, 13, 11),
                    120,
                    "serve lunch at the cafe",
                    "cafe: counter",
                    emoji="🍽️",
                )
            ],
        )
    response = _step(
        client,
        world,
        [
            {
                "agent_id": str(rosa),
                "place": "cafe: counter",
                "position": {"x": 3, "y": 4},
                "perceived": [
                    {"kind": "agent", "subject": "Tomas", "state": "have lunch"},
                    {"kind": "object", "subject": "cafe: kitchen: stove", "state": "idle"},
                ],
            },
            {
                "agent_id": str(tomas),
                "perceived": [{"kind": "event", "description": "it starts to rain"}],
            },
        ],
    )
    assert response.status_code == 200, response.json()
    body = response.json()
    # written as JSON directly, the answer is exactly what the declared schema serialises
    assert StepResponse.model_validate(body).model_dump(mode="json") == body
    assert body["now"] == "2023-02-13T12:00:00"
    by_id = {a["agent_id"]: a for a in body["agents"]}
    action = by_id[str(rosa)]["action"]
    assert action["description"] == "serve lunch at the cafe" and action["emoji"] == "🍽️"
    assert action["end"] == "2023-02-13T13:00:00"
    assert by_id[str(tomas)]["action"] is None
    assert by_id[str(rosa)]["stored"] == 2 and by_id[str(tomas)]["stored"] == 1
    assert _observations(sessions) == [  # the plan's imperative, read as English
        "Tomas is having lunch",
        "stove is idle",
        "it starts to rain",
    ]
    with sessions() as session:
        agent = session.get(Agent, rosa)
        assert agent is not None and agent.place == "cafe: counter"
        assert agent.position == {"x": 3, "y": 4}


def test_repeated_observations_are_not_stored_twice(
    client: TestClient, world: dict[str, Any], sessions: sessionmaker[Session]
) -> None:
    (rosa,) = agent_ids(client, world, "Rosa")
    seen = {"kind": "object", "subject": "cafe: kitchen: stove", "state": "idle"}
    respelled = {**seen, "subject": "cafe:kitchen :stove", "state": "Idle."}
    for perceived in (seen, seen, respelled):
        _step(client, world, [{"agent_id": str(rosa), "perceived": [perceived]}])
    changed = {**seen, "state": "burning"}
    last = _step(client, world, [{"agent_id": str(rosa), "perceived": [changed, changed]}])
    assert last.json()["agents"][0]["stored"] == 1
    doing = {"kind": "agent", "subject": "Tomas", "state": "have lunch"}
    _step(client, world, [{"agent_id": str(rosa), "perceived": [doing, doing]}])
    _step(client, world, [{"agent_id": str(rosa), "perceived": [doing]}])
    assert _observations(sessions) == ["stove is idle", "stove is burning", "Tomas is having lunch"]
    with sessions() as session:
        subjects = session.scalars(sa.select(Memory.subject).order_by(Memory.id))
        assert list(subjects) == ["cafe: kitchen: stove", "cafe: kitchen: stove", "Tomas"]


def test_an_unknown_agent_rejects_the_whole_batch(
    client: TestClient,
    admin_headers: dict[str, str],
    world: dict[str, Any],
    sessions: sessionmaker[Session],
) -> None:

    (rosa,) = agent_ids(client, world, "Rosa")
    other = create_world(client, admin_headers, name="Elsewhere")
    (stranger,) = agent_ids(client, other, "Stranger")
    event = [{"kind": "event", "description": "a bell rings"}]
    response = _step(
        client,
        world,
        [
            {"agent_id": str(rosa), "perceived": event},
            {"agent_id": str(stranger), "perceived": event},
        ],
    )
    assert response.status_code == 422
    assert response.json()["error"]["details"][0]["field"] == "body.agents.1.agent_id"
    assert _observations(sessions) == []
    twice = _step(client, world, [{"agent_id": str(rosa)}, {"agent_id": str(rosa)}])
    assert twice.json()["error"]["details"][0]["field"] == "body.agents.1.agent_id"


def test_malformed_perception_names_the_field(client: TestClient, world: dict[str, Any]) -> None:
    (rosa,) = agent_ids(client, world, "Rosa")
    response = _step(
        client,
        world,
        [{"agent_id": str(rosa), "perceived": [{"kind": "object", "subject": "stove"}]}],
    )
    assert response.status_code == 422
    assert response.json()["error"]["details"][0]["field"].startswith("body.agents.0.perceived.0")


def test_step_reports_the_line_being_spoken(
    client: TestClient, world: dict[str, Any], sessions: sessionmaker[Session]
) -> None:
    rosa, tomas = agent_ids(client, world, "Rosa", "Tomas")
    with sessions.begin() as session:
        talk = Conversation(
            world_id=uuid.UUID(world["id"]),
            initiator_id=rosa,
            partner_agent_id=tomas,
            started_at=NOON,
        )
        session.add(talk)
        session.flush()
        session.add_all(
            [
                Utterance(
                    conversation_id=talk.id,
                    seq=1,
                    speaker_agent_id=rosa,
                    text="Hi Tomas!",
                    spoken_at=NOON,
                ),
                Utterance(
                    conversation_id=talk.id,
                    seq=2,
                    speaker_agent_id=tomas,
                    text="Hello Rosa, how is the cafe?",
                    spoken_at=NOON,
                ),
            ]
        )
    at = {"set": NOON.isoformat()}
    client.post(f"/v1/worlds/{world['id']}/clock", json=at, headers=world["headers"])
    body = _step(client, world, [{"agent_id": str(rosa)}, {"agent_id": str(tomas)}]).json()
    assert StepResponse.model_validate(body).model_dump(mode="json") == body
    lines = {a["agent_id"]: a["utterance"] for a in body["agents"]}
    assert lines[str(rosa)]["speaker"] == "Tomas"
    assert lines[str(rosa)]["text"] == lines[str(tomas)]["text"] == "Hello Rosa, how is the cafe?"


def test_a_thousand_agents_in_one_step(
    client: TestClient, world: dict[str, Any], sessions: sessionmaker[Session]
) -> None:
    world_id = uuid.UUID(world["id"])
    with sessions.begin() as session:
        ids = [uuid.uuid4() for _ in range(1000)]
        session.execute(
            sa.insert(Agent),
            [{"id": i, "world_id": world_id, "name": f"npc {n}"} for n, i in enumerate(ids)],
        )
    batch = [
        {
            "agent_id": str(i),
            "place": "square",
            "perceived": [{"kind": "event", "description": "the clock tower strikes noon"}],
        }
        for i in ids
    ]
    response = _step(client, world, batch)
    assert response.status_code == 200
    assert [a["agent_id"] for a in response.json()["agents"]] == [str(i) for i in ids]
    assert len(_observations(sessions)) == 1000


def test_one_agents_action_and_status(
    client: TestClient, world: dict[str, Any], sessions: sessionmaker[Session]
) -> None:
    (rosa,) = agent_ids(client, world, "Rosa")
    url = f"/v1/worlds/{world['id']}/agents/{rosa}"
    idle = client.get(f"{url}/action", headers=world["headers"]).json()
    assert (
        idle["action"] is None
        and client.get(url, headers=world["headers"]).json()["status"] is None
    )
    client.post(
        f"/v1/worlds/{world['id']}/clock", json={"set": NOON.isoformat()}, headers=world["headers"]
    )
    with sessions.begin() as session:
        save_items(
            session,
            agent_id=rosa,
            level=PlanLevel.DAY,
            items=[
                PlanItem(datetime(2023, 2, 13, 11), 120, "serve lunch at the cafe", "cafe: counter")
            ],
        )
    body = client.get(f"{url}/action", headers=world["headers"]).json()
    assert body["now"] == "2023-02-13T12:00:00"
    assert body["action"]["description"] == "serve lunch at the cafe"
    assert client.get(url, headers=world["headers"]).json()["status"] == "serve lunch at the cafe"
    listed = client.get(f"/v1/worlds/{world['id']}/agents", headers=world["headers"]).json()
    assert listed["items"][0]["status"] == "serve lunch at the cafe"


def test_a_step_that_moves_agents_announces_the_moves_once(
    client: TestClient, world: dict[str, Any]
) -> None:
    rosa, tomas = agent_ids(client, world, "Rosa", "Tomas")
    before = events(client, world)[-1]["id"]
    moves = [{"agent_id": str(rosa), "place": "cafe: counter"}, {"agent_id": str(tomas)}]
    assert _step(client, world, moves).status_code == 200
    assert _step(client, world, moves).status_code == 200  # nobody moved this time
    moved = events(client, world, after=before)
    assert [e["type"] for e in moved] == ["agents_moved"]
    expected = {"agent_id": str(rosa), "name": "Rosa", "place": "cafe: counter", "previous": None}
    assert moved[0]["data"] == {"moves": [expected]}
    _step(
        client,
        world,
        [{"agent_id": str(rosa), "place": "park"}, {"agent_id": str(tomas), "place": "park"}],
    )
    again = events(client, world, after=moved[0]["id"])[0]["data"]["moves"]
    assert {(m["name"], m["previous"], m["place"]) for m in again} == {
        ("Rosa", "cafe: counter", "park"),
        ("Tomas", None, "park"),
    }


def test_actions_page_the_town_with_the_event_to_stream_after(
    client: TestClient, world: dict[str, Any], sessions: sessionmaker[Session]
) -> None:
    rosa, tomas, ines = agent_ids(client, world, "Rosa", "Tomas", "Ines")
    client.post(url(world, "/clock"), json={"set": NOON.isoformat()}, headers=world["headers"])
    with sessions.begin() as session:
        lunch = PlanItem(datetime(2023, 2, 13, 11), 120, "serve lunch", "cafe: counter", "🍽️")
        save_items(session, agent_id=rosa, level=PlanLevel.DAY, items=[lunch])
    _step(client, world, [{"agent_id": str(rosa), "place": "cafe: counter"}])
    last = events(client, world)[-1]["id"]
    path = url(world, "/actions")
    first = client.get(path, params={"limit": 2}, headers=world["headers"]).json()
    assert first["now"] == "2023-02-13T12:00:00" and first["last_event_id"] == last
    assert [a["name"] for a in first["items"]] == ["Rosa", "Tomas"]
    doing = first["items"][0]
    assert (doing["agent_id"], doing["place"]) == (str(rosa), "cafe: counter")
    assert doing["action"]["emoji"] == "🍽️" and doing["action"]["description"] == "serve lunch"
    assert first["items"][1]["action"] is None and first["items"][1]["utterance"] is None
    rest = client.get(
        path, params={"limit": 2, "cursor": first["next_cursor"]}, headers=world["headers"]
    ).json()
    assert [a["agent_id"] for a in rest["items"]] == [str(ines)] and rest["next_cursor"] is None
    assert str(tomas) not in {a["agent_id"] for a in rest["items"]}


def test_actions_of_another_world_are_not_found(
    client: TestClient, world: dict[str, Any], admin_headers: dict[str, str]
) -> None:
    other = create_world(client, admin_headers, name="Elsewhere")
    assert client.get(url(other, "/actions"), headers=world["headers"]).status_code == 404


def test_a_place_must_be_in_the_map_unless_the_step_creates_it(
    client: TestClient, world: dict[str, Any], sessions: sessionmaker[Session]
) -> None:
    (rosa,) = agent_ids(client, world, "Rosa")
    atlantis = [{"agent_id": str(rosa), "place": "Atlantis: agora"}]
    refused = _step(client, world, atlantis)
    assert refused.status_code == 422
    assert refused.json()["error"]["details"][0]["field"] == "body.agents.0.place"
    seen = {"kind": "object", "subject": "cafe: oven", "state": "hot"}
    unknown_object = _step(client, world, [{"agent_id": str(rosa), "perceived": [seen]}])
    assert unknown_object.json()["error"]["details"][0]["field"] == (
        "body.agents.0.perceived.0.subject"
    )
    with sessions() as session:
        assert session.get_one(Agent, rosa).place is None
    headers = world["headers"]
    created = client.post(
        f"/v1/worlds/{world['id']}/step",
        headers=headers,
        json={"agents": atlantis, "create_places": True},
    )
    assert created.status_code == 200, created.json()
    paths = {p["path"] for p in client.get(url(world, "/map"), headers=headers).json()["children"]}
    assert "Atlantis" in paths
    with sessions() as session:
        assert session.get_one(Agent, rosa).place == "Atlantis: agora"
    assert any(
        e["type"] == "map_updated" and e["data"]["created"] == 2 for e in events(client, world)
    )
