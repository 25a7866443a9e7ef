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
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

from cognition.mind import AuditSink, NullAudit
from cognition.offline import (
    decomposition,
    dialogue,
    importance,
    places,
    planning,
    reacting,
    reflection,
    relationships,
    summary,
)
from cognition.offline.text import estimate_tokens
from cognition.types import (
    Answer,
    CallRecord,
    Granularity,
    Insight,
    Persona,
    PlanItem,
    Reaction,
    RelationshipUpdate,
    Utterance,
)

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

    def rate_importance(self, memories: Sequence[str]) -> list[int]:
        return self._call(
            "rate_importance", {"memories": memories}, lambda: importance.rate_all(memories)
        )

    def reflection_questions(self, records: Sequence[str], n: int = 3) -> list[str]:
        return self._call(
            "reflection_questions",
            {"records": records, "n": n},
            lambda: reflection.reflection_questions(records, n),
        )

    def insights(self, question: str, statements: Sequence[str], n: int = 5) -> list[Insight]:
        return self._call(
            "insights",
            {"question": question, "statements": statements, "n": n},
            lambda: reflection.insights(question, statements, n),
        )

    def plan_day(
        self,
        *,
        persona: Persona,
        summary: str,
        previous_day: str,
        directives: Sequence[str],
        now: datetime,
    ) -> list[PlanItem]:
        return self._call(
            "plan_day",
            {
                "persona": persona,
                "summary": summary,
                "previous_day": previous_day,
                "directives": directives,
                "now": now,
            },
            lambda: planning.plan_day(
                persona=persona,
                summary=summary,
                previous_day=previous_day,
                directives=directives,
                now=now,
            ),
        )

    def decompose(
        self, *, item: PlanItem, granularity: Granularity, persona: Persona, summary: str
    ) -> list[PlanItem]:
        return self._call(
            "decompose",
            {"item": item, "granularity": granularity, "persona": persona, "summary": summary},
            lambda: decomposition.decompose(
                item=item, granularity=granularity, persona=persona, summary=summary
            ),
        )

    def choose_location(self, action: str, known_places: Sequence[str]) -> str:
        return self._call(
            "choose_location",
            {"action": action, "known_places": known_places},
            lambda: places.choose_location(action, known_places),
        )

    def react(
        self,
        *,
        persona: Persona,
        summary: str,
        status: str,
        observation: str,
        context: str,
        now: datetime,
    ) -> Reaction:
        return self._call(
            "react",
            {
                "persona": persona,
                "summary": summary,
                "status": status,
                "observation": observation,
                "context": context,
                "now": now,
            },
            lambda: reacting.react(
                persona=persona,
                summary=summary,
                status=status,
                observation=observation,
                context=context,
            ),
        )

    def relationship(
        self, *, name: str, other: str, statements: Sequence[str]
    ) -> RelationshipUpdate:
        return self._call(
            "relationship",
            {"name": name, "other": other, "statements": statements},
            lambda: relationships.relationship(name=name, other=other, statements=statements),
        )

    def next_utterance(
        self,
        *,
        speaker: Persona,
        listener: str,
        summary: str,
        relationship: str,
        intent: str,
        memories: Sequence[str],
        history: Sequence[tuple[str, str]],
        now: datetime,
    ) -> Utterance:
        return self._call(
            "next_utterance",
            {
                "speaker": speaker,
                "listener": listener,
                "summary": summary,
                "relationship": relationship,
                "intent": intent,
                "memories": memories,
                "history": history,
                "now": now,
            },
            lambda: dialogue.next_utterance(
                speaker=speaker,
                listener=listener,
                intent=intent,
                memories=memories,
                history=history,
            ),
        )

    def summarize_agent(self, *, persona: Persona, retrieved: Mapping[str, Sequence[str]]) -> str:
        return self._call(
            "summarize_agent",
            {"persona": persona, "retrieved": retrieved},
            lambda: summary.summarize_agent(persona=persona, retrieved=retrieved),
        )

    def object_state(self, action: str, obj: str) -> str | None:
        return self._call(
            "object_state",
            {"action": action, "object": obj},
            lambda: places.object_state(action, obj),
        )

    def emoji(self, action: str) -> str:
        return self._call("emoji", {"action": action}, lambda: places.emoji(action))

    def answer(
        self, *, question: str, persona: Persona, summary: str, asker: str, memories: Sequence[str]
    ) -> Answer:
        return self._call(
            "answer",
            {
                "question": question,
                "persona": persona,
                "summary": summary,
                "asker": asker,
                "memories": memories,
            },
            lambda: dialogue.answer(
                question=question,
                persona=persona,
                summary=summary,
                asker=asker,
                memories=memories,
            ),
        )

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


if TYPE_CHECKING:
    _conforms: Mind = OfflineMind()
