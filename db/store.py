"""`PgMemoryStore`: cognition's `MemoryStore` protocol over one agent's rows in PostgreSQL.

Cognition functions read and write memory only through the protocol, so the same reflection or
planning code runs on this store in production and on an in-memory list in unit tests.
Retrieval is the exact fast path in `db.retrieval`; touching the results is a separate
statement, as the paper's function requires. The store never commits: its caller's edge does.

`world_store` opens one with its world's weights (`db.queries.worlds.effective_weights`).
"""

from __future__ import annotations

import uuid
from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from cognition.mind import Embedder
from cognition.types import Memory, MemoryKind, NewMemory, RetrievalWeights, ScoredMemory
from db import retrieval
from db.models import Memory as MemoryRow
from db.models import World
from db.queries.memories import add_memories
from db.queries.memory_rows import MEMORY_COLUMNS, to_memory
from db.queries.worlds import effective_weights
from db.retrieval.observed import observed_search
from db.settings import Settings


class PgMemoryStore:
    """One agent's memory stream in PostgreSQL (implements `cognition.store.MemoryStore`)."""

    def __init__(
        self,
        session: Session,
        *,
        world_id: uuid.UUID,
        agent_id: uuid.UUID,
        embedder: Embedder,
        weights_default: RetrievalWeights = RetrievalWeights(),
    ) -> None:
        self._session = session
        self._world_id = world_id
        self._agent_id = agent_id
        self._embedder = embedder
        self._weights = weights_default

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
        """The paper's top-k for `query` at game time `now`; touching marks them accessed."""
        [query_embedding] = self._embedder.embed([query])
        with observed_search(self._agent_id) as trace:
            scored = retrieval.search(
                self._session,
                agent_id=self._agent_id,
                query_embedding=query_embedding,
                now=now,
                weights=weights or self._weights,
                k=k,
                kinds=None if kinds is None else [str(kind) for kind in kinds],
                trace=trace,
            )
        if touch:
            self.touch([s.memory.id for s in scored], now=now)
        return scored

    def touch(self, ids: Sequence[int], *, now: datetime) -> None:
        """Mark memories accessed at `now` (callers that trim results touch only what they keep)."""
        if ids:
            retrieval.touch(self._session, ids=ids, now=now)

    def recent(self, n: int, *, kinds: Collection[MemoryKind] | None = None) -> list[Memory]:
        """The n most recently created memories, newest first (the agent's b-tree order)."""
        query = self._select().order_by(MemoryRow.created_at.desc(), MemoryRow.id.desc())
        if kinds is not None:
            query = query.where(MemoryRow.kind.in_([k.value for k in kinds]))
        return [to_memory(row) for row in self._session.execute(query.limit(n))]

    def add(self, items: Sequence[NewMemory], *, now: datetime) -> list[Memory]:
        """Write memories (reflections with their evidence) in one statement."""
        rows = add_memories(
            self._session, world_id=self._world_id, agent_id=self._agent_id, items=items, now=now
        )
        return [to_memory(row) for row in rows]

    def get(self, ids: Sequence[int]) -> list[Memory]:
        """Memories of this agent by id, in the order asked; unknown ids are skipped."""
        if not ids:
            return []
        rows = self._session.execute(self._select().where(MemoryRow.id.in_(list(ids))))
        found = {m.id: m for m in (to_memory(row) for row in rows)}
        return [found[i] for i in ids if i in found]

    def _select(self) -> sa.Select[*tuple[Any, ...]]:
        """Only the columns a `Memory` needs, as Core rows: no ORM object per row."""
        return sa.select(*MEMORY_COLUMNS).where(MemoryRow.agent_id == self._agent_id)


def world_store(
    session: Session, *, world: World, agent_id: uuid.UUID, embedder: Embedder, settings: Settings
) -> PgMemoryStore:
    """An agent's store ranking with its world's weights (the usual way to open one)."""
    return PgMemoryStore(
        session,
        world_id=world.id,
        agent_id=agent_id,
        embedder=embedder,
        weights_default=effective_weights(world, settings),
    )
