"""Killing the worker mid-reflection and starting another yields one reflection, not two or
zero: the killed transaction rolls back its claim, the broker redelivers the unacknowledged
job after HEARTH_VISIBILITY_TIMEOUT_S, and the new worker reflects once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from bench.responder import OfflineResponder, Prompt
from cognition.types import NewMemory
from db.models import Agent, Memory, MemoryEvidence, ReflectionRun
from db.queries.memories import add_memories
from db.settings import Settings
from tests.conftest import REPO, child_env
from tests.factories import GAME_START, make_agent, make_world
from tests.fakes.openai_server import FakeOpenAI
from tests.polling import broker_idle, wait_until
from workers.app import make_celery

BROKER_DB = "6"
QUESTIONS = ["What does Isabella love?", "Whom does Isabella trust?", "What worries her?"]
WAIT_S = 30.0


class SlowInsights:
    """Insights wait for `release` while `hold` is set: a reflection stuck mid-run."""

    def __init__(self) -> None:
        self.hold = threading.Event()
        self.release = threading.Event()
        self.asked = threading.Event()

    def questions(self, p: Prompt) -> dict[str, Any]:
        return {"questions": QUESTIONS}

    def insights(self, p: Prompt) -> dict[str, Any]:
        self.asked.set()
        if self.hold.is_set():
            self.release.wait(timeout=60)
        question = p.block("question")
        return {"insights": [{"text": f"Insight on: {question}", "because": [1, 2]}]}


def start_worker(env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "service", "worker", "--queues", "fast,slow", "--concurrency", "1"],
        env=env,
        cwd=REPO,
        start_new_session=True,  # its own process group, to kill it whole
    )


@pytest.mark.worker
def test_a_worker_killed_mid_reflection_leaves_exactly_one_reflection(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    with sessions.begin() as session:
        agent = make_agent(session, make_world(session), importance_since_reflection=151)
        add_memories(
            session,
            world_id=agent.world_id,
            agent_id=agent.id,
            now=GAME_START,
            items=[
                NewMemory(description=f"Isabella baked pie {n}", importance=3) for n in range(5)
            ],
        )
    slow = SlowInsights()
    responder = OfflineResponder(
        year=2023, overrides={"reflection_questions": slow.questions, "insights": slow.insights}
    )
    redis_url = str(settings.redis_url)[:-1] + BROKER_DB
    with FakeOpenAI(chat_responder=responder) as fake:
        env = child_env(settings) | {
            "HEARTH_REDIS_URL": redis_url,
            "HEARTH_VISIBILITY_TIMEOUT_S": "2",
            "HEARTH_LLM_BASE_URL": fake.base_url,
            "HEARTH_LLM_MODEL": "fake-model",
            "HEARTH_LLM_API_KEY": "test",
            "HEARTH_LLM_FALLBACK": "false",
            "HEARTH_LLM_TIMEOUT_S": "60",
        }
        slow.hold.set()
        first = start_worker(env)
        second: subprocess.Popen[bytes] | None = None
        try:
            make_celery(redis_url=redis_url).send_task("hearth.reflect", args=[str(agent.id), 1])
            assert slow.asked.wait(timeout=60), "the reflection never reached its insights"
            assert _count(sessions, ReflectionRun) == 0  # claimed, but not committed
            os.killpg(first.pid, signal.SIGKILL)
            first.wait(timeout=10)
            slow.hold.clear()
            slow.release.set()
            second = start_worker(env)
            wait_until(
                lambda: _count(sessions, ReflectionRun, ReflectionRun.status == "done") == 1,
                "the reflection redone",
                timeout_s=WAIT_S,
            )
            broker_idle(redis_url, timeout_s=WAIT_S)  # nothing left to deliver again
        finally:
            for proc in (first, second):
                if proc is not None and proc.poll() is None:
                    os.killpg(proc.pid, signal.SIGTERM)
                    proc.wait(timeout=20)
        insights_asked = sum(
            1
            for body in fake.requests()
            if body["response_format"]["json_schema"]["name"] == "insights"
        )
    with sessions() as session:
        runs = session.scalars(sa.select(ReflectionRun)).all()
        reflections = session.scalars(sa.select(Memory).where(Memory.kind == "reflection")).all()
        cited = session.scalars(sa.select(MemoryEvidence)).all()
        after = session.get_one(Agent, agent.id)
    assert [(r.seq, r.status) for r in runs] == [(1, "done")]
    assert sorted(r.description for r in reflections) == sorted(
        f"Insight on: {q}" for q in QUESTIONS
    )
    assert len(cited) == 2 * len(QUESTIONS)
    assert (after.importance_since_reflection, after.reflections_done) == (0, 1)
    assert insights_asked == 1 + len(QUESTIONS)  # the killed run's one, then a whole run


def _count(sessions: sessionmaker[Session], model: type[Any], *where: Any) -> int:
    with sessions() as session:
        return int(session.scalar(sa.select(sa.func.count()).select_from(model).where(*where)) or 0)
