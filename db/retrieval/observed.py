"""Retrieval latency by path and what the in-process cache held, for `/metrics`.

Recorded around `db.retrieval.search` by its caller (the store), from the search's own
trace: the path it took, and whether the agent's rows were already in this process's cache
before the search (a hit) or the search loaded them (a load).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from db.metrics import metrics
from db.retrieval.trace import SearchTrace
from db.retrieval.vector_cache import process_cache


@contextmanager
def observed_search(agent_id: uuid.UUID) -> Iterator[SearchTrace]:
    """A trace to pass to `search`; its path and time are counted when the block exits."""
    cache = process_cache()
    held = cache is not None and agent_id in cache
    trace = SearchTrace()
    started = time.perf_counter()
    yield trace
    seconds = time.perf_counter() - started
    path = _path(trace.path)
    m = metrics()
    m.retrieval_seconds.labels(path).observe(seconds)
    if path == "cached":
        m.retrieval_cache.labels("hit" if held else "load").inc()
    else:
        m.retrieval_cache.labels("bypass").inc()


def _path(traced: str) -> str:
    if traced == "cached":
        return "cached"
    return "brute_force" if traced.startswith("brute force") else "sql"
