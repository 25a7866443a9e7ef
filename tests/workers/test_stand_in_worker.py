"""Issue 24 through a real `hearth worker` and `hearth beat`: the fake model holds its answer
to `plan_day` back, as a model on a CPU takes minutes, and meanwhile the game's step already
shows each agent acting on the offline mind's stand-in outline. Once the model answers, its
outline is the live plan (the game clock stood still, so nothing of the stand-in was lived and
all of it is superseded, kept), one row per item, none doubled. The agent's action then lies
under the model's outline, though the offline mind may already stand in for its steps."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session, sessionmaker

from bench.responder import OfflineResponder, Prompt
from db.models import Agent, Plan
from db.queries.api_keys import generate_key, store_key
from db.settings import Settings
from service.app import create_app
from tests.conftest import REPO, child_env
from tests.fakes.openai_server import FakeOpenAI
from tests.polling import wait_until
from tests.workers.support import seeded
from workers.app import make_celery

BROKER_DB = "8"  # a broker database of its own: the session's worker must not take these jobs
START_TIMEOUT_S = 60.0
WAIT_S = 30.0
THINKING_S = 120.0
"""The longest the fake model holds `plan_day` back (the test releases it sooner)."""
DAY = datetime(2023, 2, 13)
OUTLINE = [
    ("06:30", 90, "wake up and complete the morning routine"),
    ("08:00", 240, "open Hobbs Cafe and serve breakfast"),
    ("12:00", 60, "have lunch"),
    ("13:00", 300, "work at the cafe counter"),
    ("18:00", 180, "have dinner and read"),
    ("21:00", 570, "go to bed and sleep"),
]


@dataclass
class SlowPlanner:
    """`plan_day` answered only once the test releases it; `asked` counts the requests."""

    released: threading.Event
    asked: threading.Semaphore

    def __call__(self, p: Prompt) -> dict[str, Any]:
        self.asked.release()
        self.released.wait(THINKING_S)
        items = [{"start": s, "duration_min": d, "description": t} for s, d, t in OUTLINE]
        return {"items": [item | {"location": None} for item in items]}


@dataclass
class Stack:
    fake: FakeOpenAI
    planner: SlowPlanner
    redis_url: str


@pytest.fixture(scope="module")
def stack(settings: Settings) -> Iterator[Stack]:
    planner = SlowPlanner(threading.Event(), threading.Semaphore(0))
    responder = OfflineResponder(year=DAY.year, overrides={"plan_day": planner})
    redis_url = str(settings.redis_url)[:-1] + BROKER_DB
    with FakeOpenAI(chat_responder=responder) as fake:
        env = child_env(settings) | {
            "HEARTH_REDIS_URL": redis_url,
            "HEARTH_LLM_BASE_URL": fake.base_url,
            "HEARTH_LLM_MODEL": "fake-model",
            "HEARTH_LLM_API_KEY": "test",
            "HEARTH_LLM_FALLBACK": "false",
        }
        hearth = [sys.executable, "-m", "service"]
        worker = subprocess.Popen(
            [*hearth, "worker", "--queues", "fast,slow", "--concurrency", "4"], env=env, cwd=REPO
        )
        beat = subprocess.Popen([*hearth, "beat", "--interval", "0.5"], env=env, cwd=REPO)
        try:
            _wait_for_worker(worker, redis_url)
            yield Stack(fake=fake, planner=planner, redis_url=redis_url)
        finally:
            planner.released.set()
            for proc in (beat, worker):
                proc.terminate()
            for proc in (beat, worker):
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()


@pytest.mark.worker
def test_the_step_shows_the_stand_in_while_the_model_plans_then_the_model_s_plan(
    stack: Stack, settings: Settings, sessions: sessionmaker[Session]
) -> None:
    world, isabella, klaus = seeded(sessions)  # 7 am, summarised: the day is due
    app = create_app(settings.model_copy(update={"redis_url": stack.redis_url}))
    key = generate_key("admin")
    with sessions.begin() as session:
        store_key(session, key)
    headers = {"Authorization": f"Bearer {key}"}
    step = {"agents": [{"agent_id": str(isabella.id)}, {"agent_id": str(klaus.id)}]}
    plans = f"/v1/worlds/{world.id}/agents/{isabella.id}/plans"

    assert stack.planner.asked.acquire(timeout=WAIT_S), "the model was never asked to plan"
    with TestClient(app) as client:
        # the model is still thinking: the step already has an action for each agent
        acting = client.post(f"/v1/worlds/{world.id}/step", json=step, headers=headers)
        assert acting.status_code == 200, acting.text
        actions = [a["action"] for a in acting.json()["agents"]]
        assert all(action is not None for action in actions), actions
        standing = client.get(plans, headers=headers).json()
        assert standing["current_action"]["stand_in"] is True
        assert all(item["stand_in"] for item in standing["items"])
        with sessions() as session:
            assert session.get_one(Agent, isabella.id).planned_day is None  # not claimed

        stack.planner.released.set()  # the model answers
        wait_until(lambda: _planned(sessions, isabella.id), "the model's outline", timeout_s=WAIT_S)
        wait_until(lambda: _planned(sessions, klaus.id), "the model's outline", timeout_s=WAIT_S)
        after = client.post(f"/v1/worlds/{world.id}/step", json=step, headers=headers).json()
        planned = client.get(plans, headers=headers).json()

    days = _live_days(sessions, isabella.id)
    assert [(d.start.strftime("%H:%M"), d.description) for d in days] == [
        (s, t) for s, _, t in OUTLINE
    ]
    assert not any(d.stand_in for d in days)
    for before, later in pairwise(days):
        assert before.end <= later.start  # nothing doubled
    now = after["agents"][0]["action"]
    assert now is not None and now["description"] == OUTLINE[0][2]
    # what the agent does now lies under the model's first item: that item itself, or the
    # offline mind's steps standing in under it while the model decomposes it
    first = next(i for i in planned["items"] if i["id"] == days[0].id)
    assert planned["current_action"]["id"] in _subtree(first)
    replaced = [i for i in planned["items"] if i["stand_in"]]
    assert replaced and all(i["status"] == "superseded" for i in replaced)  # kept, superseded
    assert {i["superseded_by"] for i in replaced} == {days[0].id}


def _subtree(node: dict[str, Any]) -> set[int]:
    """The ids of a plan route's node and of everything under it."""
    return {node["id"]}.union(*(_subtree(child) for child in node["children"]))


def _planned(sessions: sessionmaker[Session], agent_id: object) -> bool:
    with sessions() as session:
        return session.get_one(Agent, agent_id).planned_day == DAY.date()


def _live_days(sessions: sessionmaker[Session], agent_id: object) -> list[Plan]:
    with sessions() as session:
        query = sa.select(Plan).where(
            Plan.agent_id == agent_id, Plan.status != "superseded", Plan.level == "day"
        )
        return list(session.scalars(query.order_by(Plan.start, Plan.id)))


def _wait_for_worker(worker: subprocess.Popen[bytes], redis_url: str) -> None:
    app = make_celery(redis_url=redis_url)

    def answers() -> bool:
        assert worker.poll() is None, f"worker exited with {worker.returncode}"
        return bool(app.control.ping(timeout=0.5))

    wait_until(answers, "the worker's start", timeout_s=START_TIMEOUT_S)
