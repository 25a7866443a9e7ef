"""What each Mind request asks of a language model: prompt, answer schema and parser.

Pure functions, one per request type (`ask_for` picks it), pairing a rendered template with
the parser that reads the answer, so a language-model adapter only transports text. Kept
apart from the adapters so the prompt/parser pairs are testable without a client, and any chat
backend can reuse them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Generic, TypeVar, cast

from pydantic import BaseModel

from cognition import parsing, prompt_budget, prompting, requests
from cognition.clamps import STEP_BOUNDS, lay_out_steps, order_day_plan
from cognition.errors import InvalidOutput
from cognition.grammar import progressive
from cognition.offline.clock import wake_and_bed
from cognition.offline.importance import rate as provisional
from cognition.parsing import plan_checks, repairs, schemas, shapes
from cognition.parsing.day_parts import OWNED_ITEMS, lay_out_day
from cognition.parsing.memory import MAX_ANSWER_CITATIONS
from cognition.parsing.plans import NOTES_SEPARATOR, read_day_parts, read_plan_day, read_steps
from cognition.places import PlaceOption
from cognition.types import (
    Answer,
    Insight,
    Notes,
    PlanItem,
    Reaction,
    RelationshipUpdate,
    Utterance,
)

T = TypeVar("T")
DEFAULT_MAX_TOKENS = 400
LONG_MAX_TOKENS = 900
"""For a day outline or a decomposition: up to a dozen items of about 50 tokens each."""


@dataclass(frozen=True)
class Ask(Generic[T]):
    """One request to a model: operation name, prompt, answer schema, and how to read the answer.

    `shape` is the JSON Schema sent for this request when it narrows `schema` by what the
    prompt shows (`cognition.parsing.shapes`: as many ratings as memories, places from the
    known ones); None sends `schema` as it stands."""

    operation: str
    prompt: str
    schema: type[BaseModel]
    parse: Callable[[str], T]
    shape: shapes.Schema | None = None
    max_tokens: int = DEFAULT_MAX_TOKENS
    """The answer's budget: a small model under a grammar may otherwise run a string on for
    a thousand tokens (minutes on a CPU); a cut answer is invalid and re-asked."""

    @property
    def json_schema(self) -> shapes.Schema:
        """The schema a `json_schema` response format sends."""
        return self.shape if self.shape is not None else shapes.of(self.schema)


def rate_importance(r: requests.RateImportance) -> Ask[list[int]]:
    memories = r.memories
    prompt = prompting.render(
        "rate_importance",
        people=prompting.bulleted(prompting.persona_line(p) for p in r.personas),
        memories=prompting.numbered(memories),
        count=len(memories),
    )

    def parse(raw: str) -> list[int]:
        """A memory the model left unrated gets the provisional lexical rating."""
        rated = parsing.parse_rate_importance(raw, count=len(memories))
        for number, rating in enumerate(rated, start=1):
            if rating is None:
                repairs.note(f"memory {number} unrated: rated by its words")
        return [
            r if r is not None else provisional(m) for r, m in zip(rated, memories, strict=True)
        ]

    shape = shapes.ratings(len(memories))
    return Ask("rate_importance", prompt, schemas.ImportanceOut, parse, shape)


def reflection_questions(r: requests.ReflectionQuestions) -> Ask[list[str]]:
    records, n = r.records, r.n
    prompt = prompting.render("reflection_questions", records=prompting.numbered(records), n=n)
    return Ask(
        "reflection_questions",
        prompt,
        schemas.QuestionsOut,
        lambda raw: parsing.parse_reflection_questions(raw, n=n),
        shapes.questions(n),
    )


def insights(r: requests.Insights) -> Ask[list[Insight]]:
    question, statements, n = r.question, r.statements, r.n
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
        shapes.insights(n, len(statements)),
    )


def plan_day(r: requests.PlanDay) -> Ask[list[PlanItem]]:
    persona, summary, now = r.persona, r.summary, r.now
    previous_day, directives = r.previous_day, r.directives
    places = prompting.areas(r.known_places)
    wake, bed = wake_and_bed(persona.lifestyle)
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    prompt = prompting.render(
        "plan_day",
        character=prompting.character(persona, summary),
        name=prompting.one_line(persona.name),
        yesterday=prompting.day(now.date() - timedelta(days=1)),
        previous_day=prompting.text_or_empty(previous_day),
        directives=prompting.bulleted(directives),
        notes=prompting.numbered(r.notes),
        places=prompting.bulleted(places),
        today=prompting.day(now.date()),
        wake=prompting.clock(midnight + timedelta(minutes=wake)),
        bed=prompting.clock(midnight + timedelta(minutes=bed)),
    )

    def parse(raw: str) -> list[PlanItem]:
        """The outline laid over the persona's hours (`day_parts`), or, when the answer gives
        clock times, in time order once it reads as a day (`plan_checks.check_day`)."""
        parts = read_day_parts(raw)
        if parts is not None:
            home = persona.living_area or None
            plan = lay_out_day(parts, persona=persona, now=now, home=home)
            if len(plan) <= len(OWNED_ITEMS):
                raise InvalidOutput("the plan has nothing between waking up and bed", raw=raw)
            return plan
        written = read_plan_day(raw, now=now)
        plan = order_day_plan(written)
        plan_checks.check_day(plan, persona=persona, written=[i.start for i in written], raw=raw)
        return plan

    return Ask(
        "plan_day", prompt, schemas.DayPlanOut, parse, shapes.day_plan(places), LONG_MAX_TOKENS
    )


def decompose(r: requests.Decompose) -> Ask[list[PlanItem]]:
    item, granularity, persona, summary = r.item, r.granularity, r.persona, r.summary
    step_min, step_max = STEP_BOUNDS[granularity]
    prompt = prompting.render(
        "decompose",
        character=prompting.character(persona, summary),
        name=prompting.one_line(persona.name),
        today=prompting.day(item.start.date()),
        start=prompting.clock(item.start),
        end=prompting.clock(item.end),
        total=item.duration_min,
        description=prompting.text_or_empty(plan_checks.without_times(item.description)),
        location=prompting.text_or_empty(item.location or ""),
        step_min=step_min,
        step_max=step_max,
        schedule=prompting.schedule(r.schedule),
        memories=prompting.numbered(r.memories),
    )

    def parse(raw: str) -> list[PlanItem]:
        """Steps that break the item down (`plan_checks.check_steps`), laid over its span."""
        steps = plan_checks.check_steps(
            read_steps(raw), parent=item, schedule=r.schedule, raw=raw, granularity=granularity
        )
        return lay_out_steps(item, steps, granularity)

    most = max(1, item.duration_min // step_min)
    return Ask("decompose", prompt, schemas.StepsOut, parse, shapes.steps(most), LONG_MAX_TOKENS)


def choose_location(r: requests.ChooseLocation) -> Ask[str]:
    names = [option.name for option in r.options]
    name = prompting.one_line(r.name) or "the character"
    inside = bool(r.within.strip())
    prompt = prompting.render(
        "choose_location",
        when=_when(r.at, r.until),
        name=name,
        action=prompting.text_or_empty(r.action),
        current=prompting.text_or_empty(r.current),
        home=prompting.text_or_empty(r.home),
        scope=f"The place {name} chooses inside:" if inside else f"Where {name} chooses:",
        within=prompting.text_or_empty(r.within) if inside else "(the whole map)",
        options=prompting.bulleted(option_line(o, r.at, r.until) for o in r.options),
        question=f"Where inside it should {name} do this?"
        if inside
        else f"Which area should {name} go to?",
        stay=STAY_RULE if inside else "",
    )
    return Ask(
        "choose_location",
        prompt,
        schemas.LocationOut,
        lambda raw: parsing.parse_choose_location(raw, options=names, may_stay=inside),
        shapes.location(names, may_stay=inside),
    )


STAY_RULE = (
    ' If no option suits the action better than the place it is inside, answer {"location": ""}.'
)
"""Below the areas the descent may stop: the action then happens at the enclosing place."""


def _when(at: datetime, until: datetime | None) -> str:
    """ "At 7:30 am" or "From 6:30 am to 12:00 pm": when the action happens."""
    if until is None or until <= at:
        return f"At {prompting.clock(at)}"
    return f"From {prompting.clock(at)} to {prompting.clock(until)}"


def option_line(option: PlaceOption, at: datetime, until: datetime | None = None) -> str:
    """ "Hobbs Cafe — contains: counter, kitchen; open 08:00-20:00 (closed then);
    capacity 30 (12 there now)": an option with what decides whether it can host the action."""
    notes: list[str] = []
    if option.contains:
        notes.append("contains: " + ", ".join(option.contains))
    if option.norms.hours:
        closed = "" if option.norms.is_open_during(at, until) else " (closed then)"
        notes.append(f"open {option.norms.opening_hours()}{closed}")
    if option.norms.capacity is not None:
        full = ", full" if option.norms.is_full(option.occupancy) else ""
        notes.append(f"capacity {option.norms.capacity} ({option.occupancy} there now{full})")
    notes += [f"{key}: {value}" for key, value in option.norms.others.items()]
    return f"{option.name}{NOTES_SEPARATOR}{'; '.join(notes)}" if notes else option.name


def react(r: requests.React) -> Ask[Reaction]:
    persona, summary, status, now = r.persona, r.summary, r.status, r.now
    observation, context = r.observation, r.context
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


def relationship(r: requests.SummarizeRelationship) -> Ask[RelationshipUpdate]:
    name, other, statements = r.name, r.other, r.statements
    prompt = prompting.render(
        "relationship",
        name=prompting.one_line(name),
        other=prompting.one_line(other),
        statements=prompting.numbered(statements),
    )
    return Ask("relationship", prompt, schemas.RelationshipOut, parsing.parse_relationship)


def next_utterance(r: requests.NextUtterance) -> Ask[Utterance]:
    speaker, listener, summary, now = r.speaker, r.listener, r.summary, r.now
    relationship, intent, memories, history = r.relationship, r.intent, r.memories, r.history
    name = prompting.one_line(speaker.name)
    prompt = prompting.render(
        "next_utterance",
        character=prompting.character(speaker, summary),
        name=name,
        now=prompting.moment(now),
        listener=prompting.one_line(listener),
        situation=prompting.bulleted(
            line
            for line in (
                f"at {r.place}" if r.place else "",
                f"{speaker.name} was {progressive(r.speaker_status)}" if r.speaker_status else "",
                f"{listener} is {progressive(r.listener_status)}" if r.listener_status else "",
            )
            if line
        ),
        relationship=prompting.text_or_empty(relationship),
        intent=prompting.text_or_empty(intent),
        memories=prompting.numbered(memories),
        history=prompting.dialogue(history),
    )
    return Ask(
        "next_utterance",
        prompt,
        schemas.UtteranceOut,
        lambda raw: parsing.parse_next_utterance(
            raw,
            speaker=name,
            said=[text for _, text in history],
            names=(speaker.name, listener),
        ),
    )


def summarize_agent(r: requests.SummarizeAgent) -> Ask[str]:
    persona, retrieved = r.persona, r.retrieved
    prompt = prompting.render(
        "summarize_agent",
        character=prompting.character(persona),
        name=prompting.one_line(persona.name),
        sections=prompting.sections(retrieved),
    )
    return Ask("summarize_agent", prompt, schemas.SummaryOut, parsing.parse_summarize_agent)


def object_state(r: requests.ObjectState) -> Ask[str | None]:
    action, obj = r.action, r.obj
    prompt = prompting.render(
        "object_state",
        action=prompting.text_or_empty(action),
        object=prompting.text_or_empty(obj),
    )
    return Ask("object_state", prompt, schemas.ObjectStateOut, parsing.parse_object_state)


def emoji(r: requests.Emoji) -> Ask[str]:
    prompt = prompting.render("emoji", action=prompting.text_or_empty(r.action))
    return Ask("emoji", prompt, schemas.EmojiOut, parsing.parse_emoji)


def answer(r: requests.AnswerQuestion) -> Ask[Answer]:
    question, persona, summary, asker, memories = (
        r.question,
        r.persona,
        r.summary,
        r.asker,
        r.memories,
    )
    prompt = prompting.render(
        "answer",
        character=prompting.character(persona, summary),
        name=prompting.one_line(persona.name),
        now=prompting.moment(r.now) if r.now is not None else "some time",
        asker=prompting.one_line(asker),
        question=prompting.text_or_empty(question),
        memories=prompting.numbered(memories),
        most=MAX_ANSWER_CITATIONS,
    )
    return Ask(
        "answer",
        prompt,
        schemas.AnswerOut,
        lambda raw: parsing.parse_answer(raw, memory_count=len(memories)),
        shapes.answer(len(memories)),
    )


def conversation_notes(r: requests.ConversationNotes) -> Ask[Notes]:
    name = prompting.one_line(r.name)
    prompt = prompting.render(
        "conversation_notes",
        now=prompting.moment(r.now),
        name=name,
        other=prompting.one_line(r.other),
        lines=prompting.dialogue(r.lines),
    )
    return Ask(
        "conversation_notes",
        prompt,
        schemas.NotesOut,
        lambda raw: parsing.parse_conversation_notes(raw, name=name),
    )


def revise_currently(r: requests.ReviseCurrently) -> Ask[str]:
    prompt = prompting.render(
        "revise_currently",
        character=prompting.character(r.persona),
        name=prompting.one_line(r.persona.name),
        currently=prompting.text_or_empty(r.persona.currently),
        plans=prompting.numbered(r.plan_notes),
        events=prompting.numbered(r.events),
        today=prompting.day(r.now.date()),
    )
    return Ask("revise_currently", prompt, schemas.CurrentlyOut, parsing.parse_revise_currently)


def judge_answer(r: requests.JudgeAnswer) -> Ask[bool]:
    prompt = prompting.render(
        "judge_answer",
        subject=prompting.one_line(r.subject),
        question=prompting.text_or_empty(r.question),
        answer=prompting.text_or_empty(r.answer),
    )
    return Ask("judge_answer", prompt, schemas.JudgeOut, parsing.parse_judge_answer)


def rank_answers(r: requests.RankAnswers) -> Ask[list[int]]:
    count = len(r.answers)
    prompt = prompting.render(
        "rank_answers",
        name=prompting.one_line(r.name),
        summary=prompting.text_or_empty(r.summary),
        memories=prompting.numbered(r.memories),
        question=prompting.text_or_empty(r.question),
        answers=prompting.numbered(r.answers),
    )
    return Ask(
        "rank_answers",
        prompt,
        schemas.RankingOut,
        lambda raw: parsing.parse_rank_answers(raw, count=count),
        shapes.ranking(count),
    )


_ASKS: dict[type[requests.Request[Any]], Callable[[Any], Ask[Any]]] = {
    requests.RateImportance: rate_importance,
    requests.ReflectionQuestions: reflection_questions,
    requests.Insights: insights,
    requests.PlanDay: plan_day,
    requests.Decompose: decompose,
    requests.ChooseLocation: choose_location,
    requests.React: react,
    requests.SummarizeRelationship: relationship,
    requests.NextUtterance: next_utterance,
    requests.SummarizeAgent: summarize_agent,
    requests.ObjectState: object_state,
    requests.Emoji: emoji,
    requests.AnswerQuestion: answer,
    requests.ConversationNotes: conversation_notes,
    requests.ReviseCurrently: revise_currently,
    requests.JudgeAnswer: judge_answer,
    requests.RankAnswers: rank_answers,
}


def ask_for(
    request: requests.Request[T],
    *,
    budgets: Mapping[str, int] = prompt_budget.PROMPT_BUDGETS,
) -> Ask[T]:
    """The prompt, schema and parser for `request`, by its type, the request first cut to its
    operation's prompt budget (`cognition.prompt_budget`; `budgets={}`: as it stands)."""
    build = _ASKS[type(request)]
    fitted = prompt_budget.fit(request, lambda r: build(r).prompt, budgets=budgets)
    return cast(Ask[T], build(fitted))
