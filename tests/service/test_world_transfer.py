"""A world exported from one server and imported into another (a second database) comes back
identical: the same rows in content (ids are new), the same retrieval answers; a file cut
short changes nothing; an admin lists and deletes worlds."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from cognition.hashing_embedder import HashingEmbedder
from cognition.offline.mind import OfflineMind
from cognition.types import PlanItem, PlanLevel
from db import migrate
from db.embedded import EmbeddedPostgres
from db.flows.enrichment import enrich
from db.models import Memory, MemoryEvidence, Plan
from db.queries.api_keys import generate_key, store_key
from db.queries.plans import save_items
from db.settings import Settings
from db.world_transfer import _target, columns
from service.app import create_app
from tests.service.api import small_map

START = "2023-02-13T07:00:00"


@pytest.fixture
def other_server(
    postgres: EmbeddedPostgres, settings: Settings
) -> Iterator[tuple[TestClient, dict[str, str]]]:
    """Another Hearth database (its own migrations, no rows) and an API on it."""
    name = f"hearth_copy_{uuid.uuid4().hex[:8]}"
    admin = sa.create_engine(postgres.admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    url = make_url(postgres.url).set(database=name).render_as_string(hide_password=False)
    engine = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        conn.execute(sa.text("CREATE EXTENSION IF NOT EXISTS vector"))
    engine.dispose()
    migrate.upgrade(url)
    key = generate_key("admin")
    engine = sa.create_engine(url)
    with sessionmaker(engine).begin() as session:
        store_key(session, key)
    try:
        with TestClient(create_app(settings.model_copy(update={"database_url": url}))) as client:
            yield client, {"Authorization": f"Bearer {key}"}
    finally:
        engine.dispose()
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE "{name}" WITH (FORCE)'))
        admin.dispose()


def _town(client: TestClient, admin: dict[str, str], sessions: sessionmaker[Session]) -> str:
    """A world with a map, agents who know it, relationships, memories (embedded and rated),
    a reflection citing evidence, a plan tree with a superseded item, and a chat."""
    world = client.post(
        "/v1/worlds",
        headers=admin,
        json={
            "name": "Exportville",
            "clock": {"start": START},
            "settings": {
                "reflection_threshold": 90,
                "weights": {"recency": 0.5},
                "mind_focus": "focused",
            },
        },
    ).json()
    world_id, base = world["id"], f"/v1/worlds/{world['id']}"
    pack = {
        "map": small_map(),
        "personas": [
            {
                "name": "Rosa",
                "background": "paints; sings",
                "living_area": "Lin house",
                "start_place": "Hobbs Cafe: counter",
                "known_places": ["park: bench"],
                "relationships": [{"other": "Tomas", "summary": "her friend", "sentiment": 8}],
            },
            {"name": "Tomas", "start_place": "park"},
        ],
    }
    assert client.post(f"{base}/personas/import", json=pack, headers=admin).status_code == 200
    agents = {
        a["name"]: a["id"] for a in client.get(f"{base}/agents", headers=admin).json()["items"]
    }
    rosa = agents["Rosa"]
    focus = client.patch(f"{base}/agents/{rosa}", json={"in_focus": True}, headers=admin)
    assert focus.status_code == 200  # the mark travels with the agent (and her calls' focus)
    texts = ["Rosa saw a heron at the pond", "Tomas is baking bread", "the cafe smells of coffee"]
    client.post(
        f"{base}/agents/{rosa}/memories",
        headers=admin,
        json={"memories": [{"description": t} for t in texts]},
    )
    chat = client.post(
        f"{base}/agents/{rosa}/chat",
        headers=admin,
        json={"player": "Mo", "message": "Have you seen the heron?"},
    )
    assert chat.status_code == 200
    with sessions.begin() as session:
        ids = list(
            session.scalars(sa.select(Memory.id).where(Memory.world_id == uuid.UUID(world_id)))
        )
    enrich(sessions, ids, embedder=HashingEmbedder(), mind=OfflineMind())
    with sessions.begin() as session:
        agent_id = uuid.UUID(rosa)
        cited = session.scalars(sa.select(Memory).where(Memory.id.in_(ids[:2]))).all()
        thought = Memory(
            world_id=uuid.UUID(world_id),
            agent_id=agent_id,
            kind="reflection",
            description="Rosa notices the town's animals",
            importance=6,
            depth=1,
            created_at=cited[0].created_at,
            last_accessed_at=cited[0].created_at,
            content_hash="h",
            source="agent",
        )
        session.add(thought)
        session.flush()
        session.add_all([MemoryEvidence(reflection_id=thought.id, evidence_id=m.id) for m in cited])
        at = cited[0].created_at
        day = save_items(
            session,
            agent_id=agent_id,
            level=PlanLevel.DAY,
            items=[PlanItem(at, 120, "paint at the park", "park")],
        )
        save_items(
            session,
            agent_id=agent_id,
            level=PlanLevel.HOUR,
            parent_id=day[0].id,
            items=[
                PlanItem(at, 60, "set up the easel", "park: bench"),
                PlanItem(at.replace(hour=8), 60, "paint", "park"),
            ],
        )
        later = save_items(
            session,
            agent_id=agent_id,
            level=PlanLevel.DAY,
            items=[PlanItem(at, 30, "sleep in", None)],
        )
        session.get_one(Plan, day[0].id).status = "superseded"
        session.get_one(Plan, day[0].id).superseded_by = later[0].id
    return world_id


def _normalised(text: str) -> list[tuple[str, str]]:
    """The records with every id replaced by its ordinal in the file (per table), so two
    exports of equal content compare equal whatever ids each server gave."""
    records = [json.loads(line) for line in text.splitlines()]
    header, rows, end = records[0], records[1:-1], records[-1]
    assert end["end"] is True and end["rows"] == len(rows)
    ordinals: dict[str, dict[Any, int]] = {"worlds": {header["world"]["id"]: 0}}
    for record in rows:
        table = ordinals.setdefault(record["table"], {})
        table.setdefault(record["row"].get("id", len(table)), len(table))
    out = []
    for record in rows:
        name, row = record["table"], dict(record["row"])
        for column in columns(name):
            value = row.get(column.name)
            if value is None:
                continue
            if column.name == "id":
                row["id"] = ordinals[name][value]
            elif column.foreign_keys or (name, column.name) == ("agents", "current_plan_id"):
                row[column.name] = ordinals[_target(name, column.name)][value]
        out.append((name, json.dumps(row, sort_keys=True)))
    return sorted(out)


def test_export_import_into_another_server_comes_back_identical(
    client: TestClient,
    admin_headers: dict[str, str],
    sessions: sessionmaker[Session],
    other_server: tuple[TestClient, dict[str, str]],
) -> None:
    world_id = _town(client, admin_headers, sessions)
    exported = client.get(f"/v1/worlds/{world_id}/export", headers=admin_headers)
    assert exported.status_code == 200
    assert exported.headers["content-type"].startswith("application/x-ndjson")
    tables = {json.loads(line).get("table") for line in exported.text.splitlines()}
    assert {
        "places",
        "agents",
        "agent_places",
        "memories",
        "memory_evidence",
        "plans",
        "conversations",
        "utterances",
        "relationships",
        "llm_calls",
    } <= tables

    other, other_admin = other_server
    jsonl = {**other_admin, "content-type": "application/x-ndjson"}
    imported = other.post("/v1/worlds/import", content=exported.content, headers=jsonl)
    assert imported.status_code == 201, imported.text
    copy = imported.json()
    assert copy["id"] != world_id and copy["name"] == "Exportville" and copy["api_key"]
    assert copy["settings"] == {
        "weights": {"recency": 0.5, "importance": 1.0, "relevance": 1.0},
        "reflection_threshold": 90,
        "budget": None,
        "mind_focus": "focused",
        "cors_origins": None,
    }
    again = other.get(f"/v1/worlds/{copy['id']}/export", headers=other_admin)
    assert _normalised(again.text) == _normalised(exported.text)
    copied = other.get(f"/v1/worlds/{copy['id']}/agents", headers=other_admin).json()["items"]
    assert {a["name"]: a["in_focus"] for a in copied} == {"Rosa": True, "Tomas": False}

    query = {"query": "a heron at the pond", "k": 5, "touch": False, "at": "2023-02-13T09:00:00"}

    def answers(api: TestClient, wid: str, headers: dict[str, str]) -> list[tuple[str, float]]:
        agents = api.get(f"/v1/worlds/{wid}/agents", headers=headers).json()["items"]
        rosa = next(a["id"] for a in agents if a["name"] == "Rosa")
        found = api.post(
            f"/v1/worlds/{wid}/agents/{rosa}/memories/search", json=query, headers=headers
        ).json()["results"]
        return [(r["description"], r["score"]) for r in found]

    original = answers(client, world_id, admin_headers)
    its_key = {"Authorization": f"Bearer {copy['api_key']}"}
    assert original and original == answers(other, copy["id"], its_key)


def test_a_file_cut_short_or_foreign_changes_nothing(
    client: TestClient, admin_headers: dict[str, str], sessions: sessionmaker[Session]
) -> None:
    world_id = _town(client, admin_headers, sessions)
    lines = client.get(f"/v1/worlds/{world_id}/export", headers=admin_headers).text.splitlines()
    before = client.get("/v1/worlds", headers=admin_headers).json()["items"]
    headers = {**admin_headers, "content-type": "application/x-ndjson"}
    for body, blamed in [
        ("\n".join(lines[:-1]), "body"),  # no end record
        ("\n".join([lines[0], "{not json"]), "body.2"),
        ("\n".join([lines[0], '{"table": "nope", "row": {}}', lines[-1]]), "body.2"),
        ('{"format": "something else"}', "body.1"),
    ]:
        response = client.post("/v1/worlds/import", content=body.encode(), headers=headers)
        assert response.status_code == 422, response.text
        assert response.json()["error"]["details"][0]["field"] == blamed
    assert client.get("/v1/worlds", headers=admin_headers).json()["items"] == before


def test_worlds_are_listed_and_deleted_by_the_admin_only(
    client: TestClient, admin_headers: dict[str, str]
) -> None:
    made = [
        client.post("/v1/worlds", json={"name": n}, headers=admin_headers).json()
        for n in ("One", "Two", "Three")
    ]
    world_key = {"Authorization": f"Bearer {made[0]['api_key']}"}
    page = client.get("/v1/worlds", params={"limit": 2}, headers=admin_headers).json()
    rest = client.get(
        "/v1/worlds", params={"cursor": page["next_cursor"]}, headers=admin_headers
    ).json()
    assert [w["name"] for w in page["items"] + rest["items"]] == ["One", "Two", "Three"]
    assert client.delete(f"/v1/worlds/{made[0]['id']}", headers=world_key).status_code == 403
    assert client.get(f"/v1/worlds/{made[0]['id']}/export", headers=world_key).status_code == 403
    assert client.delete(f"/v1/worlds/{made[0]['id']}", headers=admin_headers).status_code == 204
    assert client.get(f"/v1/worlds/{made[0]['id']}", headers=admin_headers).status_code == 404
    assert client.get("/v1/me", headers=world_key).status_code == 401  # its keys went with it
    names = [w["name"] for w in client.get("/v1/worlds", headers=admin_headers).json()["items"]]
    assert names == ["Two", "Three"]


def _small_export(client: TestClient, admin: dict[str, str]) -> list[dict[str, Any]]:
    """The records of a world with an agent and two memories."""
    world = client.post(
        "/v1/worlds", headers=admin, json={"name": "Small", "clock": {"start": START}}
    ).json()
    base = f"/v1/worlds/{world['id']}"
    rosa = client.post(f"{base}/agents", json={"name": "Rosa"}, headers=admin).json()["id"]
    memories = {"memories": [{"description": "a heron"}, {"description": "bread"}]}
    client.post(f"{base}/agents/{rosa}/memories", json=memories, headers=admin)
    text = client.get(f"{base}/export", headers=admin).text
    return [json.loads(line) for line in text.splitlines()]


def _changed(records: list[dict[str, Any]], where: str, value: Any) -> list[dict[str, Any]]:
    """A copy of the file with one value replaced: `world.<key>`, or `<table>.<column>` in the
    table's last row."""
    records = json.loads(json.dumps(records))
    scope, key = where.split(".", 1)
    if scope == "world":
        target = records[0]["world"]
        *parents, key = key.split(".")
        for parent in parents:
            target = target.setdefault(parent, {})
        target[key] = value
    else:
        rows = [r for r in records if r.get("table") == scope]
        rows[-1]["row"][key] = value
    return records


def _jsonl(records: list[dict[str, Any]]) -> bytes:
    return "\n".join(json.dumps(r) for r in records).encode()


def test_an_import_is_validated_like_the_api_and_a_bad_one_leaves_nothing(
    client: TestClient, admin_headers: dict[str, str], sessions: sessionmaker[Session]
) -> None:
    """The probes of issue 21: each was a 500 (some after the world was committed) or a value
    the API itself refuses; each is now a 422 naming the line and field, and nothing stays."""
    records = _small_export(client, admin_headers)
    memory_line = max(i for i, r in enumerate(records, 1) if r.get("table") == "memories")
    last_line = len(records) - 1
    last_table = records[-2]["table"]
    with sessions() as session:
        worlds_before = session.scalar(sa.text("SELECT count(*) FROM worlds"))
    headers = {**admin_headers, "content-type": "application/x-ndjson"}
    for body, blamed in [
        (
            _changed(records, "world.settings", {"weights": "evil", "budget": 7}),
            "body.1.world.settings.weights",
        ),
        (_changed(records, "world.settings.budget", 7), "body.1.world.settings.budget"),
        (_changed(records, "world.game_time", "9999-01-01T07:00:00"), "body.1.world.game_time"),
        (_changed(records, "world.clock_rate", 1e300), "body.1.world.clock_rate"),
        (_changed(records, "world.clock_mode", "warp"), "body.1.world.clock_mode"),
        (_changed(records, "world.name", "n" * 201), "body.1.world.name"),
        (
            _changed(records, "memories.description", {"an": "object"}),
            f"body.{memory_line}.row.description",
        ),
        (
            _changed(records, "memories.created_at", "0001-01-01T00:00:00"),
            f"body.{memory_line}.row.created_at",
        ),
        (_changed(records, "memories.importance", 10**6), f"body.{memory_line}.row.importance"),
        (_changed(records, "memories.kind", "k" * 17), f"body.{memory_line}.row.kind"),
        (_changed(records, f"{last_table}.id", [1]), f"body.{last_line}.row.id"),
        ([*records, {"end": True, "rows": 0}], f"body.{len(records) + 1}"),
        ([*records, records[1]], f"body.{len(records) + 1}"),
        ([*records[:-1], {"end": True, "rows": 1}], f"body.{len(records)}.rows"),
    ]:
        response = client.post("/v1/worlds/import", content=_jsonl(body), headers=headers)
        assert response.status_code == 422, (blamed, response.text)
        assert response.json()["error"]["details"][0]["field"] == blamed, response.text
    with sessions() as session:
        assert session.scalar(sa.text("SELECT count(*) FROM worlds")) == worlds_before
    assert client.get("/v1/worlds", headers=admin_headers).status_code == 200
    good = client.post("/v1/worlds/import", content=_jsonl(records), headers=headers)
    assert good.status_code == 201, good.text


def test_an_import_past_its_line_or_record_limit_is_a_413(
    settings: Settings, sessions: sessionmaker[Session], admin_headers: dict[str, str]
) -> None:
    limited = settings.model_copy(update={"import_max_line_bytes": 4096, "import_max_records": 6})
    with TestClient(create_app(limited)) as client:
        records = _small_export(client, admin_headers)
        headers = {**admin_headers, "content-type": "application/x-ndjson"}
        long_line = _changed(records, "memories.description", "x" * 5000)
        many = [records[0], *([records[1]] * 10), records[-1]]
        for body, blamed in [(long_line, "body."), (many, "body.7")]:
            response = client.post("/v1/worlds/import", content=_jsonl(body), headers=headers)
            assert response.status_code == 413, response.text
            assert response.json()["error"]["details"][0]["field"].startswith(blamed)
