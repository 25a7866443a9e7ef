"""Every operation's prompt stays within its budget for a long-memoried agent (issue 24), and
what is cut to fit is the least relevant: a retrieval's tail, the oldest records and lines,
the schedule farthest from the item. Requests are sized as Hearth sends them at its defaults
or beyond (a hundred recent records, thirty pieces of evidence, a town of places)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest

from cognition import requests as rq
from cognition.asks import ask_for
from cognition.places import PlaceOption
from cognition.prompt_budget import PROMPT_BUDGETS, TRIMS, batches
from cognition.tokens import estimate_tokens
from cognition.types import Granularity, Persona, PlanItem

NOW = datetime(2023, 2, 13, 9, 0)
ISABELLA = Persona(
    name="Isabella Rodriguez",
    age=34,
    innate="friendly, outgoing, hospitable",
    background="Isabella Rodriguez is a cafe owner of Hobbs Cafe who loves to make people feel "
    "welcome. She is always looking for ways to make the cafe a place where people can come "
    "to relax and enjoy themselves.",
    currently="Isabella Rodriguez is planning a Valentine's Day party at Hobbs Cafe with her "
    "customers on February 14th, 2023 at 5pm.",
    lifestyle="Isabella Rodriguez goes to bed around 11pm, wakes up around 6am.",
    living_area="Isabella's apartment: bedroom",
    daily_plan_requirement="Isabella Rodriguez opens Hobbs Cafe at 8am everyday.",
)
SUMMARY = (
    "Isabella Rodriguez is a warm, outgoing cafe owner who runs Hobbs Cafe and is planning a "
    "Valentine's Day party; she knows most of the town by name."
)
PEOPLE = ["Klaus Mueller", "Maria Lopez", "Tom Moreno", "Ayesha Khan", "Sam Moore"]
DOINGS = ["brewing coffee", "talking about the election", "reading the notice board"]
PLACES = [
    f"{p}: {room}"
    for p in (
        "Hobbs Cafe",
        "The Willows Market",
        "Oak Hill College",
        "Johnson Park",
        "Harvey Oak Supply Store",
        "The Rose and Crown Pub",
    )
    for room in ("counter", "kitchen", "back room", "main hall", "garden", "office")
]


def memory(n: int) -> str:
    """The n-th memory, its number first so a test can tell which ones a prompt kept."""
    return f"memory {n:03d}: {PEOPLE[n % 5]} was {DOINGS[n % 3]} at {PLACES[n % len(PLACES)]}"


MEMORIES = [memory(n) for n in range(1, 301)]
LONG = MEMORIES[:150]
"""A long-memoried agent's memories, most relevant (or newest) first."""
ITEM = PlanItem(NOW, 240, "open Hobbs Cafe and serve breakfast", "Hobbs Cafe: counter")
SCHEDULE = [
    PlanItem(NOW + timedelta(minutes=30 * k), 30, f"errand {k:02d}") for k in range(-24, 24)
]
LINES = [
    (PEOPLE[n % 2], f"line {n:02d}: have you heard about the party on Friday at five?")
    for n in range(40)
]


def requests() -> dict[str, rq.Request[Any]]:
    """One long request per operation."""
    return {
        "rate_importance": rq.RateImportance(MEMORIES[:20], personas=[ISABELLA]),
        "reflection_questions": rq.ReflectionQuestions(LONG, n=3, name=ISABELLA.name),
        "insights": rq.Insights("What is Isabella planning?", LONG, n=5),
        "plan_day": rq.PlanDay(
            persona=ISABELLA,
            summary=SUMMARY,
            previous_day="She opened the cafe, served breakfast and planned the party.",
            directives=[f"directive {n}: remember to call the baker" for n in range(10)],
            now=NOW,
            notes=LONG,
            known_places=PLACES,
        ),
        "decompose": rq.Decompose(
            item=ITEM,
            granularity=Granularity.HOUR,
            persona=ISABELLA,
            summary=SUMMARY,
            schedule=SCHEDULE,
            memories=LONG,
        ),
        "choose_location": rq.ChooseLocation(
            action="serve breakfast",
            options=[PlaceOption(p.split(":")[0], ("counter", "kitchen")) for p in PLACES[::6]],
            at=NOW,
            home="Isabella's apartment: bedroom",
            name=ISABELLA.name,
        ),
        "react": rq.React(
            persona=ISABELLA,
            summary=SUMMARY,
            status="serving breakfast",
            observation="Klaus Mueller is reading a book",
            context="\n".join(LONG),
            now=NOW,
        ),
        "relationship": rq.SummarizeRelationship(ISABELLA.name, "Klaus Mueller", LONG),
        "next_utterance": rq.NextUtterance(
            speaker=ISABELLA,
            listener="Klaus Mueller",
            summary=SUMMARY,
            relationship="Isabella knows Klaus from the cafe.",
            intent="invite Klaus to the Valentine's Day party",
            memories=LONG,
            history=LINES,
            now=NOW,
            place="Hobbs Cafe",
        ),
        "summarize_agent": rq.SummarizeAgent(
            ISABELLA,
            {"core": LONG[:50], "daily": LONG[50:100], "progress": LONG[100:]},
        ),
        "object_state": rq.ObjectState("brew coffee for the regulars", "coffee machine"),
        "emoji": rq.Emoji("brew coffee for the regulars"),
        "answer": rq.AnswerQuestion(
            "Who is coming to the party?", ISABELLA, SUMMARY, "an interviewer", LONG, NOW
        ),
        "conversation_notes": rq.ConversationNotes(ISABELLA.name, "Klaus Mueller", LINES, NOW),
        "revise_currently": rq.ReviseCurrently(ISABELLA, LONG[:75], LONG[75:], NOW),
        "judge_answer": rq.JudgeAnswer(
            "Who is coming to the party?", " ".join(LONG[:20]), "the party"
        ),
        "rank_answers": rq.RankAnswers(
            ISABELLA.name,
            SUMMARY,
            "Who is coming to the party?",
            ["Klaus and Maria.", "I don't know.", "Everyone in town, I hope."],
            LONG,
        ),
    }


def tokens(request: rq.Request[Any], **kwargs: Any) -> int:
    return estimate_tokens(ask_for(request, **kwargs).prompt)


def test_every_operation_has_a_budget_and_a_long_request_here() -> None:
    operations = {t.operation for t in rq.Request.__subclasses__()}
    assert operations == set(PROMPT_BUDGETS) == set(requests())


@pytest.mark.parametrize("operation", sorted(PROMPT_BUDGETS))
def test_the_prompt_stays_within_budget_for_a_long_memoried_agent(operation: str) -> None:
    request = requests()[operation]
    assert tokens(request) <= PROMPT_BUDGETS[operation]
    if type(request) in TRIMS:  # it had to be cut: the test could fail
        assert tokens(request, budgets={}) > PROMPT_BUDGETS[operation]


KEPT: dict[str, Callable[[str], bool]] = {
    "reflection_questions": lambda p: "memory 001" in p and "memory 150" not in p,
    "insights": lambda p: "memory 001" in p and "memory 150" not in p,
    "plan_day": lambda p: "memory 001" in p and "memory 150" not in p,
    "decompose": lambda p: "memory 001" in p and "errand 00" in p and "errand -24" not in p,
    "react": lambda p: "memory 001" in p and "memory 150" not in p,
    "relationship": lambda p: "memory 001" in p and "memory 150" not in p,
    "next_utterance": lambda p: "memory 001" in p and "line 39" in p and "memory 150" not in p,
    "summarize_agent": lambda p: "memory 001" in p and "memory 051" in p and "memory 150" not in p,
    "answer": lambda p: "memory 001" in p and "memory 150" not in p,
    "conversation_notes": lambda p: "line 39" in p and "line 00" not in p,
    "revise_currently": lambda p: "memory 001" in p and "memory 076" in p,
    "rank_answers": lambda p: "memory 001" in p and "memory 150" not in p,
}


@pytest.mark.parametrize("operation", sorted(KEPT))
def test_what_is_cut_is_the_least_relevant(operation: str) -> None:
    prompt = ask_for(requests()[operation]).prompt
    assert KEPT[operation](prompt), prompt


def test_a_cut_retrieval_is_still_numbered_from_its_best() -> None:
    """Citations name statements by number: the statements shown are the first ones."""
    prompt = ask_for(rq.Insights("What is Isabella planning?", LONG, n=5)).prompt
    shown = [line for line in prompt.splitlines() if line[:1].isdigit()]
    assert shown and all(line.startswith(f"{n}. memory {n:03d}") for n, line in enumerate(shown, 1))


def test_a_backlog_is_rated_in_batches_that_fit() -> None:
    def render(chunk: Any) -> str:
        return ask_for(rq.RateImportance(chunk, personas=[ISABELLA])).prompt

    budget = PROMPT_BUDGETS["rate_importance"]
    found = batches(MEMORIES, render, budget=budget, most=100)
    assert [m for batch in found for m in batch] == MEMORIES  # every one, in order
    assert len(found) > 1 and all(estimate_tokens(render(b)) <= budget for b in found)
    assert [len(b) for b in batches(MEMORIES[:10], render, budget=budget, most=4)] == [4, 4, 2]
