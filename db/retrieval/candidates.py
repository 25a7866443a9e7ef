"""The memories retrieval has seen estimates of (probe and pass) and what they imply.

Each is known by id, estimated relevance r (NaN when not estimable), importance and last access
(seconds since the epoch). From these and the exact extremes, `score_bounds` brackets every
reference score, proves a lower bound of the k-th best (`t_valid`: k distinct memories score at
least that) and keeps the survivors, the memories whose upper bound still reaches it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import numpy as np
import numpy.typing as npt

from cognition.retrieval import SECONDS_PER_HOUR
from cognition.types import DEFAULT_RECENCY_DECAY
from db.retrieval.bounds import (
    RECENCY_TOLERANCE,
    SAFE_NORM_RANGE,
    FloatArray,
    RelevanceRange,
    kth_largest,
    score_bounds,
)
from db.retrieval.probe import Givens
from db.retrieval.statements import PassResult, Relevance, StatsRow

IdArray = npt.NDArray[np.int64]

EPOCH = datetime(1970, 1, 1)
MICROSECONDS_PER_SECOND = 1e6
"""`date_part('epoch', timestamp)` counts seconds from here, as if the game clock were UTC."""


@dataclass(frozen=True)
class Scores:
    t_valid: float
    survivors: set[int]


class Candidates:
    """Estimated memories; a probe row seen again in the pass is counted once."""

    def __init__(
        self, ids: IdArray, r: FloatArray, importance: FloatArray, accessed: FloatArray
    ) -> None:
        self._ids, self._r, self._importance, self._accessed = ids, r, importance, accessed

    @classmethod
    def from_probe(cls, rows: list[StatsRow], mode: Relevance) -> Candidates:
        """The probe's rows with r derived exactly as the pass computes it in `mode` (the
        same float64 division of the same values), so the probe's extremes are the pass's."""
        accessed = np.array([row.last_accessed_at for row in rows], dtype="datetime64[us]")
        return cls(
            np.array([row.id for row in rows], dtype=np.int64),
            _probe_r(rows, mode),
            np.array([row.importance for row in rows], dtype=np.float64),
            (accessed - np.datetime64(EPOCH, "us")).astype(np.int64) / MICROSECONDS_PER_SECOND,
        )

    def add(self, result: PassResult) -> None:
        ids = np.concatenate([self._ids, np.array(result.ids, dtype=np.int64)])
        r = np.concatenate([self._r, np.array(result.rs, dtype=np.float64)])
        importance = np.concatenate([self._importance, np.array(result.importances, dtype=float)])
        accessed = np.concatenate([self._accessed, np.array(result.accessed, dtype=np.float64)])
        _, first = np.unique(ids, return_index=True)
        self._ids, self._r = ids[first], r[first]
        self._importance, self._accessed = importance[first], accessed[first]

    @property
    def unknown(self) -> set[int]:
        """Memories without an estimate: they are always ranked exactly."""
        return set(self._ids[np.isnan(self._r)].tolist())

    @property
    def probe_r(self) -> FloatArray:
        """The estimated relevances seen so far (before the pass: the probe's)."""
        known: FloatArray = self._r[~np.isnan(self._r)]
        return known

    def score_bounds(self, ctx: Givens, rel: RelevanceRange, now_epoch: float) -> Scores:
        known = ~np.isnan(self._r)
        low, high = score_bounds(
            ctx.weights,
            ctx.recency.normalized(_recency(self._accessed[known], now_epoch), RECENCY_TOLERANCE),
            ctx.importance.normalized(self._importance[known], 0.0),
            rel.normalized(self._r[known], ctx.epsilon),
        )
        t_valid = kth_largest(low, ctx.k)
        return Scores(t_valid, set(self._ids[known][high >= t_valid].tolist()))

    def near_extremes(self, ctx: Givens, result: PassResult) -> set[int]:
        """Memories whose estimate is within 2ε of an estimated extreme: the exact minimum and
        maximum relevance are among them (an estimate errs by at most ε either way)."""
        if not ctx.has_query or result.r_min is None or result.r_max is None:
            return set()
        r = self._r
        with np.errstate(invalid="ignore"):
            near = (r <= result.r_min + 2.0 * ctx.epsilon) | (r >= result.r_max - 2.0 * ctx.epsilon)
        return set(self._ids[near].tolist())


def _probe_r(rows: list[StatsRow], mode: Relevance) -> FloatArray:
    """r as the pass's expression for `mode` gives it: the probe's value −(embedding <#> query)
    (0 when not embedded, NaN for another dimension), divided by the norm when CHECKED (NaN
    outside the safe range)."""
    values = np.array([row.value for row in rows], dtype=np.float64)
    if mode is Relevance.NONE:
        return np.zeros_like(values)
    if mode is Relevance.LEAN:
        return values
    norms = np.array([row.norm for row in rows], dtype=np.float64)  # NaN: not embedded
    low, high = SAFE_NORM_RANGE
    with np.errstate(invalid="ignore", divide="ignore"):
        safe = (norms >= low) & (norms <= high)
        checked: FloatArray = np.where(
            np.isnan(norms), values, np.where(safe, values / norms, np.nan)
        )
    return checked


def _recency(accessed: FloatArray, now_epoch: float) -> FloatArray:
    """The reference recency, vectorised (within RECENCY_TOLERANCE of `recency`)."""
    hours = np.maximum(0.0, (now_epoch - accessed) / SECONDS_PER_HOUR)
    result: FloatArray = np.power(DEFAULT_RECENCY_DECAY, hours)
    return result
