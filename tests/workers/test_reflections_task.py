"""`hearth.reflect` in process: once per crossing, strictly past the threshold, under 50
concurrent writers, and a duplicate delivery that waits on the claim and then does nothing."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterator, Sequence

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from cognition.testing import ScriptedMind
from cognition.types import Insight
from db.models import Agent, Event, MemoryEvidence, ReflectionRun
from db.session import make_engine, make_session_factory
from db.settings import Settings
from tests.factories import GAME_START, committed_agent
from tests.workers.support import count, drain, installed, observe, reflections_of
from workers.tasks.enrichment import enrich_memories
from workers.tasks.reflections import reflect
from workers.tasks.sweep import sweep_worlds

QUESTIONS = ["What does Isabella care about?", "Who is Isabella close to?", "What is next?"]


def reflecting_mind(
    score: int = 5, *, gate: threading.Event | None = None, numbered: bool = False
) -> ScriptedMind:
    """Rates every memory `score` (a chime 1); three questions; one insight per question citing
    statements 1 and 2 (and a 99 that is not there). With `gate`, insights wait for it. With
    `numbered`, every insight is new (a run does not write again an insight the agent holds)."""
    calls = itertools.count(1)

    def insights(question: str, statements: Sequence[str], n: int, **_: object) -> list[Insight]:
        if gate is not None:
            gate.wait(timeout=30)
        text = f"Insight about: {question}" + (f" (#{next(calls)})" if numbered else "")
        return [Insight(text=text, cited_indices=(1, 2, 99))]

    return ScriptedMind(
        {
            "rate_importance": lambda memories, **_: [
                1 if "chime" in m else score for m in memories
            ],
            "reflection_questions": lambda records, n, **_: QUESTIONS[:n],
            "insights": insights,
        }
    )


@pytest.fixture
def agent(sessions: sessionmaker[Session]) -> Agent:
    return committed_agent(sessions)


def test_exactly_150_does_not_reflect_and_151_reflects_once_with_evidence(
    settings: Settings, sessions: sessionmaker[Session], agent: Agent
) -> None:
    agent_id = str(agent.id)
    with installed(settings, sessions, reflecting_mind(score=5)) as queue:
        birds = [f"Isabella saw bird {i}" for i in range(30)]  # 30 × 5 = 150
        enrich_memories(observe(sessions, agent.id, birds, GAME_START))
        assert queue.sent("hearth.reflect") == []
        assert reflect(agent_id, 1) == {"reflections": 0}  # 150 is not past 150
        sweep_worlds()
        assert queue.sent("hearth.reflect") == []
        with sessions() as session:
            assert session.get_one(Agent, agent.id).importance_since_reflection == 150
            assert count(session, ReflectionRun) == 0

        enrich_memories(observe(sessions, agent.id, ["Isabella heard a chime"], GAME_START))
        assert queue.sent("hearth.reflect") == [(agent_id, 1)]  # 151: the crossing
        drain(queue)
        assert reflect(agent_id, 1) == {"reflections": 0}  # a redelivery: done already

    with sessions() as session:
        [run] = session.scalars(sa.select(ReflectionRun)).all()
        written = reflections_of(session, agent.id)
        cited = session.scalars(sa.select(MemoryEvidence.reflection_id)).all()
        after = session.get_one(Agent, agent.id)
        events = session.scalars(sa.select(Event.type)).all()
    assert (run.seq, run.status) == (1, "done")
    assert [m.description for m in written] == [f"Insight about: {q}" for q in QUESTIONS]
    assert all(m.depth == 1 for m in written)
    assert sorted(set(cited)) == [m.id for m in written]  # each cites two statements (not 99)
    assert len(cited) == 2 * len(written)
    assert (after.importance_since_reflection, after.reflections_done) == (0, 1)
    assert events.count("reflection") == len(written)  # one event per reflection


def test_fifty_concurrent_writers_get_one_reflection_per_crossing(
    settings: Settings, database_url: str, sessions: sessionmaker[Session], agent: Agent
) -> None:
    engine = make_engine(database_url, pool_size=30)
    many = make_session_factory(engine)
    writers, per_writer, score = 50, 2, 5  # 500 in all: at most three crossings of 150
    start = threading.Barrier(writers)
    errors: list[BaseException] = []

    def write_and_react(n: int) -> None:
        try:
            start.wait()
            texts = [f"writer {n} saw thing {k}" for k in range(per_writer)]
            enrich_memories(observe(many, agent.id, texts, GAME_START))
            drain(queue)  # reflections run at once, concurrently with the other writers
        except BaseException as exc:  # reported below
            errors.append(exc)

    try:
        with installed(settings, many, reflecting_mind(score=score, numbered=True)) as queue:
            threads = [threading.Thread(target=write_and_react, args=(n,)) for n in range(writers)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            sweep_worlds()  # a crossing left over while a run thought is found here
            drain(queue)
        assert errors == []
        with many() as session:
            runs = session.scalars(sa.select(ReflectionRun).order_by(ReflectionRun.seq)).all()
            written = reflections_of(session, agent.id)
            after = session.get_one(Agent, agent.id)
    finally:
        engine.dispose()
    total = writers * per_writer * score
    assert [r.seq for r in runs] == list(range(1, len(runs) + 1))
    assert all(r.status == "done" for r in runs)
    assert 1 <= len(runs) <= total // 151
    assert len(written) == len(QUESTIONS) * len(runs)  # each run reflected exactly once
    assert after.reflections_done == len(runs)
    assert after.importance_since_reflection <= 150  # nothing left past the threshold
    assert after.importance_since_reflection >= 0


@pytest.fixture
def holding() -> Iterator[threading.Event]:
    gate = threading.Event()
    yield gate
    gate.set()


def test_a_concurrent_duplicate_waits_on_the_claim_then_does_nothing(
    settings: Settings, sessions: sessionmaker[Session], agent: Agent, holding: threading.Event
) -> None:
    mind = reflecting_mind(score=10, gate=holding)
    with installed(settings, sessions, mind):
        enrich_memories(observe(sessions, agent.id, [f"alarm {i}" for i in range(16)], GAME_START))
        results: list[dict[str, object]] = []
        first = threading.Thread(target=lambda: results.append(reflect(str(agent.id), 1)))
        first.start()
        while mind.count("insights") == 0:  # the first run holds its claim, mid-reflection
            threading.Event().wait(0.01)
        second = threading.Thread(target=lambda: results.append(reflect(str(agent.id), 1)))
        second.start()
        second.join(timeout=0.5)
        assert second.is_alive()  # waiting on the first run's claim, not reflecting
        holding.set()
        first.join()
        second.join()
    assert sorted(r["reflections"] for r in results) == [0, 3]  # type: ignore[type-var]
    assert mind.count("reflection_questions") == 1
    with sessions() as session:
        assert count(session, ReflectionRun) == 1
