"""OfflineMind: the whole Mind protocol, deterministic, and audited once per call."""

from __future__ import annotations

import ast
import math
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cognition import asks
from cognition.mind import ListAudit, Mind
from cognition.offline import OFFLINE_MODEL, OfflineMind
from cognition.offline import mind as offline_mind
from cognition.offline.places import STATE_RULES
from cognition.places import KnownMap
from cognition.requests import (
    ALL_REQUESTS,
    OPERATIONS,
    AnswerQuestion,
    ChooseLocation,
    ConversationNotes,
    Decompose,
    Emoji,
    Insights,
    JudgeAnswer,
    NextUtterance,
    ObjectState,
    PlanDay,
    RankAnswers,
    RateImportance,
    React,
    ReflectionQuestions,
    Request,
    ReviseCurrently,
    SummarizeAgent,
    SummarizeRelationship,
)
from cognition.types import (
    Answer,
    Granularity,
    Insight,
    Persona,
    PlanItem,
    Reaction,
    RelationshipUpdate,
    Utterance,
)
from tests.hash_seeds import SEEDS, printed_under_seeds

from .personas import KNOWN_PLACES, NOW, PERSONAS, ROSA, TOMAS

_TOWN = KnownMap(KNOWN_PLACES)
TOWN_AREAS = [_TOWN.option(path) for path in _TOWN.children("Fernbrook")]
"""The places of Fernbrook, as the level below the town offers them."""

ITEM = PlanItem(start=NOW.replace(hour=8), duration_min=90, description="open Juniper Cafe")
STATEMENTS = [
    "Tomas Okafor is studying chemistry",
    "Tomas Okafor is reviewing chemistry notes",
    "Rosa Delgado is baking",
]

CALLS: dict[str, Callable[[Mind], Any]] = {
    "rate_importance": lambda m: m.think(RateImportance(["brushing teeth", "the cafe is on fire"])),
    "reflection_questions": lambda m: m.think(ReflectionQuestions(STATEMENTS, 2)),
    "insights": lambda m: m.think(Insights("What is Tomas Okafor's focus?", STATEMENTS, 3)),
    "plan_day": lambda m: m.think(
        PlanDay(
            persona=ROSA, summary="", previous_day="", directives=["call Helen at 3pm"], now=NOW
        )
    ),
    "decompose": lambda m: m.think(
        Decompose(item=ITEM, granularity=Granularity.TASK, persona=ROSA, summary="")
    ),
    "choose_location": lambda m: m.think(ChooseLocation("make coffee", TOWN_AREAS, at=NOW)),
    "react": lambda m: m.think(
        React(
            persona=ROSA,
            summary="",
            status="serving",
            observation="Tomas Okafor is entering Juniper Cafe",
            context="Tomas Okafor is a regular.",
            now=NOW,
        )
    ),
    "relationship": lambda m: m.think(
        SummarizeRelationship(name="Rosa Delgado", other="Tomas Okafor", statements=STATEMENTS)
    ),
    "next_utterance": lambda m: m.think(
        NextUtterance(
            speaker=ROSA,
            listener="Tomas Okafor",
            summary="",
            relationship="",
            intent="invite Tomas to the party at 5pm",
            memories=STATEMENTS,
            history=[],
            now=NOW,
        )
    ),
    "summarize_agent": lambda m: m.think(SummarizeAgent(persona=TOMAS, retrieved={})),
    "object_state": lambda m: m.think(ObjectState("brewing coffee", "coffee machine")),
    "emoji": lambda m: m.think(Emoji("brewing coffee")),
    "answer": lambda m: m.think(
        AnswerQuestion(
            question="What is Tomas studying?",
            persona=ROSA,
            summary="",
            asker="Helen",
            memories=STATEMENTS,
        )
    ),
}

CALLS["conversation_notes"] = lambda m: m.think(
    ConversationNotes(
        name="Tomas Okafor",
        other="Rosa Delgado",
        lines=[("Rosa Delgado", "Hi Tomas!"), ("Tomas Okafor", "Hi Rosa!")],
        now=NOW,
    )
)
CALLS["revise_currently"] = lambda m: m.think(
    ReviseCurrently(persona=TOMAS, plan_notes=[], events=[], now=NOW)
)

CALLS["judge_answer"] = lambda m: m.think(
    JudgeAnswer(question="Do you know of Rosa?", answer="Yes, I know Rosa.", subject="Rosa")
)
CALLS["rank_answers"] = lambda m: m.think(
    RankAnswers(name="Rosa", summary="", question="Hi?", answers=["No.", "Hello!"])
)

EXPECTED_TYPES: dict[str, type] = {
    "summarize_agent": str,
    "choose_location": str,
    "object_state": str,
    "emoji": str,
    "react": Reaction,
    "relationship": RelationshipUpdate,
    "next_utterance": Utterance,
    "answer": Answer,
    "judge_answer": bool,
    "rank_answers": list,
}


def test_offline_mind_satisfies_the_protocol() -> None:
    mind = OfflineMind()
    assert isinstance(mind, Mind)
    assert mind.model == OFFLINE_MODEL == "offline-heuristic"


def test_calls_cover_every_request_type() -> None:
    assert set(CALLS) == OPERATIONS


@pytest.mark.parametrize("request_type", ALL_REQUESTS, ids=lambda r: r.operation)
def test_every_request_has_an_offline_answer_and_a_prompt(request_type: type[Request[Any]]) -> None:
    assert request_type in offline_mind._HEURISTICS
    assert request_type in asks._ASKS


@pytest.mark.parametrize("operation", sorted(CALLS))
def test_each_call_records_one_audit_entry(operation: str) -> None:
    audit = ListAudit()
    result = CALLS[operation](OfflineMind(audit))
    assert len(audit.calls) == 1
    call = audit.calls[0]
    assert call.operation == operation
    assert call.model == OFFLINE_MODEL
    assert call.cost_usd == 0.0
    assert call.error is None
    assert call.latency_ms >= 0
    assert call.prompt and call.response is not None
    assert call.tokens_in == math.ceil(len(call.prompt) / 4)
    assert call.tokens_out == math.ceil(len(call.response) / 4)
    if operation in EXPECTED_TYPES:
        assert isinstance(result, EXPECTED_TYPES[operation])


def answers() -> dict[str, str]:
    """Every call's result, prompt and response, as text to compare across processes."""
    found = {}
    for operation, call in sorted(CALLS.items()):
        audit = ListAudit()
        result = call(OfflineMind(audit))
        found[operation] = repr((result, audit.calls[0].prompt, audit.calls[0].response))
    return found


@pytest.fixture(scope="module")
def answers_in_other_processes() -> list[dict[str, str]]:
    code = "from tests.cognition.offline.test_mind import answers; print(repr(answers()))"
    return [ast.literal_eval(printed) for printed in printed_under_seeds(code)]


@pytest.mark.parametrize("operation", sorted(CALLS))
def test_each_call_is_the_same_in_every_process(
    operation: str, answers_in_other_processes: list[dict[str, str]]
) -> None:
    here = answers()[operation]
    assert [other[operation] for other in answers_in_other_processes] == [here] * len(SEEDS)


def test_with_audit_reports_to_the_new_sink_only() -> None:
    original, other = ListAudit(), ListAudit()
    mind = OfflineMind(original)
    copy = mind.with_audit(other)
    copy.think(Emoji("sleeping"))
    assert [c.operation for c in other.calls] == ["emoji"]
    assert original.calls == []
    assert copy.model == mind.model


def test_default_audit_drops_records_quietly() -> None:
    assert OfflineMind().think(Emoji("sleeping")) == "😴"


def test_results_have_the_protocol_shapes() -> None:
    mind = OfflineMind()
    scores = CALLS["rate_importance"](mind)
    assert scores[0] < scores[1]
    assert all(isinstance(i, Insight) for i in CALLS["insights"](mind))
    assert all(isinstance(i, PlanItem) for i in CALLS["plan_day"](mind))
    assert all(isinstance(q, str) for q in CALLS["reflection_questions"](mind))


def test_response_text_renders_the_output() -> None:
    audit = ListAudit()
    OfflineMind(audit).think(ChooseLocation("make coffee", TOWN_AREAS, at=NOW))
    assert audit.calls[0].response == '"Juniper Cafe"'
    assert "make coffee" in (audit.calls[0].prompt or "")


TEXT = st.text(max_size=80)


@settings(max_examples=60)
@given(TEXT, TEXT, TEXT, st.lists(TEXT, max_size=5), st.sampled_from(PERSONAS))
def test_arbitrary_text_never_breaks_the_town(
    observation: str, intent: str, question: str, memories: list[str], persona: Persona
) -> None:
    mind = OfflineMind()
    reaction = mind.think(
        React(
            persona=persona,
            summary=intent,
            status="",
            observation=observation,
            context=question,
            now=NOW,
        )
    )
    assert isinstance(reaction.react, bool)
    line = mind.think(
        NextUtterance(
            speaker=persona,
            listener="Sam Lee",
            summary="",
            relationship="",
            intent=intent,
            memories=memories,
            history=[("Sam Lee", observation)],
            now=NOW,
        )
    )
    assert line.text
    reply = mind.think(
        AnswerQuestion(
            question=question, persona=persona, summary="", asker="Sam", memories=memories
        )
    )
    assert all(1 <= i <= len(memories) for i in reply.cited)
    state = mind.think(ObjectState(observation, intent))
    assert state is None or state in {rule_state for _, _, rule_state in STATE_RULES}
    assert mind.think(Emoji(observation))
    plan = mind.think(
        PlanDay(persona=persona, summary="", previous_day="", directives=[intent], now=NOW)
    )
    assert 5 <= len(plan) <= 8
