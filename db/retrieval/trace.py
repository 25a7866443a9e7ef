"""What one retrieval search did, stage by stage: read by benchmarks and tests."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field


@dataclass
class SearchTrace:
    """What one `search` did (pass one in to read it): for benchmarks and tests."""

    path: str = "fast"
    """"cached", "fast" (SQL), "no candidates", or "brute force: <why>"; "fast" after a
    cache miss says why in `cache_miss`."""
    cache_miss: str = ""
    cache_rows_read: int = 0
    """Rows the cache sync read (all of them when it loaded the agent, then the changed ones)."""
    relevance: str = ""
    passes: int = 0
    captured: int = 0
    repaired: int = 0
    ranked: int = 0
    milliseconds: dict[str, float] = field(default_factory=dict)

    @contextmanager
    def stage(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        yield
        self.milliseconds[name] = (time.perf_counter() - started) * 1000.0
