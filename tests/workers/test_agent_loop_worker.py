"""The agent loop end to end: a real `hearth worker` and a real `hearth beat` (sweeping every
0.5 s) think with the LLM mind against the fake OpenAI-compatible server, over a scripted game
morning driven through the clock. A seeded agent gets a 5–8 item outline and decompositions
only inside the window; scripted importances summing to exactly 150 do not reflect and one
more does, once, with evidence; seeing another agent makes a reaction that supersedes the rest
of the plan (every level, never deleted), writes the day again as new items that are decomposed
anew (the reaction at once), and opens a conversation stored for both."""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session, aliased, sessionmaker

from bench.responder import OfflineResponder, Prompt
from cognition.schedule import DEFAULT_LEAD
from db import jobs
from db.models import (
    Agent,
    Conversation,
    Memory,
    MemoryEvidence,
    Plan,
    ReactionDecision,
    ReflectionRun,
    Relationship,
    Utterance,
    World,
)
from db.queries.api_keys import generate_key, store_key
from db.queries.worlds import set_clock
from db.settings import Settings
from service.app import create_app
from tests.conftest import REPO, child_env
from tests.fakes.openai_server import FakeOpenAI
from tests.polling import broker_idle, wait_until
from tests.workers.support import seeded
from workers.app import make_celery

BROKER_DB = "5"  # a broker database of its own: the session's worker must not take these jobs
START_TIMEOUT_S = 60.0
WAIT_S = 20.0
DAY = datetime(2023, 2, 13)
OUTLINE = [
    ("06:30", 90, "wake up and complete the morning routine"),
    ("08:00", 240, "open Hobbs Cafe and serve breakfast"),
    ("12:00", 60, "have lunch"),
    ("13:00", 300, "work at the cafe counter"),
    ("18:00", 180, "have dinner and read"),
    ("21:00", 570, "go to bed and sleep"),
]
LINES = [
    "Hi Klaus! Are you free on Friday?",
    "I think so. Why?",
    "I'm throwing a Valentine's party at Hobbs Cafe. Come!",
    "I'd love to. See you!",
]
INVITE = "invite Klaus to the Valentine's party"


def importance(text: str) -> int:
    """Scripted: a wren is 5, a chime 1, anything else 2."""
    return 5 if "wren" in text else 1 if "chime" in text else 2


def scripted(p: Prompt) -> dict[str, Any]:
    return {"ratings": [importance(t) for t in p.numbered("memories")]}


def outline(p: Prompt) -> dict[str, Any]:
    return {
        "items": [
            {"start": s, "duration_min": d, "description": t, "location": None}
            for s, d, t in OUTLINE
        ]
    }


def react(p: Prompt) -> dict[str, Any]:
    if "Klaus" in p.block("observation"):
        return {"react": True, "what": INVITE, "talk_to": "Klaus Mueller", "reason": "the party"}
    return {"react": False, "what": "", "talk_to": None, "reason": "nothing new"}


def line(p: Prompt) -> dict[str, Any]:
    said = [row for row in p.block("dialogue").splitlines() if row.strip()]
    return {"text": LINES[len(said)], "ends": len(said) == len(LINES) - 1}


@dataclass
class Stack:
    fake: FakeOpenAI
    redis_url: str
    beat: subprocess.Popen[bytes]


@pytest.fixture(scope="module")
def stack(settings: Settings) -> Iterator[Stack]:
    responder = OfflineResponder(
        year=DAY.year,
        overrides={
            "rate_importance": scripted,
            "plan_day": outline,
            "react": react,
            "next_utterance": line,
        },
    )
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
            yield Stack(fake=fake, redis_url=redis_url, beat=beat)
        finally:
            for proc in (beat, worker):
                proc.terminate()
            for proc in (beat, worker):
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()


@pytest.mark.worker
def test_a_scripted_morning_through_a_real_worker_and_beat(
    stack: Stack, settings: Settings, sessions: sessionmaker[Session]
) -> None:
    world, isabella, klaus = seeded(sessions, name="Smallville")
    app = create_app(settings.model_copy(update={"redis_url": stack.redis_url}))
    key = generate_key("admin")
    with sessions.begin() as session:
        store_key(session, key)
    headers = {"Authorization": f"Bearer {key}"}

    # 1. the outline, then hour chunks and tasks just in time (7 am)
    seven = DAY.replace(hour=7)

    def decomposed() -> bool:
        hours, tasks = _live(sessions, isabella.id, "hour"), _live(sessions, isabella.id, "task")
        window = _near(hours, seven)
        return bool(window) and {t.parent_id for t in tasks} >= {h.id for h in window}

    _wait(decomposed, "the outline and its first decompositions")
    _sweep(stack.redis_url, times=3)  # three more sweeps: nothing beyond the window appears
    days = _live(sessions, isabella.id, "day")
    hours, tasks = _live(sessions, isabella.id, "hour"), _live(sessions, isabella.id, "task")
    assert [d.description for d in days] == [t for _, _, t in OUTLINE] and 5 <= len(days) <= 8
    assert {h.parent_id for h in hours} == {days[0].id}  # 8 am is further off than the lead
    assert {t.parent_id for t in tasks} == {h.id for h in _near(hours, seven)}
    assert all(5 <= t.duration_min <= 15 for t in tasks)

    with TestClient(app) as client:
        # 2. importances summing to exactly 150 do not reflect; one more does, once. What
        # Isabella saw of herself starting each action already counts toward the sum.
        url = f"/v1/worlds/{world.id}/agents/{isabella.id}/memories"
        # The beat is paused while the sum is counted up to 150: a self-observation it wrote
        # between reading the sum and posting would carry it past 150 before the check.
        with _paused(stack.beat):
            _sweep(stack.redis_url, times=1)
            _wait(lambda: _unscored(sessions, isabella.id) == 0, "her self-observations scored")
            needed = 150 - _accumulated(sessions, isabella.id)
            wrens = [
                {"description": f"Isabella saw a wren on the sill ({n})"}
                for n in range(needed // 5)
            ]
            wrens += [{"description": f"a clock chimed far off ({n})"} for n in range(needed % 5)]
            assert client.post(url, json={"memories": wrens}, headers=headers).status_code == 201
            _wait(lambda: _accumulated(sessions, isabella.id) == 150, "150 accumulated")
            _sweep(stack.redis_url, times=3)  # a sweep would find a crossing a job had missed
            with sessions() as session:
                assert session.scalar(sa.select(sa.func.count()).select_from(ReflectionRun)) == 0
        chime = {"memories": [{"description": "Isabella heard the door chime"}]}
        assert client.post(url, json=chime, headers=headers).status_code == 201
        _wait(lambda: _runs(sessions) == ["done"], "the reflection")

        # 3. at 7:20 Isabella sees Klaus: she reacts, re-plans, and they talk
        at = DAY.replace(hour=7, minute=20)
        before = {(p.id, p.level): p.end for p in _live(sessions, isabella.id)}
        with sessions.begin() as session:
            set_clock(session, session.get_one(World, world.id), to=at)
        seen = {
            "agents": [
                {
                    "agent_id": str(isabella.id),
                    "perceived": [
                        {
                            "kind": "agent",
                            "subject": "Klaus Mueller",
                            "state": "reading at the counter",
                        }
                    ],
                }
            ]
        }
        assert (
            client.post(f"/v1/worlds/{world.id}/step", json=seen, headers=headers).status_code
            == 200
        )
        _wait(lambda: _talked(sessions, world.id, at), "the conversation")
        _wait(lambda: _reaction_tasks(sessions) > 0, "the reaction's decomposition")

    with sessions() as session:
        [run] = session.scalars(sa.select(ReflectionRun)).all()
        reflections = session.scalars(sa.select(Memory).where(Memory.kind == "reflection")).all()
        evidence = session.scalars(sa.select(MemoryEvidence)).all()
        decision = session.scalars(  # other decisions: objects the sweep saw change
            sa.select(ReactionDecision).where(ReactionDecision.react)
        ).one()
        reaction = session.scalars(
            sa.select(Plan).where(Plan.description == INVITE, Plan.level == "day")
        ).one()
        displaced = session.scalars(sa.select(Plan).where(Plan.superseded_by == reaction.id)).all()
        conversation = session.scalars(sa.select(Conversation)).one()
        lines = session.scalars(sa.select(Utterance).order_by(Utterance.seq)).all()
        remembered = session.scalars(sa.select(Memory).where(Memory.kind == "utterance")).all()
        views = session.scalars(sa.select(Relationship)).all()
    assert run.seq == 1 and reflections and all(r.depth == 1 for r in reflections)
    assert {e.reflection_id for e in evidence} == {r.id for r in reflections}
    assert decision.react and decision.talk_to == "Klaus Mueller" and decision.context
    assert reaction.start == at and reaction.level == "day"
    # the reaction supersedes the rest of the plan: every item of every level not over at
    # 7:20, kept with superseded_by; what was over by then stays as it was
    rest = {plan_id for (plan_id, level), end in before.items() if end > at}
    assert {level for plan_id, level in before if plan_id in rest} == {"day", "hour", "task"}
    assert {p.id for p in displaced} == rest
    assert all(p.status == "superseded" for p in displaced)
    live_now = {(p.id, p.level) for p in _live(sessions, isabella.id)}
    assert {key for key in before if key[0] not in rest} <= live_now
    # the day is written again as new rows at its times, around the reaction
    days = _live(sessions, isabella.id, "day")
    assert not {d.id for d in days} & {plan_id for plan_id, _ in before}
    assert (
        [(d.start.strftime("%H:%M"), d.description) for d in days]
        == [
            ("06:30", OUTLINE[0][2]),
            ("07:20", INVITE),
            ("07:24", OUTLINE[0][2]),  # four lines of a minute: the plan re-flowed when it ended
            *[(s, t) for s, _, t in OUTLINE[1:]],
        ]
    )
    assert (conversation.topic, conversation.status) == (INVITE, "ended")
    assert [u.text for u in lines] == LINES
    for agent in (isabella, klaus):
        assert len([m for m in remembered if m.agent_id == agent.id]) == len(LINES)
    assert {(v.agent_id, v.other_name) for v in views} >= {
        (isabella.id, "Klaus Mueller"),
        (klaus.id, "Isabella Rodriguez"),
    }
    assert all(0 <= v.sentiment <= 10 for v in views)
    assert stack.fake.calls() > 0  # every thought went through the LLM path


def _live(sessions: sessionmaker[Session], agent_id: object, level: str = "") -> list[Plan]:
    """The agent's live plans of `level` (every level if none), in time order."""
    with sessions() as session:
        query = sa.select(Plan).where(Plan.agent_id == agent_id, Plan.status != "superseded")
        if level:
            query = query.where(Plan.level == level)
        return list(session.scalars(query.order_by(Plan.start, Plan.id)))


def _near(hours: list[Plan], now: datetime) -> list[Plan]:
    """The hour chunks whose tasks the window asks for at `now` (`window_to_decompose`)."""
    return [h for h in hours if h.end > now and h.start <= now + DEFAULT_LEAD][:2]


def _reaction_tasks(sessions: sessionmaker[Session]) -> int:
    """Tasks under the reaction's hour chunks (the reaction decomposed to the action)."""
    reaction, chunk, task = (aliased(Plan) for _ in range(3))
    query = (
        sa.select(sa.func.count(task.id))
        .join(chunk, task.parent_id == chunk.id)
        .join(reaction, chunk.parent_id == reaction.id)
        .where(reaction.description == INVITE, reaction.level == "day")
    )
    with sessions() as session:
        return int(session.scalar(query) or 0)


def _accumulated(sessions: sessionmaker[Session], agent_id: object) -> int:
    with sessions() as session:
        return session.get_one(Agent, agent_id).importance_since_reflection


def _talked(sessions: sessionmaker[Session], world_id: object, started: datetime) -> bool:
    """Whether the conversation ended; else, once its first line is said, the game clock
    moves a line's time (lines take game time, a minute each) so the next line comes due."""
    if _ended(sessions):
        return True
    with sessions.begin() as session:
        said = session.scalar(sa.select(sa.func.count()).select_from(Utterance)) or 0
        world = session.get_one(World, world_id)
        if said and world.game_time < started + timedelta(minutes=len(LINES)):
            set_clock(session, world, to=world.game_time + timedelta(minutes=1))
    return False


def _unscored(sessions: sessionmaker[Session], agent_id: object) -> int:
    with sessions() as session:
        query = sa.select(sa.func.count()).where(
            Memory.agent_id == agent_id, ~Memory.importance_scored
        )
        return int(session.scalar(query) or 0)


def _runs(sessions: sessionmaker[Session]) -> list[str]:
    with sessions() as session:
        return list(session.scalars(sa.select(ReflectionRun.status)))


def _ended(sessions: sessionmaker[Session]) -> bool:
    with sessions() as session:
        return session.scalar(sa.select(Conversation.status)) == "ended"


def _wait(done: Callable[[], bool], what: str) -> None:
    wait_until(done, what, timeout_s=WAIT_S)


@contextmanager
def _paused(proc: subprocess.Popen[bytes]) -> Iterator[None]:
    """The process stopped (SIGSTOP) for the block, and let go on after it."""
    proc.send_signal(signal.SIGSTOP)
    try:
        yield
    finally:
        proc.send_signal(signal.SIGCONT)


def _sweep(redis_url: str, *, times: int) -> None:
    """`times` sweeps run by the worker, one after another, then every job they sent (beat
    sweeps too, every half second: these are the ones the test can count on)."""
    broker_idle(redis_url, timeout_s=WAIT_S)
    celery = make_celery(redis_url=redis_url)
    for _ in range(times):
        celery.send_task(jobs.SWEEP_WORLDS.name).get(timeout=WAIT_S)
    broker_idle(redis_url, timeout_s=WAIT_S)


def _wait_for_worker(worker: subprocess.Popen[bytes], redis_url: str) -> None:
    app = make_celery(redis_url=redis_url)

    def answers() -> bool:
        assert worker.poll() is None, f"worker exited with {worker.returncode}"
        return bool(app.control.ping(timeout=0.5))

    wait_until(answers, "the worker's start", timeout_s=START_TIMEOUT_S)
