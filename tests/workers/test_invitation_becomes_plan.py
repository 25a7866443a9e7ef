"""What is said changes what is planned, through real workers: Junie invites Tomas to her
Valentine's Day party tomorrow at The Copper Kettle, 6 to 8 pm; the conversation leaves Tomas
a planning note; the next morning his outline holds the party at that place and time. Run with
the offline mind, and with the LLM mind against the fake model server (the prompts carry the
note to the model and the model's plan back)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from hearth_client.demo import load_town
from sqlalchemy.orm import Session, sessionmaker

from bench.responder import OfflineResponder
from db.models import Agent, Conversation, Memory, Plan, World
from db.queries.api_keys import generate_key, store_key
from db.queries.worlds import set_clock
from db.settings import Settings
from service.app import create_app
from tests.conftest import REPO, child_env
from tests.fakes.openai_server import FakeOpenAI
from tests.polling import wait_until
from workers.app import make_celery

START = datetime(2023, 2, 13, 9, 0)
NEXT_MORNING = datetime(2023, 2, 14, 6, 30)
PAIR = ("Junie Halvorsen", "Tomas Ferreira")
WAIT_S = 60.0
BROKER_DB = "6"  # a broker database of its own: the session's worker must not take these jobs


def pack() -> dict[str, Any]:
    """The demo town's map with just Junie (who hosts the party) and Tomas."""
    town = load_town()
    people = [dict(p) for p in town["personas"] if p["name"] in PAIR]
    for person in people:
        person["relationships"] = [r for r in person["relationships"] if r["other"] in PAIR]
    return {"map": town["map"], "personas": people}


def stack(settings: Settings, *, model: bool) -> Iterator[str]:
    """A real `hearth worker` and `hearth beat` on a broker database of their own; yields
    its Redis URL. With `model`, they think with the LLM mind on the fake server."""
    redis_url = str(settings.redis_url)[:-1] + BROKER_DB
    with FakeOpenAI(chat_responder=OfflineResponder(year=START.year)) as fake:
        env = child_env(settings) | {"HEARTH_REDIS_URL": redis_url}
        if model:
            env |= {
                "HEARTH_LLM_BASE_URL": fake.base_url,
                "HEARTH_LLM_MODEL": "fake-model",
                "HEARTH_LLM_API_KEY": "test",
                "HEARTH_LLM_FALLBACK": "false",
            }
        hearth = [sys.executable, "-m", "service"]
        worker = subprocess.Popen(
            [*hearth, "worker", "--queues", "fast,slow", "--concurrency", "2"], env=env, cwd=REPO
        )
        beat = subprocess.Popen([*hearth, "beat", "--interval", "0.5"], env=env, cwd=REPO)
        try:
            app = make_celery(redis_url=redis_url)
            wait_until(lambda: bool(app.control.ping(timeout=0.5)), "a worker", timeout_s=WAIT_S)
            yield redis_url
            if model:
                assert fake.calls() > 0  # the thinking went through the model's path
        finally:
            for proc in (beat, worker):
                proc.terminate()
            for proc in (beat, worker):
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()


@pytest.fixture(params=[False, True], ids=["offline-mind", "llm-mind"])
def broker(request: pytest.FixtureRequest, settings: Settings) -> Iterator[str]:
    yield from stack(settings, model=request.param)


@pytest.mark.worker
def test_an_invitation_becomes_the_guests_plan_for_the_day(
    broker: str, settings: Settings, sessions: sessionmaker[Session]
) -> None:
    app = create_app(settings.model_copy(update={"redis_url": broker}))
    key = generate_key("admin")
    with sessions.begin() as session:
        store_key(session, key)
    admin = {"Authorization": f"Bearer {key}"}
    with TestClient(app) as client:
        made = client.post(
            "/v1/worlds",
            json={"name": "Larkspur", "clock": {"mode": "driven", "start": START.isoformat()}},
            headers=admin,
        ).json()
        world_id, headers = made["id"], {"Authorization": f"Bearer {made['api_key']}"}
        client.post(f"/v1/worlds/{world_id}/personas/import", json=pack(), headers=headers)
        ids = {
            a["name"]: a["id"]
            for a in client.get(f"/v1/worlds/{world_id}/agents", headers=headers).json()["items"]
        }
        wait_until(
            lambda: all(outlined(sessions, i, START) for i in ids.values()),
            "both outlines",
            timeout_s=WAIT_S,
        )

        # Junie sees Tomas at the counter of her cafe: she invites him, they talk
        junie, tomas = ids[PAIR[0]], ids[PAIR[1]]
        seen = {"kind": "agent", "subject": PAIR[1], "state": "work at the counter"}
        step = {
            "agents": [
                {"agent_id": junie, "place": "The Copper Kettle: counter", "perceived": [seen]},
                {"agent_id": tomas, "place": "The Copper Kettle: counter"},
            ]
        }
        assert client.post(f"/v1/worlds/{world_id}/step", json=step, headers=headers).is_success
        wait_until(lambda: talked(sessions, world_id), "the conversation", timeout_s=WAIT_S)

    with sessions() as session:
        notes = session.scalars(
            sa.select(Memory.description).where(
                Memory.agent_id == tomas, Memory.kind == "plan", Memory.description.like("For %")
            )
        ).all()
    assert any("Valentine's Day party" in note and "February 14" in note for note in notes), notes

    # the next morning Tomas recalls the note and plans the party at its place and time
    with sessions.begin() as session:
        set_clock(session, session.get_one(World, world_id), to=NEXT_MORNING)
    wait_until(
        lambda: outlined(sessions, tomas, NEXT_MORNING),
        "Tomas's outline for February 14",
        timeout_s=WAIT_S,
    )
    with sessions() as session:
        parties = session.scalars(
            sa.select(Plan).where(
                Plan.agent_id == tomas,
                Plan.level == "day",
                Plan.status != "superseded",
                Plan.description.like("%Valentine's Day party%"),
            )
        ).all()
        currently = session.get_one(Agent, tomas).currently
    assert [(p.start, p.duration_min) for p in parties] == [(datetime(2023, 2, 14, 18, 0), 120)]
    assert (parties[0].location or "").startswith("The Copper Kettle")
    assert "Valentine's Day party" in currently  # his status says so, the old one kept


def outlined(sessions: sessionmaker[Session], agent_id: str, day: datetime) -> bool:
    with sessions() as session:
        planned = session.get_one(Agent, agent_id).planned_day
        return planned is not None and planned >= day.date()


def talked(sessions: sessionmaker[Session], world_id: str) -> bool:
    """Whether the conversation ended; else the clock moves a line's time once it started."""
    with sessions.begin() as session:
        status = session.scalar(sa.select(Conversation.status))
        if status == "ended":
            return True
        world = session.get_one(World, world_id)
        if status == "open" and world.game_time < START + timedelta(minutes=20):
            set_clock(session, world, to=world.game_time + timedelta(minutes=1))
    return False
