"""Killing the worker mid-reflection and starting another yields one reflection, not two or
zero: the killed transaction rolls back its claim, the broker redelivers the unacknowledged
job after HEARTH_VISIBILITY_TIMEOUT_S, and the new worker reflects once; the killed run's call
to the model stays in `llm_calls`, unfinished. A reflection that outlives the visibility
timeout is delivered again while it runs, and that copy waits on the claim and changes
nothing: the timeout can be short (60 s by default) without running any job twice."""

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
from db.models import Agent, LlmCall, Memory, MemoryEvidence, ReflectionRun
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

    def responder(self) -> OfflineResponder:
        overrides = {"reflection_questions": self.questions, "insights": self.insights}
        return OfflineResponder(year=2023, overrides=overrides)


def start_worker(env: dict[str, str], *, concurrency: int = 1) -> subprocess.Popen[bytes]:
    options = ("--queues", "fast,slow", "--concurrency", str(concurrency))
    return subprocess.Popen(
        [sys.executable, "-m", "service", "worker", *options],
        env=env,
        cwd=REPO,
        start_new_session=True,  # its own process group, to kill it whole
    )


def _ready_to_reflect(sessions: sessionmaker[Session]) -> Agent:
    """An agent past the threshold, with five memories to reflect on."""
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
    return agent


def _env(settings: Settings, redis_url: str, fake: FakeOpenAI) -> dict[str, str]:
    """A worker on its own broker database, redelivering after 2 s, thinking with `fake`."""
    return child_env(settings) | {
        "HEARTH_REDIS_URL": redis_url,
        "HEARTH_VISIBILITY_TIMEOUT_S": "2",
        "HEARTH_LLM_BASE_URL": fake.base_url,
        "HEARTH_LLM_MODEL": "fake-model",
        "HEARTH_LLM_API_KEY": "test",
        "HEARTH_LLM_FALLBACK": "false",
        "HEARTH_LLM_TIMEOUT_S": "60",
    }


@pytest.mark.worker
def test_a_worker_killed_mid_reflection_leaves_exactly_one_reflection(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    agent = _ready_to_reflect(sessions)
    slow = SlowInsights()
    redis_url = str(settings.redis_url)[:-1] + BROKER_DB
    with FakeOpenAI(chat_responder=slow.responder()) as fake:
        env = _env(settings, redis_url, fake)
        slow.hold.set()
        first = start_worker(env)
        second: subprocess.Popen[bytes] | None = None
        try:
            make_celery(redis_url=redis_url).send_task("hearth.reflect", args=[str(agent.id), 1])
            assert slow.asked.wait(timeout=60), "the reflection never reached its insights"
            assert _count(sessions, ReflectionRun) == 0  # claimed, but not committed
            os.killpg(first.pid, signal.SIGKILL)
            first.wait(timeout=10)
            assert _unfinished_calls(sessions) == ["insights"]  # written before it was made
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


@pytest.mark.worker
def test_a_reflection_outliving_the_visibility_timeout_runs_once(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    agent = _ready_to_reflect(sessions)
    slow = SlowInsights()
    redis_url = str(settings.redis_url)[:-1] + BROKER_DB
    with FakeOpenAI(chat_responder=slow.responder()) as fake:
        slow.hold.set()
        worker = start_worker(_env(settings, redis_url, fake), concurrency=2)
        try:
            make_celery(redis_url=redis_url).send_task("hearth.reflect", args=[str(agent.id), 1])
            assert slow.asked.wait(timeout=60), "the reflection never reached its insights"
            wait_until(  # the broker gave the running job to the other pool process
                lambda: _waiting_on_locks(sessions) > 0,
                "a second delivery waiting on the reflection's claim",
                timeout_s=WAIT_S,
            )
            slow.release.set()
            wait_until(
                lambda: _count(sessions, ReflectionRun, ReflectionRun.status == "done") == 1,
                "the reflection",
                timeout_s=WAIT_S,
            )
            broker_idle(redis_url, timeout_s=WAIT_S)
        finally:
            os.killpg(worker.pid, signal.SIGTERM)
            worker.wait(timeout=20)
        asked = [body["response_format"]["json_schema"]["name"] for body in fake.requests()]
    assert asked.count("insights") == len(QUESTIONS)  # the second delivery asked nothing
    assert asked.count("reflection_questions") == 1
    with sessions() as session:
        assert [(r.seq, r.status) for r in session.scalars(sa.select(ReflectionRun))] == [
            (1, "done")
        ]
        kept = session.scalars(sa.select(Memory).where(Memory.kind == "reflection")).all()
    assert len(kept) == len(QUESTIONS)


def _waiting_on_locks(sessions: sessionmaker[Session]) -> int:
    with sessions() as session:
        return int(
            session.scalar(
                sa.text(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                    "AND datname = current_database()"
                )
            )
            or 0
        )


def _unfinished_calls(sessions: sessionmaker[Session]) -> list[str]:
    with sessions() as session:
        query = sa.select(LlmCall.operation).where(LlmCall.finished_at.is_(None))
        return list(session.scalars(query))


def _count(sessions: sessionmaker[Session], model: type[Any], *where: Any) -> int:
    with sessions() as session:
        return int(session.scalar(sa.select(sa.func.count()).select_from(model).where(*where)) or 0)
