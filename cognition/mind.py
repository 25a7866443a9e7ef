"""The two model interfaces every cognitive function goes through: the Mind and the Embedder.

A Mind answers typed questions (rate these memories, plan this day, what to say next); it never
returns free text where a structure is meant. Implementations: `cognition.offline.OfflineMind`
(deterministic heuristics, no model) and `cognition.adapters.llm.LLMMind` (any
OpenAI-compatible endpoint). Every call is reported to an `AuditSink` as a `CallRecord`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Protocol, runtime_checkable

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


class AuditSink(Protocol):
    """Receives one record per model call; the database layer turns them into `llm_calls` rows."""

    def record(self, call: CallRecord) -> None: ...


class NullAudit:
    """An audit sink that drops records, for callers that do not keep an audit trail."""

    def record(self, call: CallRecord) -> None:
        return None


class ListAudit:
    """An audit sink that keeps records in memory until the caller writes them out."""

    def __init__(self) -> None:
        self.calls: list[CallRecord] = []

    def record(self, call: CallRecord) -> None:
        self.calls.append(call)


@runtime_checkable
class Mind(Protocol):
    """The language faculty of every agent. All times are game time."""

    @property
    def model(self) -> str:
        """The model name recorded in the audit ("offline-heuristic" for the offline mind)."""
        ...

    def with_audit(self, audit: AuditSink) -> Mind:
        """The same mind reporting its calls to `audit` (cheap: shares clients and caches)."""
        ...

    def rate_importance(self, memories: Sequence[str]) -> list[int]:
        """Poignancy 1–10 of each memory, in order, on the paper's scale."""
        ...

    def reflection_questions(self, records: Sequence[str], n: int = 3) -> list[str]:
        """The n most salient high-level questions about the subjects of the records."""
        ...

    def insights(self, question: str, statements: Sequence[str], n: int = 5) -> list[Insight]:
        """Up to n insights from the numbered statements, citing them by 1-based index."""
        ...

    def plan_day(
        self,
        *,
        persona: Persona,
        summary: str,
        previous_day: str,
        directives: Sequence[str],
        now: datetime,
    ) -> list[PlanItem]:
        """The day outline: 5–8 items in time order starting at the agent's wake-up."""
        ...

    def decompose(
        self,
        *,
        item: PlanItem,
        granularity: Granularity,
        persona: Persona,
        summary: str,
    ) -> list[PlanItem]:
        """Split a plan item into hour chunks or 5–15 minute actions covering its span."""
        ...

    def choose_location(self, action: str, known_places: Sequence[str]) -> str:
        """The known place path ("Area: sub-area: object") where the action happens."""
        ...

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
        """Whether to react to an observation, and if so what to do or whom to talk to."""
        ...

    def relationship(
        self, *, name: str, other: str, statements: Sequence[str]
    ) -> RelationshipUpdate:
        """How `name` sees `other` (summary and sentiment 0–10) from retrieved statements."""
        ...

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
        """The speaker's next line given who they talk to, why, and what was said so far."""
        ...

    def summarize_agent(self, *, persona: Persona, retrieved: Mapping[str, Sequence[str]]) -> str:
        """The paper's summary description from three retrievals: core, occupation, feeling."""
        ...

    def object_state(self, action: str, obj: str) -> str | None:
        """The state an object takes while the action uses it, or None if it is unaffected."""
        ...

    def emoji(self, action: str) -> str:
        """One or two emoji that show the action in a game's speech bubble."""
        ...

    def answer(
        self, *, question: str, persona: Persona, summary: str, asker: str, memories: Sequence[str]
    ) -> Answer:
        """The agent's in-character answer, citing the 1-based indices of memories it used."""
        ...


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into vectors of one fixed space (provider, model, dimension)."""

    @property
    def provider(self) -> str: ...

    @property
    def model(self) -> str: ...

    @property
    def dimension(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text, in order, all of `dimension` floats."""
        ...
