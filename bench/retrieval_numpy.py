"""The baseline: the paper's formula with numpy, every vector already in memory.

What a process that kept an agent's whole stream in RAM would do: one float32 matrix-vector
product for relevance, vectorised recency and importance, min-max normalisation, a partial sort.
Its float32 arithmetic makes it approximate (it can disagree with `rank` on near-ties); it
stands for "how fast could retrieval be without a database", not for the exact answer.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import datetime

import numpy as np
import numpy.typing as npt

from cognition.retrieval import SECONDS_PER_HOUR
from cognition.types import DEFAULT_RECENCY_DECAY, Memory, RetrievalWeights

EPOCH = datetime(1970, 1, 1)
Array = npt.NDArray[np.float64]


class NumpyIndex:
    """One agent's memories as arrays, built once."""

    def __init__(self, memories: Sequence[Memory], now: datetime) -> None:
        dimension = max((len(m.embedding) for m in memories if m.embedding is not None), default=1)
        self.matrix = np.zeros((len(memories), dimension), dtype=np.float32)
        for i, memory in enumerate(memories):
            if memory.embedding is not None:
                self.matrix[i] = memory.embedding
        self.norms = np.linalg.norm(self.matrix, axis=1)
        self.accessed = np.array([_epoch(m.last_accessed_at) for m in memories])
        self.created = np.array([_epoch(m.created_at) for m in memories])
        self.importance = np.array([m.importance for m in memories], dtype=np.float64)
        self.ids = np.array([m.id for m in memories], dtype=np.int64)
        self.now = _epoch(now)

    def top_k(self, query: Sequence[float], weights: RetrievalWeights, k: int) -> list[int]:
        q = np.asarray(query, dtype=np.float32)
        with np.errstate(divide="ignore", invalid="ignore"):
            relevance = (self.matrix @ q) / (self.norms * np.linalg.norm(q))
        relevance = np.nan_to_num(relevance, nan=0.0)
        hours = np.maximum(0.0, (self.now - self.accessed) / SECONDS_PER_HOUR)
        recency = np.power(DEFAULT_RECENCY_DECAY, hours)
        score = (
            weights.recency * _normalized(recency)
            + weights.importance * _normalized(self.importance)
            + weights.relevance * _normalized(relevance)
        )
        if k < len(score):
            kth = np.partition(score, len(score) - k)[len(score) - k]
            candidates = np.flatnonzero(score >= kth)
        else:
            candidates = np.arange(len(score))
        order = np.lexsort((self.ids[candidates], self.created[candidates], score[candidates]))
        return [int(i) for i in self.ids[candidates[order[::-1]]][:k]]

    def time(
        self, queries: Sequence[Sequence[float]], weights: RetrievalWeights, k: int
    ) -> tuple[list[float], list[float], list[list[int]]]:
        """Wall and CPU milliseconds (every thread of the process) of each query, and its ids."""
        latencies, cpu, results = [], [], []
        for query in queries:
            started, cpu_started = time.perf_counter(), time.process_time()
            results.append(self.top_k(query, weights, k))
            latencies.append((time.perf_counter() - started) * 1000.0)
            cpu.append((time.process_time() - cpu_started) * 1000.0)
        return latencies, cpu, results


def _normalized(values: Array) -> Array:
    low, high = float(values.min()), float(values.max())
    if high == low:
        return np.zeros_like(values, dtype=np.float64)
    return (values - low) / (high - low)


def _epoch(at: datetime) -> float:
    return (at - EPOCH).total_seconds()
