"""Player chat and interviews: grounded answers, the player's claims kept as claims, and the
paper's ablation conditions."""

from __future__ import annotations

from datetime import timedelta

from cognition.dialogue import Speaker
from cognition.interview import (
    InterviewAnswer,
    InterviewMode,
    interview,
    persona_summary,
    retrieval_query,
)
from cognition.offline import OfflineMind
from cognition.player_chat import own_line, player_claim, player_label, reply_to_player
from cognition.testing import ScriptedMind
from cognition.types import Answer, Memory, MemoryKind, MemorySource, Utterance

from ..offline.personas import NOW, ROSA
from .support import RecordingStore, remember


def _store() -> RecordingStore:
    store = RecordingStore()
    remember(
        store,
        [
            "Rosa is planning a Valentine's Day party at the cafe",
            "Rosa bought red roses for the party",
        ],
        start=NOW - timedelta(hours=3),
    )
    remember(
        store,
        ["Rosa hopes the party brings the neighbourhood together"],
        start=NOW - timedelta(hours=1),
        kind=MemoryKind.REFLECTION,
    )
    remember(store, ["Rosa plans to decorate the cafe at 3pm"], start=NOW, kind=MemoryKind.PLAN)
    return store


def test_the_player_claim_is_attributed_never_first_person() -> None:
    label = player_label("Sam", "a reporter")
    claim = player_claim(
        label=label, agent_name="Rosa", message="I am your long-lost brother", now=NOW
    )
    assert claim.source is MemorySource.PLAYER and claim.kind is MemoryKind.UTTERANCE
    assert claim.description == 'Sam (a reporter) said to Rosa: "I am your long-lost brother"'
    assert claim.subject == label
    mine = own_line(agent_name="Rosa", label=label, text="Nice to meet you", now=NOW)
    assert mine.source is MemorySource.AGENT and mine.description.startswith("Rosa said to Sam")


def test_reply_is_grounded_in_memories_retrieved_for_the_message() -> None:
    store = _store()
    mind = ScriptedMind({"next_utterance": [Utterance("Yes! Friday at five.", ends=False)]})
    speaker = Speaker(
        persona=ROSA,
        summary="Rosa runs a cafe",
        store=store,
        relationship="",
        intent="decorate the cafe",
    )
    line = reply_to_player(
        agent=speaker,
        label="Sam (a reporter)",
        message="Are you throwing a party?",
        history=[],
        mind=mind,
        now=NOW,
    )
    assert line.text == "Yes! Friday at five." and line.speaker == ROSA.name
    asked = mind.inputs("next_utterance")[0]
    assert asked["history"][-1] == ("Sam (a reporter)", "Are you throwing a party?")
    assert any("party" in m for m in asked["memories"])
    assert set(line.memory_ids) <= {m.id for m in store.memories}


def test_interview_modes_ablate_kinds_and_do_not_touch_memory() -> None:
    store = _store()
    before = {m.id: m.last_accessed_at for m in store.memories}
    for mode, banned in [
        (InterviewMode.NO_REFLECTION, {MemoryKind.REFLECTION}),
        (InterviewMode.NO_REFLECTION_NO_PLANNING, {MemoryKind.REFLECTION, MemoryKind.PLAN}),
    ]:
        result = interview(
            store,
            OfflineMind(),
            persona=ROSA,
            summary="Rosa runs a cafe",
            question="What are you planning?",
            interviewer="an interviewer",
            mode=mode,
            now=NOW + timedelta(hours=5),
        )
        assert result.used and not {s.memory.kind for s in result.used} & banned
    assert {m.id: m.last_accessed_at for m in store.memories} == before


def test_no_memory_answers_from_the_persona_alone() -> None:
    store = _store()
    mind = ScriptedMind({"answer": [Answer("I run a cafe.", cited=())]})
    result = interview(
        store,
        mind,
        persona=ROSA,
        summary="Rosa is planning a party",
        question="Who are you?",
        interviewer="an interviewer",
        mode=InterviewMode.NO_MEMORY,
        now=NOW,
    )
    asked = mind.inputs("answer")[0]
    assert asked["memories"] == [] and result.used == ()
    assert asked["summary"] == persona_summary(ROSA) and "party" not in asked["summary"]
    assert store.retrievals == []


def test_cited_memories_are_the_ones_returned() -> None:
    store = _store()
    mind = ScriptedMind({"answer": [Answer("The party!", cited=(1, 99))]})
    result = interview(
        store,
        mind,
        persona=ROSA,
        summary="",
        question="What is the party?",
        interviewer="a reporter",
        mode=InterviewMode.FULL,
        now=NOW,
    )
    assert len(result.used) == 1  # index 99 was never shown: dropped
    assert result.used[0] == store.retrievals[0].results[0]


def test_a_question_about_news_retrieves_by_what_it_asks_about() -> None:
    store = _store()
    mind = ScriptedMind({"answer": [Answer("Yes.", cited=())] * 2})
    for question, query in [
        ("Have you heard anything about the roses?", "the roses"),
        ("Why didn't you come to the party?", "Why didn't you come to the party?"),
    ]:
        interview(
            store,
            mind,
            persona=ROSA,
            summary="",
            question=question,
            interviewer="a reporter",
            mode=InterviewMode.FULL,
            now=NOW,
        )
        assert store.retrievals[-1].query == query
        assert mind.inputs("answer")[-1]["question"] == question  # the mind hears it whole


def test_retrieval_query_drops_only_the_asking() -> None:
    assert retrieval_query("Did you know that the bridge is cracked?") == "the bridge is cracked"
    assert retrieval_query("Do you know who is running for mayor?") == "who is running for mayor"
    assert retrieval_query("Did you hear?") == "Did you hear?"


def test_news_looked_up_by_its_fields_is_before_the_agent_after_what_it_retrieves() -> None:
    """Asked on Thursday night about "the pub tonight", fifty memories of Thursday outranked
    Wednesday's goat roast: news looked up by its fields comes too, and can be cited."""
    store = _store()
    [roast] = remember(
        store,
        ["Shane told me his barbecue is at The Royal Hotel on Wednesday at 6 pm"],
        start=NOW - timedelta(days=1),
    )

    def asked(mode: InterviewMode, looked_up: list[Memory]) -> InterviewAnswer:
        return interview(
            store,
            OfflineMind(),
            persona=ROSA,
            summary="",
            question="What's on at the pub tonight?",
            interviewer="a reporter",
            mode=mode,
            now=NOW,
            k=1,
            looked_up=looked_up,
        )

    retrieved_only = asked(InterviewMode.FULL, [])
    assert roast.id not in {s.memory.id for s in retrieved_only.used}
    both = asked(InterviewMode.FULL, [roast])
    assert "barbecue" in both.answer.text and roast.id in {s.memory.id for s in both.used}
    ablated = asked(InterviewMode.NO_MEMORY, [roast])
    assert "barbecue" not in ablated.answer.text  # a mode without memory looks nothing up
