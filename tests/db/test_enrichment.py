"""Enrichment: one embedder call and one Mind call per batch, content-hash reuse, an accumulator
that counts each observation once however often the job runs, and the audit trail."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import TypeVar, cast

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from cognition.hashing_embedder import HashingEmbedder
from cognition.mind import AuditSink
from cognition.offline import OfflineMind
from cognition.offline.news import report
from cognition.requests import RateImportance, Request
from cognition.types import MemoryKind, NewMemory
from db.flows.enrichment import Enriched, after_enrichment, backlog, enrich
from db.models import Agent, LlmCall, Memory
from db.queries.memories import add_memories
from db.settings import Settings
from tests.factories import GAME_START, committed_agent, make_agent, make_world

T = TypeVar("T")


class CountingEmbedder(HashingEmbedder):
    """The hashing embedder, remembering every batch it was asked to embed."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls.append(list(texts))
        return super().embed(texts)


class FixedMind(OfflineMind):
    """Rates every memory `score` (audited like the offline mind) and remembers each call."""

    def __init__(
        self, score: int = 7, calls: list[list[str]] | None = None, audit: AuditSink | None = None
    ) -> None:
        super().__init__(audit)
        self.score = score
        self.calls: list[list[str]] = [] if calls is None else calls

    def with_audit(self, audit: AuditSink) -> FixedMind:
        return FixedMind(self.score, self.calls, audit)

    def think(self, request: Request[T]) -> T:
        answer = super().think(request)
        if not isinstance(request, RateImportance):
            return answer
        self.calls.append(list(request.memories))
        return cast(T, [self.score] * len(request.memories))


@pytest.fixture
def agent(sessions: sessionmaker[Session]) -> Agent:
    return committed_agent(sessions)


def write(sessions: sessionmaker[Session], agent: Agent, *items: str | NewMemory) -> list[int]:
    memories = [NewMemory(description=i) if isinstance(i, str) else i for i in items]
    with sessions.begin() as session:
        rows = add_memories(
            session, world_id=agent.world_id, agent_id=agent.id, items=memories, now=GAME_START
        )
        return [row.id for row in rows]


def run(
    sessions: sessionmaker[Session], ids: list[int], embedder: CountingEmbedder, mind: FixedMind
) -> Enriched:
    return enrich(sessions, ids, embedder=embedder, mind=mind)


def accumulator(sessions: sessionmaker[Session], agent: Agent) -> int:
    with sessions() as session:
        row = session.get(Agent, agent.id)
        assert row is not None
        return row.importance_since_reflection


def rows(sessions: sessionmaker[Session], ids: list[int]) -> list[Memory]:
    with sessions() as session:
        return list(
            session.scalars(sa.select(Memory).where(Memory.id.in_(ids)).order_by(Memory.id))
        )


def test_a_batch_is_one_embed_call_and_one_rate_call(
    sessions: sessionmaker[Session], agent: Agent
) -> None:
    ids = write(sessions, agent, "Klaus reads", "Maria paints", "Klaus reads", "Sam votes")
    embedder, mind = CountingEmbedder(), FixedMind(score=8)
    done = run(sessions, ids, embedder, mind)
    assert embedder.calls == [["Klaus reads", "Maria paints", "Sam votes"]]
    assert mind.calls == [["Klaus reads", "Maria paints", "Sam votes"]]
    assert (done.embedded, done.scored) == (4, 4)
    stored = rows(sessions, ids)
    assert all(m.embedding is not None and m.importance_scored for m in stored)
    assert [m.importance for m in stored] == [8, 8, 8, 8]
    assert list(stored[0].embedding) == list(stored[2].embedding)  # type: ignore[arg-type]


def test_identical_texts_are_embedded_once_across_batches(
    sessions: sessionmaker[Session], agent: Agent
) -> None:
    embedder, mind = CountingEmbedder(), FixedMind()
    first = write(sessions, agent, "Isabella is idle", "Klaus reads")
    run(sessions, first, embedder, mind)
    second = write(sessions, agent, "Isabella is idle", "The stove is burning")
    done = run(sessions, second, embedder, mind)
    assert embedder.calls[1:] == [["The stove is burning"]]  # the repeat reused its vector
    assert done.embedded == 2
    old, new = rows(sessions, [first[0], second[0]])
    assert list(new.embedding) == list(old.embedding)  # type: ignore[arg-type]


def test_a_redelivered_job_counts_each_observation_once(
    sessions: sessionmaker[Session], agent: Agent
) -> None:
    ids = write(sessions, agent, "one", "two", "three")
    embedder, mind = CountingEmbedder(), FixedMind(score=6)
    first = run(sessions, ids, embedder, mind)
    second = run(sessions, ids, embedder, mind)
    assert accumulator(sessions, agent) == 18
    assert [(a.before, a.after) for a in first.accumulated] == [(0, 18)]
    assert second == Enriched()
    assert len(embedder.calls) == len(mind.calls) == 1


def test_what_was_perceived_feeds_the_accumulator_and_own_thoughts_do_not(
    sessions: sessionmaker[Session], agent: Agent
) -> None:
    perceived = [
        NewMemory(description="m heard", kind=MemoryKind.UTTERANCE, subject="Someone Else"),
        NewMemory(description="m directive", kind=MemoryKind.DIRECTIVE),
        NewMemory(description="m observation", kind=MemoryKind.OBSERVATION),
    ]
    own = [
        NewMemory(description="m said", kind=MemoryKind.UTTERANCE, subject=agent.name),
        NewMemory(description="m seed", kind=MemoryKind.SEED),
    ]
    ids = write(sessions, agent, *perceived, *own)
    done = run(sessions, ids, CountingEmbedder(), FixedMind(score=5))
    assert done.scored == 5
    assert accumulator(sessions, agent) == 5 * len(perceived)


def test_a_seed_weighs_at_least_the_news_it_tells_however_plainly_it_is_told(
    sessions: sessionmaker[Session], agent: Agent
) -> None:
    story = (
        "Last evening the ferryman was walking the cliff path when his dog began to bark. "
        "The ferryman pushed the gorse apart and found an old brass ship's bell. "
        "The bell is on his kitchen table now."
    )
    ids = write(
        sessions,
        agent,
        NewMemory(description=story, kind=MemoryKind.SEED),
        NewMemory(description=story, kind=MemoryKind.OBSERVATION),
    )
    run(sessions, ids, CountingEmbedder(), FixedMind(score=2))
    seed, seen = rows(sessions, ids)
    assert seed.importance is not None and seed.importance >= report.MIN_WEIGHT
    assert seen.importance == 2  # the same words, not told as news, weigh what they are rated


def test_already_scored_memories_are_not_rated_again(
    sessions: sessionmaker[Session], agent: Agent
) -> None:
    ids = write(sessions, agent, NewMemory(description="a told fact", importance=9), "new")
    mind = FixedMind(score=2)
    run(sessions, ids, CountingEmbedder(), mind)
    assert mind.calls == [["new"]]
    assert [m.importance for m in rows(sessions, ids)] == [9, 2]
    assert accumulator(sessions, agent) == 2


def test_every_mind_call_is_audited_to_its_world_and_agent(
    sessions: sessionmaker[Session], agent: Agent
) -> None:
    run(sessions, write(sessions, agent, "a", "b"), CountingEmbedder(), FixedMind())
    with sessions() as session:
        [call] = session.scalars(sa.select(LlmCall)).all()
    assert call.operation == "rate_importance"
    assert (call.world_id, call.agent_id, call.game_time) == (agent.world_id, agent.id, GAME_START)


def test_a_threshold_crossing_is_reported_once(
    sessions: sessionmaker[Session], agent: Agent, settings: Settings
) -> None:
    with sessions.begin() as session:
        world = make_world(session, name="Eager", settings={"reflection_threshold": 10})
        eager = make_agent(session, world)
    mind, embedder = FixedMind(score=6), CountingEmbedder()
    reports = []
    for text in ("one", "two", "three"):  # 6, 12, 18: crosses 10 on the second
        done = run(sessions, write(sessions, eager, text), embedder, mind)
        with sessions() as session:
            reports.append(after_enrichment(session, done.accumulated, settings=settings))
    assert reports == [[], [eager.id], []]
    done = run(sessions, write(sessions, agent, "four"), embedder, mind)
    with sessions() as session:  # the global threshold (150) is far away
        assert after_enrichment(session, done.accumulated, settings=settings) == []


def test_backlog_finds_old_unenriched_memories_only(
    sessions: sessionmaker[Session], agent: Agent
) -> None:
    old, _young, done = write(sessions, agent, "old", "young", "done")
    run(sessions, [done], CountingEmbedder(), FixedMind())
    with sessions.begin() as session:
        session.execute(
            sa.update(Memory)
            .where(Memory.id.in_([old, done]))
            .values(inserted_at=sa.func.now() - timedelta(minutes=5))
        )
        assert backlog(session) == [old]
    assert run(sessions, [10**12], CountingEmbedder(), FixedMind()) == Enriched()  # unknown id
