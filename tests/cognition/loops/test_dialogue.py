"""Dialogue: turns grounded in retrieved memories, the cap, endings, and intent coherence."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import timedelta

import pytest

from cognition.dialogue import (
    DEFAULT_TURN_K,
    NEWS_QUERY,
    Speaker,
    conversation_notes,
    converse,
    reflect_on_relationship,
    said_memory,
    speaking_intent,
    turn,
)
from cognition.errors import InvalidInput
from cognition.offline import OfflineMind
from cognition.reacting import exchanged_query
from cognition.testing import ScriptedMind
from cognition.types import (
    ConversationEnd,
    Decision,
    MemoryKind,
    MemorySource,
    PlanItem,
    RelationshipUpdate,
    Turn,
    Utterance,
)

from ..offline.personas import NOW, ROSA, TOMAS
from .support import RecordingStore, remember

ROSA_MEMORIES = [
    "Rosa Delgado is planning a Valentine's Day party at Juniper Cafe",
    "Tomas Okafor is a regular at Juniper Cafe",
    "the oven at Juniper Cafe is preheating",
]
TOMAS_MEMORIES = [
    "Tomas Okafor is preparing for his chemistry exam",
    "Rosa Delgado gave Tomas a free coffee last week",
]


def speakers(intent_a: str = "", intent_b: str = "") -> tuple[Speaker, Speaker]:
    rosa_store, tomas_store = RecordingStore(), RecordingStore()
    remember(rosa_store, ROSA_MEMORIES, start=NOW - timedelta(hours=5))
    remember(tomas_store, TOMAS_MEMORIES, start=NOW - timedelta(hours=5))
    rosa = Speaker(ROSA, "Rosa runs Juniper Cafe.", rosa_store, "Rosa likes Tomas.", intent_a)
    tomas = Speaker(TOMAS, "Tomas studies chemistry.", tomas_store, "Tomas likes Rosa.", intent_b)
    return rosa, tomas


def recorded(speaker: Speaker) -> RecordingStore:
    """The speaker's store, which these tests always build as a recording one."""
    assert isinstance(speaker.store, RecordingStore)
    return speaker.store


def lines(texts: Sequence[str], *, ending_at: int | None = None) -> list[Utterance]:
    return [Utterance(t, ends=i == ending_at) for i, t in enumerate(texts)]


def test_a_conversation_stops_at_the_cap_of_eight_turns() -> None:
    rosa, tomas = speakers("chat with Tomas", "study")
    mind = ScriptedMind({"next_utterance": lambda **kw: Utterance(f"{kw['speaker'].name} talks")})

    conversation = converse(a=rosa, b=tomas, mind=mind, now=NOW)

    assert len(conversation.turns) == 8
    assert conversation.ended_by is ConversationEnd.CAP
    assert [t.speaker for t in conversation.turns] == [ROSA.name, TOMAS.name] * 4
    assert mind.count("next_utterance") == 8


def test_a_conversation_stops_when_a_side_ends_it() -> None:
    rosa, tomas = speakers("chat with Tomas", "study")
    mind = ScriptedMind({"next_utterance": lines(["Hi!", "Hello.", "Bye now."], ending_at=2)})

    conversation = converse(a=rosa, b=tomas, mind=mind, now=NOW, max_turns=8)

    assert [t.text for t in conversation.turns] == ["Hi!", "Hello.", "Bye now."]
    assert conversation.turns[-1].ends
    assert conversation.ended_by is ConversationEnd.SPEAKER


def test_a_blank_line_ends_the_conversation_without_being_recorded() -> None:
    rosa, tomas = speakers("chat with Tomas", "study")
    mind = ScriptedMind({"next_utterance": lines(["Hi!", "  "])})
    conversation = converse(a=rosa, b=tomas, mind=mind, now=NOW)
    assert [t.text for t in conversation.turns] == ["Hi!"]
    assert conversation.ended_by is ConversationEnd.SPEAKER


def test_every_turn_is_conditioned_on_the_speakers_own_retrieval() -> None:
    rosa, tomas = speakers("invite Tomas to the Valentine's party", "study for the exam")
    said = ["Would you like to come to the party?", "What time is it?", "At five.", "Sure!"]
    mind = ScriptedMind({"next_utterance": lines(said, ending_at=3)})

    conversation = converse(a=rosa, b=tomas, mind=mind, now=NOW)

    calls = mind.inputs("next_utterance")
    retrievals = {ROSA.name: recorded(rosa).retrievals, TOMAS.name: recorded(tomas).retrievals}
    expected_queries = [rosa.intent, *said[:3]]
    other = {ROSA.name: TOMAS.name, TOMAS.name: ROSA.name}
    for n, (call, line) in enumerate(zip(calls, conversation.turns, strict=True)):
        first = n < 2  # each side's first line also recalls what the two said before
        start = 0 if first else 3
        retrieval, news = retrievals[line.speaker][start : start + 2]
        assert retrieval.query == expected_queries[n]
        assert retrieval.k == DEFAULT_TURN_K
        assert news.query == NEWS_QUERY.format(name=line.speaker)
        recalled = list(news.ids)
        if first:
            exchanged = retrievals[line.speaker][2]
            assert exchanged.query == exchanged_query(line.speaker, other[line.speaker])
            recalled += exchanged.ids
        extra = [i for i in dict.fromkeys(recalled) if i not in retrieval.ids]
        assert line.memory_ids == (*retrieval.ids, *extra)
        assert len(call["memories"]) == len(line.memory_ids)
        assert list(call["memories"])[: len(retrieval.ids)] == retrieval.descriptions
        assert list(call["history"]) == [(t.speaker, t.text) for t in conversation.turns[:n]]
        own = rosa if line.speaker == ROSA.name else tomas
        assert (call["intent"], call["relationship"], call["summary"]) == (
            own.intent,
            own.relationship,
            own.summary,
        )


def test_the_opening_intent_is_the_topic_and_drives_the_opener() -> None:
    rosa, tomas = speakers("serve customers", "study")
    mind = ScriptedMind({"next_utterance": lines(["Hi", "Bye"], ending_at=1)})
    conversation = converse(
        a=rosa, b=tomas, mind=mind, now=NOW, opening_intent="ask Tomas about his exam"
    )
    assert conversation.topic == "ask Tomas about his exam"
    assert mind.inputs("next_utterance")[0]["intent"] == "ask Tomas about his exam"
    assert mind.inputs("next_utterance")[1]["intent"] == "study"


def test_one_turn_can_run_alone_as_a_worker_job() -> None:
    rosa, tomas = speakers("chat with Tomas", "study")
    first = turn(speaker=rosa, listener=TOMAS.name, mind=OfflineMind(), history=[], now=NOW)
    second = turn(speaker=tomas, listener=ROSA.name, mind=OfflineMind(), history=[first], now=NOW)
    assert (first.speaker, second.speaker) == (ROSA.name, TOMAS.name)
    assert first.text and second.text and first.spoken_at == NOW


def test_intent_coherence_the_plan_item_that_drives_the_plan_drives_the_words() -> None:
    current = PlanItem(NOW, 30, "invite Tomas to the Valentine's party at Juniper Cafe")
    rosa, tomas = speakers(speaking_intent(current=current), "study for the exam")

    conversation = converse(a=rosa, b=tomas, mind=OfflineMind(), now=NOW)

    rosas = " ".join(t.text for t in conversation.turns if t.speaker == ROSA.name)
    assert "party at Juniper Cafe" in rosas
    assert "Would you like to come" in rosas
    assert conversation.topic == current.description

    other = PlanItem(NOW, 30, "bake croissants for the morning rush")
    rosa, tomas = speakers(speaking_intent(current=other), "study for the exam")
    control = converse(a=rosa, b=tomas, mind=OfflineMind(), now=NOW)
    assert "Valentine's party" not in " ".join(t.text for t in control.turns)


def test_a_reaction_overrides_the_plan_item_as_the_intent() -> None:
    current = PlanItem(NOW, 30, "bake croissants")
    decision = Decision(True, "invite Tomas to the Valentine's party", "Tomas Okafor", "", "")
    assert speaking_intent(current=current, decision=decision) == decision.what
    carry_on = Decision(False, "", None, "busy", "")
    assert speaking_intent(current=current, decision=carry_on) == "bake croissants"
    assert speaking_intent(current=None) == ""


def test_relationship_reflection_uses_the_retrieved_memories_and_clamps() -> None:
    rosa, _ = speakers()
    mind = ScriptedMind({"relationship": [RelationshipUpdate("Rosa adores Tomas", 14)]})
    update = reflect_on_relationship(rosa.store, mind, name=ROSA.name, other=TOMAS.name, now=NOW)
    assert update == RelationshipUpdate("Rosa adores Tomas", 10)
    (retrieval,) = recorded(rosa).retrievals
    assert retrieval.query == "What is Rosa Delgado's relationship with Tomas Okafor?"
    assert list(mind.inputs("relationship")[0]["statements"]) == retrieval.descriptions


def test_the_offline_mind_warms_to_a_friendly_partner() -> None:
    rosa, _ = speakers()
    remember(recorded(rosa), ["Tomas Okafor laughed and thanked Rosa warmly"], start=NOW)
    update = reflect_on_relationship(
        rosa.store, OfflineMind(), name=ROSA.name, other=TOMAS.name, now=NOW
    )
    assert update.sentiment > 5
    assert "Tomas" in update.summary


def test_a_conversation_needs_at_least_one_turn() -> None:
    rosa, tomas = speakers()
    with pytest.raises(InvalidInput):
        converse(a=rosa, b=tomas, mind=OfflineMind(), now=NOW, max_turns=0)


def test_a_memo_cites_the_lines_that_carry_its_news() -> None:
    tom, nessa = "Tom Trevelyan", "Nessa Curnow"
    said = [
        (tom, "Hello, Nessa! How are you?"),
        (tom, "I'm worried: the old sea wall by the harbour has cracked badly."),
        (tom, "Well, I'd better get going. Take care, Nessa!"),
    ]
    store = RecordingStore()
    heard = store.add(
        [said_memory(who, nessa, text, at=NOW, source=MemorySource.AGENT) for who, text in said],
        now=NOW,
    )
    taken = conversation_notes(
        OfflineMind(),
        name=nessa,
        other=tom,
        lines=[Turn(speaker=who, text=text, spoken_at=NOW) for who, text in said],
        heard=heard,
        now=NOW,
    )
    [memo] = [m for m in taken.memories if m.kind is MemoryKind.REFLECTION]
    assert "sea wall" in memo.description
    assert memo.evidence_ids == (heard[1].id,)


def test_news_the_two_already_exchanged_is_not_told_again() -> None:
    """The lines of news the two told each other come with the speaker (looked up by their
    fields), so however far back retrieval would rank them, told once is enough."""
    rosa, _ = speakers("say hello to Tomas and chat")
    invited = "I'm organising a Valentine's Day party at Juniper Cafe! Would you like to come?"
    told = said_memory(
        ROSA.name, TOMAS.name, invited, at=NOW - timedelta(days=1), source=MemorySource.AGENT
    )
    first = turn(speaker=rosa, listener=TOMAS.name, mind=OfflineMind(), history=[], now=NOW)
    assert "party" in first.text, first.text  # news she has not told him yet
    again = replace(rosa, exchanged=(told.description,))
    second = turn(speaker=again, listener=TOMAS.name, mind=OfflineMind(), history=[], now=NOW)
    assert "party" not in second.text, second.text
