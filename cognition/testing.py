"""Test support shipped with cognition: a fixed clock, an in-memory store and a scripted Mind.

They let every loop run in a unit test with no database and no network. `InMemoryStore` ranks
with `cognition.retrieval.rank` — the reference the database's fast path is tested against —
so a loop tested on it sees the memories it would see in production. `ScriptedMind` answers
what a test scripts, records every call's inputs (so a test can assert what a loop asked), and
answers anything unscripted with the deterministic `OfflineMind`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, TypeVar, cast

from cognition.mind import AuditSink, Embedder, Mind
from cognition.offline import OfflineMind
from cognition.offline.importance import rate as provisional_importance
from cognition.requests import Request
from cognition.retrieval import rank
from cognition.types import (
    Memory,
    MemoryKind,
    NewMemory,
    RetrievalWeights,
    ScoredMemory,
)

T = TypeVar("T")

if TYPE_CHECKING:
    from cognition.store import MemoryStore


@dataclass
class FixedClock:
    """Game time that moves only when a test moves it."""

    at: datetime

    def now(self) -> datetime:
        return self.at

    def advance(self, delta: timedelta) -> datetime:
        """Move the clock forward by `delta` and return the new time."""
        self.at += delta
        return self.at


class InMemoryStore:
    """One agent's memory stream over a dict, ranked by `rank` and embedded at write time.

    Like the database store, `retrieve` touches the returned memories (sets `last_accessed_at`
    to `now`) after ranking; the `ScoredMemory` values it returns are those that were ranked.
    Evidence of reflections is kept in `evidence` (reflection id → cited ids).
    """

    def __init__(self, embedder: Embedder, memories: Iterable[Memory] = ()) -> None:
        self._embedder = embedder
        self._memories: dict[int, Memory] = {m.id: m for m in memories}
        self._next_id = max(self._memories, default=0) + 1
        self.evidence: dict[int, tuple[int, ...]] = {}

    @property
    def memories(self) -> list[Memory]:
        """Every memory, in id (write) order."""
        return [self._memories[i] for i in sorted(self._memories)]

    def retrieve(
        self,
        query: str,
        *,
        k: int,
        now: datetime,
        kinds: Collection[MemoryKind] | None = None,
        weights: RetrievalWeights | None = None,
        touch: bool = True,
    ) -> list[ScoredMemory]:
        candidates = [m for m in self.memories if kinds is None or m.kind in kinds]
        query_embedding = self._embedder.embed([query])[0]
        ranked = rank(
            candidates,
            query_embedding=query_embedding,
            now=now,
            weights=weights or RetrievalWeights(),
            k=k,
        )
        if touch:
            for scored in ranked:
                self._memories[scored.memory.id] = replace(scored.memory, last_accessed_at=now)
        return ranked

    def recent(self, n: int, *, kinds: Collection[MemoryKind] | None = None) -> list[Memory]:
        candidates = [m for m in self._memories.values() if kinds is None or m.kind in kinds]
        candidates.sort(key=lambda m: (m.created_at, m.id), reverse=True)
        return candidates[:n]

    def add(self, items: Sequence[NewMemory], *, now: datetime) -> list[Memory]:
        vectors = self._embedder.embed([item.description for item in items])
        return [self._write(item, vector, now) for item, vector in zip(items, vectors, strict=True)]

    def get(self, ids: Sequence[int]) -> list[Memory]:
        return [self._memories[i] for i in ids if i in self._memories]

    def _write(self, item: NewMemory, vector: list[float], now: datetime) -> Memory:
        created = item.created_at or now
        memory = Memory(
            id=self._next_id,
            kind=item.kind,
            description=item.description,
            created_at=created,
            last_accessed_at=created,
            importance=item.importance or provisional_importance(item.description),
            depth=item.depth,
            embedding=vector,
            subject=item.subject,
            predicate=item.predicate,
            object=item.object,
            source=item.source,
        )
        self._memories[memory.id] = memory
        if item.evidence_ids:
            self.evidence[memory.id] = item.evidence_ids
        self._next_id += 1
        return memory


Scripted = Sequence[Any] | Callable[..., Any]
"""Answers in order (then the fallback answers), or a function of the call's inputs."""


@dataclass(frozen=True)
class Call:
    """One operation asked of a `ScriptedMind`, with its inputs by parameter name."""

    operation: str
    inputs: Mapping[str, Any] = field(default_factory=dict)


class ScriptedMind:
    """A fake Mind: scripted answers per operation, every call recorded, the rest offline."""

    def __init__(
        self, script: Mapping[str, Scripted] | None = None, *, fallback: Mind | None = None
    ) -> None:
        self._script: dict[str, Scripted] = {
            op: answers if callable(answers) else list(answers)
            for op, answers in (script or {}).items()
        }
        self._fallback: Mind = fallback if fallback is not None else OfflineMind()
        self.calls: list[Call] = []

    def count(self, operation: str) -> int:
        """How many times `operation` was asked."""
        return len(self.inputs(operation))

    def inputs(self, operation: str) -> list[Mapping[str, Any]]:
        """The inputs of every call of `operation`, in call order."""
        return [call.inputs for call in self.calls if call.operation == operation]

    @property
    def model(self) -> str:
        return "scripted"

    def with_audit(self, audit: AuditSink) -> ScriptedMind:
        """The same mind: a test inspects `calls`, not an audit trail."""
        return self

    def think(self, request: Request[T]) -> T:
        """The scripted answer for the request's operation, else the fallback's."""
        inputs = request.inputs()
        self.calls.append(Call(request.operation, inputs))
        scripted = self._script.get(request.operation)
        if callable(scripted):
            return cast(T, scripted(**inputs))
        if isinstance(scripted, list) and scripted:
            return cast(T, scripted.pop(0))
        return self._fallback.think(request)


if TYPE_CHECKING:
    from cognition.hashing_embedder import HashingEmbedder

    _mind_conforms: Mind = ScriptedMind()
    _store_conforms: MemoryStore = InMemoryStore(HashingEmbedder())
