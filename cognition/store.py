"""The memory store protocol: how cognition reads and writes one agent's memory stream.

`db.store.PgMemoryStore` implements it on PostgreSQL; `cognition.testing.InMemoryStore`
implements it over a list for unit tests, ranking with `cognition.retrieval.rank`. Both must
answer `retrieve` identically — the paper's function, exactly.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Protocol

from cognition.types import Memory, MemoryKind, NewMemory, RetrievalWeights, ScoredMemory


class MemoryStore(Protocol):
    """One agent's memory stream."""

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
        """Top-k memories for the query by the paper's score; touching marks them accessed."""
        ...

    def recent(self, n: int, *, kinds: Collection[MemoryKind] | None = None) -> list[Memory]:
        """The n most recently created memories, newest first."""
        ...

    def add(self, items: Sequence[NewMemory], *, now: datetime) -> list[Memory]:
        """Write memories (and reflections' evidence); returns them with ids."""
        ...

    def get(self, ids: Sequence[int]) -> list[Memory]:
        """Memories by id, in the order asked (unknown ids are skipped)."""
        ...
