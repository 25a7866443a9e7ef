"""Helpers shared by the loop tests: a store that records its retrievals, and memory seeding."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from cognition.hashing_embedder import HashingEmbedder
from cognition.testing import InMemoryStore
from cognition.types import Memory, MemoryKind, NewMemory, RetrievalWeights, ScoredMemory


@dataclass(frozen=True)
class Retrieval:
    """One `retrieve` call as the loop made it, with what it returned."""

    query: str
    k: int
    results: tuple[ScoredMemory, ...]

    @property
    def descriptions(self) -> list[str]:
        return [s.memory.description for s in self.results]

    @property
    def ids(self) -> tuple[int, ...]:
        return tuple(s.memory.id for s in self.results)


class RecordingStore(InMemoryStore):
    """An `InMemoryStore` that remembers every retrieval, so tests can check what loops used."""

    def __init__(self) -> None:
        super().__init__(HashingEmbedder())
        self.retrievals: list[Retrieval] = []

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
        results = super().retrieve(query, k=k, now=now, kinds=kinds, weights=weights, touch=touch)
        self.retrievals.append(Retrieval(query, k, tuple(results)))
        return results


def remember(
    store: InMemoryStore,
    texts: Sequence[str],
    *,
    start: datetime,
    step: timedelta = timedelta(minutes=5),
    kind: MemoryKind = MemoryKind.OBSERVATION,
    importance: int | None = None,
) -> list[Memory]:
    """Write `texts` as memories, one `step` apart from `start`, oldest first."""
    items = [
        NewMemory(description=t, kind=kind, created_at=start + i * step, importance=importance)
        for i, t in enumerate(texts)
    ]
    return store.add(items, now=start + len(texts) * step)
