"""What each Mind operation asks of a language model: prompt, answer schema and parser.

Pure functions, one per operation, pairing a rendered template with the parser that reads the
answer, so a language-model adapter only transports text. Kept apart from the adapters so the
prompt/parser pairs are testable without a client, and any chat backend can reuse them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Generic, TypeVar

from pydantic import BaseModel

from cognition import parsing, prompting
from cognition.clamps import STEP_BOUNDS
from cognition.parsing import schemas
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

T = TypeVar("T")


@dataclass(frozen=True)
class Ask(Generic[T]):
    """One request to a model: operation name, prompt, answer schema, and how to read the answer."""

    operation: str
    prompt: str
    schema: type[BaseModel]
    parse: Callable[[str], T]


def rate_importance(memories: Sequence[str]) -> Ask[list[int]]:
    prompt = prompting.render(
        "rate_importance", memories=prompting.numbered(memories), count=len(memories)
    )
    return Ask(
        "rate_importance",
        prompt,
        schemas.ImportanceOut,
        lambda raw: parsing.parse_rate_importance(raw, count=len(memories)),
    )


def reflection_questions(records: Sequence[str], n: int) -> Ask[list[str]]:
    prompt = prompting.render("reflection_questions", records=prompting.numbered(records), n=n)
    return Ask(
        "reflection_questions",
        prompt,
        schemas.QuestionsOut,
        lambda raw: parsing.parse_reflection_questions(raw, n=n),
    )


def insights(question: str, statements: Sequence[str], n: int) -> Ask[list[Insight]]:
    prompt = prompting.render(
        "insights",
        question=prompting.text_or_empty(question),
        statements=prompting.numbered(statements),
        n=n,
    )
    return Ask(
        "insights",
        prompt,
        schemas.InsightsOut,
        lambda raw: parsing.parse_insights(raw, n=n, statement_count=len(statements)),
    )


def plan_day(
    *, persona: Persona, summary: str, previous_day: str, directives: Sequence[str], now: datetime
) -> Ask[list[PlanItem]]:
    prompt = prompting.render(
        "plan_day",
        character=prompting.character(persona, summary),
        name=prompting.one_line(persona.name),
        yesterday=prompting.day(now.date() - timedelta(days=1)),
        previous_day=prompting.text_or_empty(previous_day),
        directives=prompting.bulleted(directives),
        today=prompting.day(now.date()),
    )
    return Ask(
        "plan_day", prompt, schemas.DayPlanOut, lambda raw: parsing.parse_plan_day(raw, now=now)
    )


def decompose(
    *, item: PlanItem, granularity: Granularity, persona: Persona, summary: str
) -> Ask[list[PlanItem]]:
    step_min, step_max = STEP_BOUNDS[granularity]
    prompt = prompting.render(
        "decompose",
        character=prompting.character(persona, summary),
        name=prompting.one_line(persona.name),
        today=prompting.day(item.start.date()),
        start=prompting.clock(item.start),
        end=prompting.clock(item.start + timedelta(minutes=item.duration_min)),
        total=item.duration_min,
        description=prompting.text_or_empty(item.description),
        location=prompting.text_or_empty(item.location or ""),
        step_min=step_min,
        step_max=step_max,
    )
    return Ask(
        "decompose",
        prompt,
        schemas.StepsOut,
        lambda raw: parsing.parse_decompose(raw, parent=item, granularity=granularity),
    )


def choose_location(action: str, known_places: Sequence[str]) -> Ask[str]:
    prompt = prompting.render(
        "choose_location",
        places=prompting.bulleted(known_places),
        action=prompting.text_or_empty(action),
    )
    return Ask(
        "choose_location",
        prompt,
        schemas.LocationOut,
        lambda raw: parsing.parse_choose_location(raw, known_places=known_places),
    )


def react(
    *, persona: Persona, summary: str, status: str, observation: str, context: str, now: datetime
) -> Ask[Reaction]:
    prompt = prompting.render(
        "react",
        character=prompting.character(persona, summary),
        name=prompting.one_line(persona.name),
        now=prompting.moment(now),
        status=prompting.text_or_empty(status),
        observation=prompting.text_or_empty(observation),
        context=prompting.text_or_empty(context),
    )
    return Ask("react", prompt, schemas.ReactionOut, parsing.parse_react)


def relationship(*, name: str, other: str, statements: Sequence[str]) -> Ask[RelationshipUpdate]:
    prompt = prompting.render(
        "relationship",
        name=prompting.one_line(name),
        other=prompting.one_line(other),
        statements=prompting.numbered(statements),
    )
    return Ask("relationship", prompt, schemas.RelationshipOut, parsing.parse_relationship)


def next_utterance(
    *,
    speaker: Persona,
    listener: str,
    summary: str,
    relationship: str,
    intent: str,
    memories: Sequence[str],
    history: Sequence[tuple[str, str]],
    now: datetime,
) -> Ask[Utterance]:
    name = prompting.one_line(speaker.name)
    prompt = prompting.render(
        "next_utterance",
        character=prompting.character(speaker, summary),
        name=name,
        now=prompting.moment(now),
        listener=prompting.one_line(listener),
        relationship=prompting.text_or_empty(relationship),
        intent=prompting.text_or_empty(intent),
        memories=prompting.numbered(memories),
        history=prompting.dialogue(history),
    )
    return Ask(
        "next_utterance",
        prompt,
        schemas.UtteranceOut,
        lambda raw: parsing.parse_next_utterance(raw, speaker=name),
    )


def summarize_agent(*, persona: Persona, retrieved: Mapping[str, Sequence[str]]) -> Ask[str]:
    prompt = prompting.render(
        "summarize_agent",
        character=prompting.character(persona),
        name=prompting.one_line(persona.name),
        sections=prompting.sections(retrieved),
    )
    return Ask("summarize_agent", prompt, schemas.SummaryOut, parsing.parse_summarize_agent)


def object_state(action: str, obj: str) -> Ask[str | None]:
    prompt = prompting.render(
        "object_state",
        action=prompting.text_or_empty(action),
        object=prompting.text_or_empty(obj),
    )
    return Ask("object_state", prompt, schemas.ObjectStateOut, parsing.parse_object_state)


def emoji(action: str) -> Ask[str]:
    prompt = prompting.render("emoji", action=prompting.text_or_empty(action))
    return Ask("emoji", prompt, schemas.EmojiOut, parsing.parse_emoji)


def answer(
    *, question: str, persona: Persona, summary: str, asker: str, memories: Sequence[str]
) -> Ask[Answer]:
    prompt = prompting.render(
        "answer",
        character=prompting.character(persona, summary),
        name=prompting.one_line(persona.name),
        asker=prompting.one_line(asker),
        question=prompting.text_or_empty(question),
        memories=prompting.numbered(memories),
    )
    return Ask(
        "answer",
        prompt,
        schemas.AnswerOut,
        lambda raw: parsing.parse_answer(raw, memory_count=len(memories)),
    )
