"""An agent's top k for a query: which exact path answers, and touching what was returned.

Every path returns exactly what `cognition.retrieval.rank` returns over all of the agent's
memories: the process's copy of the agent's rows (`in_process`, the default), the SQL fast path
(`in_sql`) when the agent is not cacheable, and `brute_force`, the reference, for inputs outside
the error analysis (`probe.analysable`) or when a fast path hands over.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from cognition.errors import InvalidInput
from cognition.retrieval import rank
from cognition.types import Memory, RetrievalWeights, ScoredMemory
from db.queries import memory_rows
from db.retrieval import in_process, in_sql, probe
from db.retrieval.trace import SearchTrace
from db.retrieval.vector_cache import VectorCache, process_cache


def search(
    session: Session,
    *,
    agent_id: uuid.UUID,
    query_embedding: Sequence[float] | None,
    now: datetime,
    weights: RetrievalWeights,
    k: int,
    kinds: Collection[str] | None = None,
    trace: SearchTrace | None = None,
    cache: VectorCache | bool = True,
) -> list[ScoredMemory]:
    """The agent's top k for the query at game time `now`: exactly `rank` over all of its
    memories of `kinds` (all kinds when None). Never touches them (see `touch`).

    `cache`: True uses this process's cache (`vector_cache.process_cache`), False searches in
    SQL only, or a given cache."""
    if k < 0:
        raise InvalidInput(f"k must be >= 0, got {k}", field="k")
    trace = trace if trace is not None else SearchTrace()
    kind_list = None if kinds is None else sorted({str(kind) for kind in kinds})
    args: dict[str, Any] = dict(
        agent_id=agent_id,
        query_embedding=query_embedding,
        now=now,
        weights=weights,
        k=k,
        kinds=kind_list,
    )
    if not probe.analysable(query_embedding, now, weights):
        trace.path = "brute force: query, clock or weights outside the error analysis"
        return brute_force(session, **args)
    vectors = process_cache() if cache is True else (cache or None)
    if vectors is not None and kind_list != []:
        found = in_process.search(session, vectors, **args, trace=trace)
        if found is not None:
            trace.path = "cached"
            return found
    result = in_sql.search(session, trace, query=probe.unit_query(query_embedding), **args)
    return brute_force(session, **args) if result is None else result


def touch(session: Session, *, ids: Sequence[int], now: datetime) -> int:
    """Mark memories accessed at game time `now` (the paper touches what it retrieved);
    returns how many rows changed. A separate statement, never part of `search`."""
    if not ids:
        return 0
    return memory_rows.touch(session, ids, now)


def load_memories(
    session: Session, *, agent_id: uuid.UUID, kinds: Collection[str] | None = None
) -> list[Memory]:
    """Every memory of the agent (of `kinds`), as domain values."""
    kind_list = None if kinds is None else sorted({str(kind) for kind in kinds})
    return memory_rows.agent_memories(session, agent_id, kind_list)


def brute_force(
    session: Session,
    *,
    agent_id: uuid.UUID,
    query_embedding: Sequence[float] | None,
    now: datetime,
    weights: RetrievalWeights,
    k: int,
    kinds: Collection[str] | None = None,
) -> list[ScoredMemory]:
    """The reference: load every candidate and `rank` them. What `search` must equal."""
    memories = load_memories(session, agent_id=agent_id, kinds=kinds)
    return rank(memories, query_embedding=query_embedding, now=now, weights=weights, k=k)
