"""The memory stream over HTTP: batches, limits, idempotency, pages, evidence trees, search."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session, sessionmaker

from db.models import Memory, MemoryEvidence
from service.schemas.memories import MAX_BATCH
from tests.service.api import create_agent, create_world

START = datetime(2023, 2, 13, 7, 0)


@pytest.fixture
def agent(client: TestClient, world: dict[str, Any]) -> dict[str, Any]:
    body = create_agent(client, world, name="Isabella")
    body["url"] = f"/v1/worlds/{world['id']}/agents/{body['id']}/memories"
    body["headers"] = world["headers"]
    return body


def post(client: TestClient, agent: dict[str, Any], *memories: Any, **headers: str) -> Any:
    items = [{"description": m} if isinstance(m, str) else m for m in memories]
    return client.post(
        agent["url"], json={"memories": items}, headers={**agent["headers"], **headers}
    )


def count(sessions: sessionmaker[Session]) -> int:
    with sessions() as session:
        return int(session.scalar(sa.select(sa.func.count()).select_from(Memory)) or 0)


def test_one_memory_gets_every_default(client: TestClient, agent: dict[str, Any]) -> None:
    response = post(client, agent, "Isabella is brewing coffee")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["next_cursor"] is None
    [memory] = body["items"]
    assert memory["kind"] == "observation" and memory["source"] == "game"
    assert memory["created_at"] == memory["last_accessed_at"] == START.isoformat()
    assert 1 <= memory["importance"] <= 10 and memory["importance_scored"] is False
    assert memory["depth"] == 0 and memory["embedded"] is False
    assert set(memory) == {
        "id",
        "kind",
        "description",
        "created_at",
        "last_accessed_at",
        "importance",
        "importance_scored",
        "depth",
        "source",
        "embedded",
        "subject",
        "predicate",
        "object",
    }


def test_many_memories_keep_their_order_and_fields(
    client: TestClient, agent: dict[str, Any], sessions: sessionmaker[Session]
) -> None:
    later = (START + timedelta(hours=2)).isoformat()
    response = post(
        client,
        agent,
        "Klaus is reading",
        {
            "description": "Maria said hi",
            "kind": "utterance",
            "source": "player",
            "created_at": later,
        },
        {"description": "Be kind to strangers", "kind": "directive", "source": "admin"},
        {
            "description": "The stove is burning",
            "subject": "stove",
            "predicate": "is",
            "object": "burning",
        },
    )
    assert response.status_code == 201
    items = response.json()["items"]
    assert [m["description"] for m in items] == [
        "Klaus is reading",
        "Maria said hi",
        "Be kind to strangers",
        "The stove is burning",
    ]
    assert [m["kind"] for m in items] == ["observation", "utterance", "directive", "observation"]
    assert items[1]["created_at"] == items[1]["last_accessed_at"] == later
    assert items[1]["source"] == "player" and items[2]["source"] == "admin"
    assert (items[3]["subject"], items[3]["object"]) == ("stove", "burning")
    assert items[3]["importance"] > items[0]["importance"]  # a fire outranks reading
    assert count(sessions) == 4


@pytest.mark.parametrize("kind", ["reflection", "plan"])
def test_callers_cannot_write_reflections_or_plans(
    client: TestClient, agent: dict[str, Any], sessions: sessionmaker[Session], kind: str
) -> None:
    response = post(client, agent, "a", "b", "c", {"description": "I am wise", "kind": kind})
    assert response.status_code == 422
    [detail] = response.json()["error"]["details"]
    assert detail["field"] == "body.memories.3.kind"
    assert "made by the agent itself" in detail["message"]
    assert count(sessions) == 0


def test_limits_name_the_field(client: TestClient, agent: dict[str, Any]) -> None:
    too_long = post(client, agent, "fine", "x" * 4001)
    assert too_long.status_code == 422
    assert too_long.json()["error"]["details"][0]["field"] == "body.memories.1.description"
    empty = post(client, agent, "   ")
    assert empty.json()["error"]["details"][0]["field"] == "body.memories.0.description"
    assert post(client, agent).status_code == 422  # an empty batch


def test_a_batch_over_the_limit_is_413(
    client: TestClient, agent: dict[str, Any], sessions: sessionmaker[Session]
) -> None:
    response = post(client, agent, *[f"tick {i}" for i in range(MAX_BATCH + 1)])
    assert response.status_code == 413
    error = response.json()["error"]
    assert error["code"] == "payload_too_large"
    assert error["details"][0]["field"] == "body.memories"
    assert count(sessions) == 0
    assert post(client, agent, *[f"tick {i}" for i in range(MAX_BATCH)]).status_code == 201


def test_a_body_over_the_size_limit_is_413(client: TestClient, agent: dict[str, Any]) -> None:
    huge = b'{"memories": [' + b'{"description": "' + b"x" * (9 * 1024 * 1024) + b'"}]}'
    headers = {**agent["headers"], "Content-Type": "application/json"}
    response = client.post(agent["url"], content=huge, headers=headers)
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "payload_too_large"

    def chunks() -> Any:  # no Content-Length: the body is counted as it arrives
        yield b'{"memories": [{"description": "'
        for _ in range(9):
            yield b"x" * (1024 * 1024)
        yield b'"}]}'

    chunked = client.post(agent["url"], content=chunks(), headers=headers)
    assert chunked.status_code == 413


def test_a_replayed_batch_is_a_no_op(
    client: TestClient, agent: dict[str, Any], sessions: sessionmaker[Session]
) -> None:
    first = post(client, agent, "one", "two", **{"Idempotency-Key": "batch-7"})
    again = post(client, agent, "one", "two", **{"Idempotency-Key": "batch-7"})
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again.headers.get("Idempotent-Replayed") == "true"
    assert count(sessions) == 2
    other = post(client, agent, "three", **{"Idempotency-Key": "batch-7"})
    assert other.status_code == 409
    assert count(sessions) == 2


def test_list_pages_newest_first_with_filters(client: TestClient, agent: dict[str, Any]) -> None:
    times = [(START + timedelta(minutes=i)).isoformat() for i in range(7)]
    kinds = ["observation", "utterance"] * 3 + ["seed"]
    post(
        client,
        agent,
        *[
            {"description": f"m{i}", "created_at": t, "kind": k}
            for i, (t, k) in enumerate(zip(times, kinds, strict=True))
        ],
    )
    seen, cursor = [], None
    while True:
        params: dict[str, Any] = {"limit": 3, **({"cursor": cursor} if cursor else {})}
        page = client.get(agent["url"], params=params, headers=agent["headers"]).json()
        seen += [m["description"] for m in page["items"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == [f"m{i}" for i in reversed(range(7))]

    def listed(**params: Any) -> list[str]:
        page = client.get(agent["url"], params=params, headers=agent["headers"]).json()
        return [m["description"] for m in page["items"]]

    assert listed(kind="utterance") == ["m5", "m3", "m1"]
    assert listed(kind=["utterance", "seed"]) == ["m6", "m5", "m3", "m1"]
    assert listed(since=times[2], until=times[5]) == ["m4", "m3", "m2"]
    bad = client.get(agent["url"], params={"kind": "dream"}, headers=agent["headers"])
    assert bad.status_code == 422 and bad.json()["error"]["details"][0]["field"] == "query.kind.0"


def test_a_reflection_carries_its_evidence_tree(
    client: TestClient, agent: dict[str, Any], sessions: sessionmaker[Session]
) -> None:
    ids = [m["id"] for m in post(client, agent, "Klaus reads", "Klaus writes").json()["items"]]
    with sessions.begin() as session:
        inner = _reflection(session, agent, "Klaus studies", depth=1, cites=ids)
        outer = _reflection(session, agent, "Klaus is driven", depth=2, cites=[inner, ids[0]])
    body = client.get(f"{agent['url']}/{outer}", headers=agent["headers"]).json()
    assert body["kind"] == "reflection" and body["depth"] == 2
    assert [e["id"] for e in body["evidence"]] == [ids[0], inner]
    nested = body["evidence"][1]
    assert [e["description"] for e in nested["evidence"]] == ["Klaus reads", "Klaus writes"]
    assert all(e["evidence"] == [] for e in nested["evidence"])
    plain = client.get(f"{agent['url']}/{ids[1]}", headers=agent["headers"]).json()
    assert plain["evidence"] == [] and plain["description"] == "Klaus writes"
    missing = client.get(f"{agent['url']}/999999", headers=agent["headers"])
    assert missing.status_code == 404


def test_shared_evidence_is_given_once_however_deep_the_reflections(
    client: TestClient, agent: dict[str, Any], sessions: sessionmaker[Session]
) -> None:
    """Thirty reflections, each citing the two before it: every citation path would be
    ~1.6 million nodes (a demo town's reflections timed its client out); each memory's own
    evidence is given once, at its shallowest citation."""
    ids = [m["id"] for m in post(client, agent, "Klaus reads", "Klaus writes").json()["items"]]
    with sessions.begin() as session:
        for level in range(1, 31):
            cites = ids[-2:]
            ids.append(_reflection(session, agent, f"insight {level}", depth=level, cites=cites))
    body = client.get(f"{agent['url']}/{ids[-1]}", headers=agent["headers"]).json()
    shown: list[dict[str, Any]] = []
    pending = [body]
    while pending:
        node = pending.pop()
        shown.append(node)
        pending += node["evidence"]
    assert len(shown) == 1 + 2 * 30  # the root, then each citation once
    expanded = [n["id"] for n in shown if n["evidence"]]
    assert sorted(expanded) == sorted(ids[2:])  # every reflection's evidence, exactly once
    assert [e["id"] for e in body["evidence"]] == ids[-3:-1]


def _reflection(
    session: Session, agent: dict[str, Any], text: str, *, depth: int, cites: list[int]
) -> int:
    row = Memory(
        world_id=uuid.UUID(agent["world_id"]),
        agent_id=uuid.UUID(agent["id"]),
        kind="reflection",
        description=text,
        created_at=START,
        last_accessed_at=START,
        importance=7,
        importance_scored=True,
        content_hash="0" * 64,
        depth=depth,
        source="agent",
    )
    session.add(row)
    session.flush()
    session.add_all(MemoryEvidence(reflection_id=row.id, evidence_id=i) for i in cites)
    return row.id


def search(client: TestClient, agent: dict[str, Any], **body: Any) -> Any:
    return client.post(f"{agent['url']}/search", json=body, headers=agent["headers"])


def test_search_explains_every_score(client: TestClient, agent: dict[str, Any]) -> None:
    post(client, agent, "The cafe kitchen is on fire!", "Klaus is reading a book")
    response = search(client, agent, query="fire in the kitchen", k=5, touch=False)
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["weights"] == {"recency": 1.0, "importance": 1.0, "relevance": 1.0}
    assert body["at"] == START.isoformat()
    assert len(body["results"]) == 2
    first = body["results"][0]
    assert first["description"] == "The cafe kitchen is on fire!"
    assert set(first) == {
        "id",
        "description",
        "kind",
        "created_at",
        "importance",
        "score",
        "components",
    }
    parts = first["components"]
    assert set(parts) == {"recency", "importance", "relevance"}
    assert all(set(c) == {"raw", "normalized"} for c in parts.values())
    assert first["score"] == pytest.approx(sum(c["normalized"] for c in parts.values()))
    weighted = search(
        client, agent, query="x", weights={"importance": 0, "relevance": 0}, touch=False
    ).json()
    assert weighted["weights"] == {"recency": 1.0, "importance": 0.0, "relevance": 0.0}


def test_search_touches_only_when_asked(
    client: TestClient, agent: dict[str, Any], sessions: sessionmaker[Session]
) -> None:
    [memory] = post(client, agent, "Klaus is reading").json()["items"]
    later = START + timedelta(hours=5)
    _advance(client, agent, minutes=5 * 60)
    search(client, agent, query="reading", at=later.isoformat(), touch=False)
    assert _accessed(sessions, memory["id"]) == START
    found = search(client, agent, query="reading", at=later.isoformat()).json()
    assert found["at"] == later.isoformat() and found["results"][0]["id"] == memory["id"]
    assert _accessed(sessions, memory["id"]) == later


def test_search_never_touches_past_the_worlds_clock(
    client: TestClient, agent: dict[str, Any], sessions: sessionmaker[Session]
) -> None:
    """Scoring at a later `at` is allowed; marking memories accessed there is not (they would
    keep recency 1.0 for ever): the touch happens at the world's now."""
    [memory] = post(client, agent, "Klaus is reading").json()["items"]
    _advance(client, agent, minutes=60)
    found = search(client, agent, query="reading", at="2999-12-31T00:00:00", touch=True)
    assert found.status_code == 200 and found.json()["at"] == "2999-12-31T00:00:00"
    assert _accessed(sessions, memory["id"]) == START + timedelta(hours=1)


def _advance(client: TestClient, agent: dict[str, Any], *, minutes: int) -> None:
    clock = agent["url"].split("/agents/")[0] + "/clock"
    response = client.post(clock, json={"advance_minutes": minutes}, headers=agent["headers"])
    assert response.status_code == 200, response.text


def _accessed(sessions: sessionmaker[Session], memory_id: int) -> datetime:
    with sessions() as session:
        row = session.get(Memory, memory_id)
        assert row is not None
        return row.last_accessed_at


def test_budget_keeps_the_best_that_fit_and_touches_only_those(
    client: TestClient, agent: dict[str, Any], sessions: sessionmaker[Session]
) -> None:
    post(client, agent, *[f"memory number {i} " + "word " * 10 for i in range(5)])  # 17 tokens
    full = search(client, agent, query="memory", k=5, touch=False).json()["results"]
    later = (START + timedelta(hours=1)).isoformat()
    _advance(client, agent, minutes=60)
    trimmed = search(client, agent, query="memory", k=5, budget_tokens=40, at=later)
    kept = [r["id"] for r in trimmed.json()["results"]]
    assert kept == [r["id"] for r in full[:2]]
    touched = {m.id for m in _all(sessions) if m.last_accessed_at != m.created_at}
    assert touched == set(kept)
    assert search(client, agent, query="memory", budget_tokens=0).json()["results"] == []


def _all(sessions: sessionmaker[Session]) -> list[Memory]:
    with sessions() as session:
        return list(session.scalars(sa.select(Memory)))


def test_search_rejects_bad_requests(client: TestClient, agent: dict[str, Any]) -> None:
    for body, field in [
        ({"query": ""}, "body.query"),
        ({"query": "x", "k": 0}, "body.k"),
        ({"query": "x", "k": 101}, "body.k"),
        ({"query": "x", "kinds": ["dream"]}, "body.kinds.0"),
        ({"query": "x", "budget_tokens": -1}, "body.budget_tokens"),
    ]:
        response = search(client, agent, **body)
        assert response.status_code == 422, body
        assert response.json()["error"]["details"][0]["field"] == field


def test_another_worlds_key_sees_nothing(
    client: TestClient, admin_headers: dict[str, str], agent: dict[str, Any]
) -> None:
    [memory] = post(client, agent, "a secret").json()["items"]
    stranger = create_world(client, admin_headers, name="Elsewhere")["headers"]
    attempts = [
        client.post(agent["url"], json={"memories": [{"description": "x"}]}, headers=stranger),
        client.get(agent["url"], headers=stranger),
        client.get(f"{agent['url']}/{memory['id']}", headers=stranger),
        client.post(f"{agent['url']}/search", json={"query": "secret"}, headers=stranger),
    ]
    assert [r.status_code for r in attempts] == [404] * 4
    assert all(r.json()["error"]["code"] == "not_found" for r in attempts)


def test_list_filters_by_text_in_any_case(client: TestClient, agent: dict[str, Any]) -> None:
    post(client, agent, "Isabella bakes BREAD", "Isabella waters plants", "100% rye bread")

    def listed(text: str) -> list[str]:
        page = client.get(agent["url"], params={"text": text}, headers=agent["headers"]).json()
        return [m["description"] for m in page["items"]]

    assert sorted(listed("bread")) == ["100% rye bread", "Isabella bakes BREAD"]
    assert listed("100%") == ["100% rye bread"]  # a % is a character, not a wildcard
    assert listed("_") == []
    long = client.get(agent["url"], params={"text": "x" * 201}, headers=agent["headers"])
    assert long.status_code == 422 and long.json()["error"]["details"][0]["field"] == "query.text"
