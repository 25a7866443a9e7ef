"""The two model interfaces every cognitive function goes through: the Mind and the Embedder.

A Mind answers typed requests (`cognition.requests`: rate these memories, plan this day, what
to say next) through one method, `think`; it never returns free text where a structure is
meant. Implementations: `cognition.offline.OfflineMind`
(deterministic heuristics, no model) and `cognition.adapters.llm.LLMMind` (any
OpenAI-compatible endpoint). Every call is reported to an `AuditSink` as a `CallRecord`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar, runtime_checkable

from cognition.requests import Request
from cognition.types import CallRecord

T = TypeVar("T")


Finish = Callable[[CallRecord], None]
"""Records a call that was announced with `AuditSink.begin`, once it came back."""


class AuditSink(Protocol):
    """Receives one record per model call; the database layer turns them into `llm_calls` rows.

    It is also asked before each call to a language model (`admit`): the sink of a world's unit
    of work meters that world's budget (`cognition.budget`, `db.budget`)."""

    def record(self, call: CallRecord) -> None:
        """A call that is over (an offline answer, a fallback)."""
        ...

    def begin(self, operation: str, model: str, prompt: str | None) -> Finish:
        """A call to a model endpoint about to be made; the returned function records it when it
        comes back. A call that never comes back (its process was killed) stays announced: the
        database's sink writes the announcement before the call."""
        ...

    def admit(self, operation: str) -> None:
        """Count one call to the model about to be made, or raise `OverBudget`."""
        ...


class NullAudit:
    """An audit sink that drops records, for callers that do not keep an audit trail."""

    def record(self, call: CallRecord) -> None:
        return None

    def begin(self, operation: str, model: str, prompt: str | None) -> Finish:
        return self.record

    def admit(self, operation: str) -> None:
        return None


class ListAudit:
    """An audit sink that keeps records in memory until the caller writes them out."""

    def __init__(self) -> None:
        self.calls: list[CallRecord] = []

    def record(self, call: CallRecord) -> None:
        self.calls.append(call)

    def begin(self, operation: str, model: str, prompt: str | None) -> Finish:
        return self.record

    def admit(self, operation: str) -> None:
        return None


@runtime_checkable
class Mind(Protocol):
    """The language faculty of every agent: one entry point for every request type.

    The operations are the request types of `cognition.requests`; all times are game time.
    """

    @property
    def model(self) -> str:
        """The model name recorded in the audit ("offline-heuristic" for the offline mind)."""
        ...

    def with_audit(self, audit: AuditSink) -> Mind:
        """The same mind reporting its calls to `audit` (cheap: shares clients and caches)."""
        ...

    def think(self, request: Request[T]) -> T:
        """The answer to `request`, of the type the request names."""
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
