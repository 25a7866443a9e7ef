"""The test support shipped in cognition.testing: the store ranks exactly as `rank` does."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cognition.hashing_embedder import HashingEmbedder
from cognition.offline import OfflineMind
from cognition.requests import Emoji, Insights
from cognition.retrieval import rank
from cognition.testing import FixedClock, InMemoryStore, ScriptedMind
from cognition.types import (
    Insight,
    Memory,
    MemoryKind,
    MemorySource,
    NewMemory,
    RetrievalWeights,
)

from ..offline.personas import NOW

WORDS = ["stove", "coffee", "party", "Maria", "paper", "library", "cafe", "river", "painting"]
KINDS = [MemoryKind.OBSERVATION, MemoryKind.REFLECTION, MemoryKind.UTTERANCE]

memory_rows = st.lists(
    st.tuples(
        st.lists(st.sampled_from(WORDS), min_size=1, max_size=4),
        st.integers(min_value=1, max_value=10),
        st.integers(min_value=0, max_value=72),
        st.sampled_from(KINDS),
    ),
    min_size=1,
    max_size=25,
)


def _memories(rows: list[tuple[list[str], int, int, MemoryKind]]) -> list[Memory]:
    embedder = HashingEmbedder()
    memories = []
    for i, (words, importance, hours_ago, kind) in enumerate(rows, start=1):
        text = " ".join(words)
        when = NOW - timedelta(hours=hours_ago)
        memories.append(
            Memory(
                id=i,
                kind=kind,
                description=text,
                created_at=when,
                last_accessed_at=when,
                importance=importance,
                embedding=embedder.embed([text])[0],
            )
        )
    return memories


@settings(max_examples=60, deadline=None)
@given(
    rows=memory_rows,
    query=st.lists(st.sampled_from(WORDS), min_size=1, max_size=3),
    k=st.integers(min_value=0, max_value=30),
    only_observations=st.booleans(),
)
def test_in_memory_store_ranks_exactly_like_rank(
    rows: list[tuple[list[str], int, int, MemoryKind]],
    query: list[str],
    k: int,
    only_observations: bool,
) -> None:
    memories = _memories(rows)
    embedder = HashingEmbedder()
    store = InMemoryStore(embedder, memories)
    kinds = {MemoryKind.OBSERVATION} if only_observations else None
    weights = RetrievalWeights(recency=0.5, importance=2.0, relevance=1.5)
    text = " ".join(query)

    got = store.retrieve(text, k=k, now=NOW, kinds=kinds, weights=weights, touch=False)

    candidates = [m for m in memories if kinds is None or m.kind in kinds]
    expected = rank(
        candidates, query_embedding=embedder.embed([text])[0], now=NOW, weights=weights, k=k
    )
    assert got == expected


def test_retrieve_touches_only_what_it_returns() -> None:
    memories = _memories([(["stove"], 5, 10, MemoryKind.OBSERVATION)] * 4)
    store = InMemoryStore(HashingEmbedder(), memories)
    returned = {s.memory.id for s in store.retrieve("stove", k=2, now=NOW)}
    touched = {m.id for m in store.memories if m.last_accessed_at == NOW}
    assert touched == returned and len(returned) == 2
    store.retrieve("stove", k=4, now=NOW + timedelta(hours=1), touch=False)
    assert {m.id for m in store.memories if m.last_accessed_at == NOW} == returned


def test_add_assigns_ids_embeds_scores_and_keeps_evidence() -> None:
    store = InMemoryStore(HashingEmbedder())
    first = store.add([NewMemory("the stove is burning")], now=NOW)[0]
    reflection = store.add(
        [
            NewMemory(
                "the kitchen is dangerous",
                kind=MemoryKind.REFLECTION,
                evidence_ids=(first.id,),
                depth=1,
                source=MemorySource.AGENT,
                importance=7,
            )
        ],
        now=NOW,
    )[0]
    assert (first.id, reflection.id) == (1, 2)
    assert first.created_at == first.last_accessed_at == NOW
    assert 1 <= first.importance <= 10 and first.embedding is not None
    assert (reflection.depth, reflection.importance) == (1, 7)
    assert store.evidence == {reflection.id: (first.id,)}
    assert store.get([2, 99, 1]) == [reflection, first]


def test_recent_is_newest_first_and_filters_kinds() -> None:
    store = InMemoryStore(HashingEmbedder())
    for i, kind in enumerate([MemoryKind.OBSERVATION, MemoryKind.PLAN, MemoryKind.OBSERVATION]):
        store.add([NewMemory(f"m{i}", kind=kind, created_at=NOW + timedelta(minutes=i))], now=NOW)
    assert [m.description for m in store.recent(2)] == ["m2", "m1"]
    assert [m.description for m in store.recent(5, kinds={MemoryKind.OBSERVATION})] == [
        "m2",
        "m0",
    ]


def test_scripted_mind_answers_in_order_then_falls_back_and_counts() -> None:
    mind = ScriptedMind({"emoji": ["🎉"], "insights": lambda **kw: [Insight(kw["question"], (1,))]})
    assert mind.think(Emoji("party")) == "🎉"
    assert mind.think(Emoji("brew espresso")) == OfflineMind().think(
        Emoji("brew espresso")
    )  # script spent
    assert mind.think(Insights("Why?", ["a", "b"], n=2)) == [Insight("Why?", (1,))]
    assert mind.count("emoji") == 2
    assert mind.inputs("insights") == [
        {"question": "Why?", "statements": ["a", "b"], "n": 2, "name": ""}
    ]


def test_fixed_clock_moves_only_when_told() -> None:
    clock = FixedClock(datetime(2024, 2, 13, 9, 0))
    assert clock.now() == clock.now() == datetime(2024, 2, 13, 9, 0)
    assert clock.advance(timedelta(minutes=15)) == datetime(2024, 2, 13, 9, 15)


@pytest.mark.parametrize("k", [0, 1])
def test_empty_store_returns_nothing(k: int) -> None:
    assert InMemoryStore(HashingEmbedder()).retrieve("anything", k=k, now=NOW) == []
