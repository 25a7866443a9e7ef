"""The summary description: three retrievals handed to the Mind; when a cached one is stale."""

from __future__ import annotations

from datetime import timedelta

import pytest

from cognition.offline import OfflineMind
from cognition.summary import DEFAULT_SUMMARY_K, is_stale, summarize_agent
from cognition.testing import ScriptedMind

from ..offline.personas import NOW, ROSA
from .support import RecordingStore, remember

MEMORIES = [
    "Rosa Delgado is warm and remembers every regular's order",
    "Rosa Delgado runs Juniper Cafe from 8am to 7pm",
    "Rosa Delgado feels proud that the cafe is busier this winter",
    "the oven at Juniper Cafe is preheating",
]


def test_the_summary_comes_from_the_papers_three_retrievals(store: RecordingStore) -> None:
    remember(store, MEMORIES, start=NOW - timedelta(hours=2))
    mind = ScriptedMind({"summarize_agent": ["Rosa, the heart of Juniper Cafe."]})

    summary = summarize_agent(store, mind, persona=ROSA, now=NOW)

    assert summary == "Rosa, the heart of Juniper Cafe."
    assert [r.query for r in store.retrievals] == [
        "Rosa Delgado's core characteristics",
        "Rosa Delgado's current daily occupation",
        "Rosa Delgado's feeling about their recent progress in life",
    ]
    assert all(r.k == DEFAULT_SUMMARY_K for r in store.retrievals)
    (call,) = mind.inputs("summarize_agent")
    assert call["persona"] == ROSA
    assert {key: list(v) for key, v in call["retrieved"].items()} == {
        "core": store.retrievals[0].descriptions,
        "occupation": store.retrievals[1].descriptions,
        "feeling": store.retrievals[2].descriptions,
    }


def test_the_offline_summary_has_the_papers_shape(store: RecordingStore) -> None:
    remember(store, MEMORIES, start=NOW - timedelta(hours=2))
    summary = summarize_agent(store, OfflineMind(), persona=ROSA, now=NOW)
    assert summary.splitlines()[0] == "Name: Rosa Delgado (age: 41)"
    assert len(summary.splitlines()) == 5


@pytest.mark.parametrize(
    ("age_hours", "new_memories", "stale"),
    [(1, 0, False), (23.9, 49, False), (24, 0, True), (2, 50, True), (-3, 0, False)],
)
def test_a_summary_goes_stale_with_age_or_news(
    age_hours: float, new_memories: int, stale: bool
) -> None:
    made = NOW - timedelta(hours=age_hours)
    assert (
        is_stale(
            summary_at=made,
            memories_since=new_memories,
            now=NOW,
            max_age_hours=24,
            max_new_memories=50,
        )
        is stale
    )


def test_a_summary_never_made_is_stale() -> None:
    assert is_stale(
        summary_at=None, memories_since=0, now=NOW, max_age_hours=24, max_new_memories=50
    )
