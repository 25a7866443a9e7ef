"""`OfflineMind`: the Mind protocol answered by the heuristics of this package, with an audit.

It is the default when no model is configured and the fallback when one fails, so each call
is reported exactly like a model call: one `CallRecord` per operation, named after the method,
model "offline-heuristic", token counts estimated as ceil(characters / 4) of a compact JSON
rendering of the inputs and outputs, the measured latency, and zero cost.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar, cast

from cognition import requests
from cognition.mind import AuditSink, NullAudit
from cognition.offline import (
    answers,
    decomposition,
    dialogue,
    judging,
    news,
    notes,
    places,
    planning,
    reacting,
    reflection,
    relationships,
    summary,
)
from cognition.requests import Request
from cognition.tokens import estimate_tokens
from cognition.types import CallRecord

if TYPE_CHECKING:
    from cognition.mind import Mind

OFFLINE_MODEL = "offline-heuristic"
"""The model name in the audit: never mistaken for a language model's output."""
MILLISECONDS = 1000.0

T = TypeVar("T")


class OfflineMind:
    """Deterministic heuristic Mind: no model, no network, same inputs → same outputs."""

    def __init__(self, audit: AuditSink | None = None) -> None:
        self._audit: AuditSink = audit if audit is not None else NullAudit()

    @property
    def model(self) -> str:
        return OFFLINE_MODEL

    def with_audit(self, audit: AuditSink) -> OfflineMind:
        """A copy reporting to `audit`; the heuristics hold no state to share."""
        return OfflineMind(audit)

    def think(self, request: Request[T]) -> T:
        """The heuristic answer to `request`, reported to the audit as a model call would be."""
        answer = _HEURISTICS[type(request)]
        return self._call(request.operation, request.inputs(), lambda: cast(T, answer(request)))

    def _call(self, operation: str, inputs: Mapping[str, Any], compute: Callable[[], T]) -> T:
        """Run one heuristic and report it to the audit as a model call would be."""
        started = time.perf_counter()
        result = compute()
        latency_ms = (time.perf_counter() - started) * MILLISECONDS
        prompt, response = render(inputs), render(result)
        self._audit.record(
            CallRecord(
                operation=operation,
                model=OFFLINE_MODEL,
                tokens_in=estimate_tokens(prompt),
                tokens_out=estimate_tokens(response),
                latency_ms=latency_ms,
                cost_usd=0.0,
                prompt=prompt,
                response=response,
            )
        )
        return result


def render(value: object) -> str:
    """Compact, deterministic JSON of inputs or outputs, for the audit's prompt/response text."""
    return json.dumps(_plain(value), ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def _plain(value: object) -> object:
    """Dataclasses, mappings, sequences and datetimes as JSON-ready values."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, datetime):
        return value.isoformat()
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


_HEURISTICS: dict[type[Request[Any]], Callable[[Any], Any]] = {
    requests.RateImportance: lambda r: news.rate_all(r.memories),
    requests.ReflectionQuestions: lambda r: reflection.reflection_questions(
        r.records, r.n, name=r.name
    ),
    requests.Insights: lambda r: reflection.insights(r.question, r.statements, r.n, name=r.name),
    requests.PlanDay: lambda r: planning.plan_day(
        persona=r.persona,
        summary=r.summary,
        previous_day=r.previous_day,
        directives=r.directives,
        now=r.now,
        notes=r.notes,
        known_places=r.known_places,
    ),
    requests.Decompose: lambda r: decomposition.decompose(
        item=r.item, granularity=r.granularity, persona=r.persona, summary=r.summary
    ),
    requests.ChooseLocation: lambda r: places.choose_location(
        r.action,
        r.options,
        at=r.at,
        until=r.until,
        within=r.within,
        current=r.current,
        home=r.home,
    ),
    requests.React: lambda r: reacting.react(
        persona=r.persona,
        summary=r.summary,
        status=r.status,
        observation=r.observation,
        context=r.context,
        now=r.now,
        recalled=r.recalled,
        observed_person=r.observed_person,
    ),
    requests.SummarizeRelationship: lambda r: relationships.relationship(
        name=r.name, other=r.other, statements=r.statements
    ),
    requests.NextUtterance: lambda r: dialogue.next_utterance(
        speaker=r.speaker,
        listener=r.listener,
        intent=r.intent,
        memories=r.memories,
        history=r.history,
        relationship=r.relationship,
        now=r.now,
        listener_status=r.listener_status,
        speaker_status=r.speaker_status,
        place=r.place,
        known_by_world=r.known_by_world,
    ),
    requests.SummarizeAgent: lambda r: summary.summarize_agent(
        persona=r.persona, retrieved=r.retrieved
    ),
    requests.ObjectState: lambda r: places.object_state(r.action, r.obj),
    requests.Emoji: lambda r: places.emoji(r.action),
    requests.AnswerQuestion: lambda r: answers.answer(
        question=r.question,
        persona=r.persona,
        summary=r.summary,
        asker=r.asker,
        memories=r.memories,
        now=r.now,
        known_places=r.known_places,
    ),
    requests.JudgeAnswer: lambda r: judging.knows(answer=r.answer, cues=r.cues, cited=r.cited),
    requests.RankAnswers: lambda r: judging.rank(answers=r.answers, memories=r.memories),
    requests.ConversationNotes: lambda r: notes.conversation_notes(
        name=r.name, other=r.other, lines=r.lines, now=r.now
    ),
    requests.ReviseCurrently: lambda r: notes.revise_currently(
        persona=r.persona, plan_notes=r.plan_notes, events=r.events, now=r.now
    ),
}
"""The heuristic answering each request type."""

if TYPE_CHECKING:
    _conforms: Mind = OfflineMind()
