"""`DeferredTouchStore`, the memory store a job thinks with: `PgMemoryStore`, with its touches
applied at the end.

Retrieval marks what it returns as accessed (`last_accessed_at = now`). Done at once, each
touch holds row locks on those memories until the job commits — through every model call that
follows — so enrichment, which locks unenriched memories in id order, would wait on a slow
job, and two jobs touching in different orders can deadlock. A job's retrievals all happen at
one game time, so this store collects the touches and `finish()` applies them just before the
commit, locking the rows in id order first. Within one job, a retrieval therefore does not see
the touches of the job's earlier retrievals: the questions of one reflection, asked at the same
moment, do not bias one another. It also remembers the ids of what the job wrote.

Lock order, the same as enrichment's: memory rows (in id order), then the agent's row. So a
job applies its touches (`finish`) before it updates its agent, and `add` applies them — with
the rows a reflection cites — before writing.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Session

from cognition.types import Memory, MemoryKind, NewMemory, RetrievalWeights, ScoredMemory
from db.models import Memory as MemoryRow
from db.store import PgMemoryStore


class DeferredTouchStore:
    """Implements `cognition.store.MemoryStore` over a `PgMemoryStore` (module docstring)."""

    def __init__(self, session: Session, inner: PgMemoryStore) -> None:
        self._session = session
        self._inner = inner
        self._touched: dict[int, datetime] = {}
        self.written: list[int] = []

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
        found = self._inner.retrieve(query, k=k, now=now, kinds=kinds, weights=weights, touch=False)
        if touch:
            for scored in found:
                seen = self._touched.get(scored.memory.id)
                self._touched[scored.memory.id] = now if seen is None else max(seen, now)
        return found

    def recent(self, n: int, *, kinds: Collection[MemoryKind] | None = None) -> list[Memory]:
        return self._inner.recent(n, kinds=kinds)

    def add(self, items: Sequence[NewMemory], *, now: datetime) -> list[Memory]:
        """Write memories; the touches so far (and the rows a reflection cites) are locked in
        id order and applied first, so this job takes its memory-row locks in one order."""
        self.finish(also_lock=[i for item in items for i in item.evidence_ids])
        added = self._inner.add(items, now=now)
        self.written += [m.id for m in added]
        return added

    def get(self, ids: Sequence[int]) -> list[Memory]:
        return self._inner.get(ids)

    def discard(self) -> None:
        """Forget the collected touches (the job's work was rolled back)."""
        self._touched.clear()

    def finish(self, *, also_lock: Sequence[int] = ()) -> None:
        """Apply the collected touches, the rows locked in id order first. Call it before the
        job updates its agent's row (enrichment locks memories, then agents: same order)."""
        ids = sorted(set(self._touched) | set(also_lock))
        if not ids:
            return
        self._session.execute(
            sa.select(MemoryRow.id)
            .where(MemoryRow.id.in_(ids))
            .order_by(MemoryRow.id)
            .with_for_update()
        )
        for at in sorted(set(self._touched.values())):
            self._inner.touch([i for i in ids if self._touched.get(i) == at], now=at)
        self._touched.clear()
