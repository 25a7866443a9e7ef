"""Reflection: questions over recent records, retrieved evidence, cited insights, depth."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import timedelta

import pytest

from cognition.offline import OfflineMind
from cognition.reflection import DEFAULT_EVIDENCE_K, reflect, should_reflect
from cognition.testing import ScriptedMind
from cognition.types import Insight, MemoryKind, MemorySource, NewMemory

from ..offline.personas import NOW
from .support import RecordingStore, remember

KLAUS = [
    "Klaus is working on his research paper at the library",
    "Klaus is reading a book about gentrification",
    "Klaus is writing the conclusion of his research paper",
    "Klaus is eating lunch at Hobbs Cafe",
    "Maria is painting at the park",
]


def _citing(word: str) -> Callable[..., list[Insight]]:
    """An insights script citing every numbered statement that contains `word`."""

    def insights(*, question: str, statements: Sequence[str], n: int, **_: object) -> list[Insight]:
        cited = tuple(i for i, s in enumerate(statements, start=1) if word in s)
        return [Insight(f"Klaus cares about his {word}", cited)]

    return insights


def test_insights_are_stored_as_reflections_citing_the_retrieved_memories(
    store: RecordingStore,
) -> None:
    written = remember(store, KLAUS, start=NOW)
    mind = ScriptedMind(
        {"reflection_questions": [["What is Klaus working on?"]], "insights": _citing("paper")}
    )

    reflections = reflect(store, mind, now=NOW, subject_name="Klaus Mueller")

    assert len(reflections) == 1
    reflection = reflections[0]
    paper_ids = {m.id for m in written if "paper" in m.description}
    assert set(store.evidence[reflection.id]) == paper_ids
    assert (reflection.kind, reflection.depth, reflection.source) == (
        MemoryKind.REFLECTION,
        1,
        MemorySource.AGENT,
    )
    assert reflection.subject == "Klaus Mueller"
    (retrieval,) = store.retrievals
    assert retrieval.query == "What is Klaus working on?"
    assert retrieval.k == DEFAULT_EVIDENCE_K
    assert mind.inputs("insights")[0]["statements"] == retrieval.descriptions


def test_a_reflection_on_reflections_is_one_level_deeper(store: RecordingStore) -> None:
    remember(store, KLAUS, start=NOW)
    earlier = store.add(
        [
            NewMemory(
                "Klaus is dedicated to his research paper",
                kind=MemoryKind.REFLECTION,
                evidence_ids=(1, 3),
                depth=1,
            )
        ],
        now=NOW,
    )[0]
    mind = ScriptedMind(
        {"reflection_questions": [["What drives Klaus?"]], "insights": _citing("paper")}
    )

    (deeper,) = reflect(store, mind, now=NOW + timedelta(hours=1), subject_name="Klaus Mueller")

    assert earlier.id in store.evidence[deeper.id]
    assert deeper.depth == 2


def test_an_insight_the_agent_already_holds_is_not_written_again(store: RecordingStore) -> None:
    remember(store, KLAUS, start=NOW)
    mind = ScriptedMind(
        {"reflection_questions": [["What is Klaus working on?"]], "insights": _citing("paper")}
    )
    (first,) = reflect(store, mind, now=NOW, subject_name="Klaus Mueller")
    assert first.description == "Klaus cares about his paper"

    again = reflect(store, mind, now=NOW + timedelta(hours=1), subject_name="Klaus Mueller")

    assert again == []  # the run read its own earlier insight: nothing new to say
    assert len(store.retrievals) == 2


def test_citations_outside_the_numbered_statements_are_dropped(store: RecordingStore) -> None:
    remember(store, KLAUS, start=NOW)
    mind = ScriptedMind(
        {
            "reflection_questions": [["What is Klaus working on?"]],
            "insights": [
                [
                    Insight("kept with one good citation", (0, 2, 99, 2)),
                    Insight("dropped: only invalid citations", (42, -1)),
                    Insight("dropped: no citation", ()),
                    Insight("   ", (1,)),
                ]
            ],
        }
    )

    reflections = reflect(store, mind, now=NOW, subject_name="Klaus Mueller")

    assert [r.description for r in reflections] == ["kept with one good citation"]
    second = store.retrievals[0].ids[1]
    assert store.evidence[reflections[0].id] == (second,)


def test_questions_come_from_the_100_most_recent_records(store: RecordingStore) -> None:
    texts = [f"observation number {i}" for i in range(120)]
    remember(store, texts, start=NOW)
    mind = ScriptedMind({"reflection_questions": [[]]})

    assert reflect(store, mind, now=NOW, subject_name="Klaus Mueller") == []

    (call,) = mind.inputs("reflection_questions")
    assert list(call["records"]) == [f"observation number {i}" for i in range(119, 19, -1)]
    assert call["n"] == 3


def test_every_question_retrieves_before_any_insight_is_written(store: RecordingStore) -> None:
    remember(store, KLAUS, start=NOW)
    mind = ScriptedMind(
        {
            "reflection_questions": [["What is Klaus working on?", "Where does Klaus eat?"]],
            "insights": lambda **kw: [Insight("Klaus is a devoted researcher", (1,))],
        }
    )

    reflections = reflect(store, mind, now=NOW, subject_name="Klaus Mueller")

    assert len(store.retrievals) == 2
    assert all(
        r.kind is not MemoryKind.REFLECTION
        for x in store.retrievals
        for r in (s.memory for s in x.results)
    )
    assert len(reflections) == 1  # the same insight twice is written once


def test_an_empty_stream_asks_the_mind_nothing(store: RecordingStore) -> None:
    mind = ScriptedMind()
    assert reflect(store, mind, now=NOW, subject_name="Klaus Mueller") == []
    assert mind.calls == []


def test_the_offline_mind_reflects_with_valid_evidence(store: RecordingStore) -> None:
    written = remember(store, KLAUS, start=NOW)
    reflections = reflect(store, OfflineMind(), now=NOW, subject_name="Klaus Mueller")
    assert reflections
    known = {m.id for m in written}
    for reflection in reflections:
        assert store.evidence[reflection.id]
        assert set(store.evidence[reflection.id]) <= known
        assert reflection.depth == 1


@pytest.mark.parametrize(
    ("accumulated", "fires"), [(0, False), (149, False), (150, False), (151, True)]
)
def test_reflection_fires_only_strictly_above_the_threshold(accumulated: int, fires: bool) -> None:
    assert should_reflect(accumulated, 150) is fires
