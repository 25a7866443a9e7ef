"""`LLMMind`: the Mind on any OpenAI-compatible endpoint (OpenAI, Azure, Ollama, vLLM, …).

Each operation takes its `Ask` from `cognition.asks` (template + schema + parser), sends it
through the `ChatChannel` (retries, timeouts, output mode, audit), and parses the answer. An
answer that does not parse is re-asked once, quoting the problem; a second failure raises
`InvalidOutput`. With a fallback mind, a model that is unavailable, rejects the request, or
answers unusably twice is replaced by the fallback for that call, and the audit row says so
(`degraded=True`). A refusal is never papered over: it raises `Refused`.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import TypeVar

import openai

from cognition import asks, prompting
from cognition.adapters.chat import ChatChannel, Message
from cognition.adapters.llm_config import LLMConfig, OutputMode
from cognition.errors import InvalidInput, InvalidOutput, ModelError, Refused
from cognition.mind import AuditSink, Mind, NullAudit
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

__all__ = ["LLMConfig", "LLMMind", "OutputMode"]

T = TypeVar("T")
MS_PER_S = 1000.0


class LLMMind:
    """The language faculty backed by a chat model; cheap to copy with another audit sink."""

    def __init__(
        self,
        config: LLMConfig,
        *,
        fallback: Mind | None = None,
        audit: AuditSink | None = None,
        client: openai.OpenAI | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        """No network here: the client connects on the first call."""
        self._channel = ChatChannel(config, client=client, sleep=sleep)
        self._fallback = fallback.with_audit(NullAudit()) if fallback is not None else None
        self._audit: AuditSink = audit or NullAudit()

    @property
    def model(self) -> str:
        return self._channel.config.model

    def with_audit(self, audit: AuditSink) -> LLMMind:
        """The same mind (client, concurrency slots, fallback) reporting to `audit`."""
        twin = copy.copy(self)
        twin._audit = audit
        return twin

    def rate_importance(self, memories: Sequence[str]) -> list[int]:
        if not memories:
            return []
        return self._run(asks.rate_importance(memories), lambda m: m.rate_importance(memories))

    def reflection_questions(self, records: Sequence[str], n: int = 3) -> list[str]:
        ask = asks.reflection_questions(records, n)
        return self._run(ask, lambda m: m.reflection_questions(records, n))

    def insights(self, question: str, statements: Sequence[str], n: int = 5) -> list[Insight]:
        ask = asks.insights(question, statements, n)
        return self._run(ask, lambda m: m.insights(question, statements, n))

    def plan_day(
        self,
        *,
        persona: Persona,
        summary: str,
        previous_day: str,
        directives: Sequence[str],
        now: datetime,
    ) -> list[PlanItem]:
        ask = asks.plan_day(
            persona=persona,
            summary=summary,
            previous_day=previous_day,
            directives=directives,
            now=now,
        )
        return self._run(
            ask,
            lambda m: m.plan_day(
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
        ask = asks.decompose(item=item, granularity=granularity, persona=persona, summary=summary)
        return self._run(
            ask,
            lambda m: m.decompose(
                item=item, granularity=granularity, persona=persona, summary=summary
            ),
        )

    def choose_location(self, action: str, known_places: Sequence[str]) -> str:
        if not known_places:
            raise InvalidInput("an agent that knows no place cannot go anywhere", field="places")
        ask = asks.choose_location(action, known_places)
        return self._run(ask, lambda m: m.choose_location(action, known_places))

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
        ask = asks.react(
            persona=persona,
            summary=summary,
            status=status,
            observation=observation,
            context=context,
            now=now,
        )
        return self._run(
            ask,
            lambda m: m.react(
                persona=persona,
                summary=summary,
                status=status,
                observation=observation,
                context=context,
                now=now,
            ),
        )

    def relationship(
        self, *, name: str, other: str, statements: Sequence[str]
    ) -> RelationshipUpdate:
        ask = asks.relationship(name=name, other=other, statements=statements)
        return self._run(
            ask, lambda m: m.relationship(name=name, other=other, statements=statements)
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
        ask = asks.next_utterance(
            speaker=speaker,
            listener=listener,
            summary=summary,
            relationship=relationship,
            intent=intent,
            memories=memories,
            history=history,
            now=now,
        )
        return self._run(
            ask,
            lambda m: m.next_utterance(
                speaker=speaker,
                listener=listener,
                summary=summary,
                relationship=relationship,
                intent=intent,
                memories=memories,
                history=history,
                now=now,
            ),
        )

    def summarize_agent(self, *, persona: Persona, retrieved: Mapping[str, Sequence[str]]) -> str:
        ask = asks.summarize_agent(persona=persona, retrieved=retrieved)
        return self._run(ask, lambda m: m.summarize_agent(persona=persona, retrieved=retrieved))

    def object_state(self, action: str, obj: str) -> str | None:
        return self._run(asks.object_state(action, obj), lambda m: m.object_state(action, obj))

    def emoji(self, action: str) -> str:
        return self._run(asks.emoji(action), lambda m: m.emoji(action))

    def answer(
        self, *, question: str, persona: Persona, summary: str, asker: str, memories: Sequence[str]
    ) -> Answer:
        ask = asks.answer(
            question=question, persona=persona, summary=summary, asker=asker, memories=memories
        )
        return self._run(
            ask,
            lambda m: m.answer(
                question=question, persona=persona, summary=summary, asker=asker, memories=memories
            ),
        )

    def _run(self, ask: asks.Ask[T], fallback: Callable[[Mind], T]) -> T:
        """The model's parsed answer, or the fallback's when the model cannot give one."""
        try:
            return self._converse(ask)
        except Refused:
            raise
        except ModelError as exc:
            if self._fallback is None:
                raise
            return self._degrade(ask.operation, exc, self._fallback, fallback)

    def _converse(self, ask: asks.Ask[T]) -> T:
        """Ask; on an unusable answer, show the model its answer and the problem, once."""
        messages: list[Message] = [
            {"role": "system", "content": prompting.render("system")},
            {"role": "user", "content": ask.prompt},
        ]
        raw = self._complete(ask, messages)
        try:
            return ask.parse(raw)
        except InvalidOutput as first:
            messages += [
                {"role": "assistant", "content": raw},
                {"role": "user", "content": prompting.render("correction", problem=str(first))},
            ]
        return ask.parse(self._complete(ask, messages))

    def _complete(self, ask: asks.Ask[T], messages: Sequence[Message]) -> str:
        return self._channel.complete(
            operation=ask.operation, messages=messages, schema=ask.schema, audit=self._audit
        )

    def _degrade(self, operation: str, exc: ModelError, mind: Mind, call: Callable[[Mind], T]) -> T:
        """The fallback's answer, audited as degraded with the reason the model failed."""
        started = time.perf_counter()
        result = call(mind)
        keep = self._channel.config.audit_text
        self._audit.record(
            CallRecord(
                operation=operation,
                model=mind.model,
                tokens_in=0,
                tokens_out=0,
                latency_ms=(time.perf_counter() - started) * MS_PER_S,
                error=f"{type(exc).__name__}: {exc}",
                degraded=True,
                response=repr(result) if keep else None,
                extra={"primary_model": self.model},
            )
        )
        return result
