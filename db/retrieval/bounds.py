"""The arithmetic that lets retrieval prune without approximating its result.

The fast path (`db.retrieval`) sees most memories' relevance only through pgvector's
float32 inner product, and their recency through float seconds since the epoch: both
approximate. This module turns them into rigorous intervals around what
`cognition.retrieval.rank` computes, from which `cuts` and `candidates`
decide which memories cannot reach the top k. It never decides the result: the survivors are
ranked by `rank` itself. No database here.

Notation: for a memory, r is the SQL estimate of its raw relevance, S its reference score;
a, b, c are the recency, importance and relevance weights.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from cognition.types import RetrievalWeights

FloatArray = npt.NDArray[np.float64]

FLOAT32_UNIT_ROUNDOFF = 2.0**-24
"""u of IEEE float32, round to nearest: each pgvector product or sum errs by ≤ u relatively."""

ABSOLUTE_SLACK = 2.0**-30
"""Added to the relevance bound for everything below float32 precision: float64 roundings of
the query's normalisation, the norm and the division ((n + 8)·2^-52 ≤ 4e-12 for pgvector's
16000 dimensions), the reference's own rounding (≈ 1e-15) and float32 underflow (≤ n·2^-89
for norms ≥ 2^-60)."""

SAFE_NORM_RANGE = (2.0**-60, 2.0**60)
"""Stored vectors with a norm outside this range are never estimated, only recomputed exactly:
below it float32 underflow could dominate the error, above it products could overflow."""

SAFE_QUERY_NORM_RANGE = (2.0**-200, 2.0**200)
"""A query outside it skips the fast path: the reference's own float64 squares could underflow,
so its cosines would no longer be within ≈ 1e-15 of the true ones the bound is about."""

RECENCY_TOLERANCE = 2.0**-36
"""|estimated − reference| raw recency (which is ≤ 1): SQL's `date_part('epoch', …)` and numpy's
hours differ from Python's timedelta arithmetic by < 1e-6 s, i.e. < 1e-12 in recency."""

SMALLEST_RECENCY = 2.0**-1000
"""Below this the reference's recency nears float64 underflow (≈ 16 game years untouched),
where its monotonicity in last_accessed_at is no longer guaranteed: brute force then."""

KTH_SAMPLE = 4096
"""Above this many values `kth_largest` bounds the answer from a sample first."""

SCORE_TOLERANCE = 2.0**-40
"""Times |a| + |b| + |c|: the float64 roundings of normalising, weighting and summing (a few
ulp each), on both sides of every score comparison."""


def unit_vector(embedding: Sequence[float]) -> npt.NDArray[np.float32]:
    """The query as both estimates see it: unit-normalised in float64, rounded to float32,
    subnormals flushed to 0 (an error far below ε)."""
    vector = np.asarray(embedding, dtype=np.float64)
    unit = (vector / np.linalg.norm(vector)).astype(np.float32)
    unit[np.abs(unit) < np.finfo(np.float32).tiny] = 0.0
    return unit


def relevance_error(dimension: int) -> float:
    """ε: how far pgvector's float32 cosine estimate can be from the reference cosine.

    Summing n float32 products in any order (SIMD lanes, FMA) errs by at most
    γ_n·Σ|x_i·m_i| with γ_n = n·u / (1 − n·u) (Higham, *Accuracy and Stability of Numerical
    Algorithms*, §3.1), and Σ|x_i·m_i| ≤ |x|·|m| (Cauchy–Schwarz). The query is unit-normalised
    in float64 and rounded to float32 (u per component: |x| ≤ 1 + u, and a further u·|m| off
    the exact product); the sum is divided by the float64 norm of m.
    """
    n_u = dimension * FLOAT32_UNIT_ROUNDOFF
    if n_u >= 1.0:
        return math.inf
    gamma = n_u / (1.0 - n_u)
    return gamma * (1.0 + 2.0 * FLOAT32_UNIT_ROUNDOFF) + FLOAT32_UNIT_ROUNDOFF + ABSOLUTE_SLACK


def lean_relevance_error(dimension: int, largest_norm: float, norm_deviation: float) -> float:
    """ε when r is the float32 inner product itself, not divided by the norm M: the product
    errs by (γ_n·(1 + u) + u)·M as in `relevance_error`, and x·m differs from the cosine
    x·m / M by |cosine|·|M − 1| ≤ |M − 1|."""
    n_u = dimension * FLOAT32_UNIT_ROUNDOFF
    if n_u >= 1.0:
        return math.inf
    gamma = n_u / (1.0 - n_u)
    product = (gamma * (1.0 + 2.0 * FLOAT32_UNIT_ROUNDOFF) + FLOAT32_UNIT_ROUNDOFF) * largest_norm
    return product + norm_deviation + ABSOLUTE_SLACK


@dataclass(frozen=True)
class RelevanceRange:
    """What is known of the minimum and maximum raw relevance over all candidates."""

    min_low: float
    min_high: float
    max_low: float
    max_high: float

    @property
    def widest_span(self) -> float:
        return self.max_high - self.min_low

    @classmethod
    def constant_zero(cls) -> RelevanceRange:
        """No query embedding: every relevance is exactly 0."""
        return cls(0.0, 0.0, 0.0, 0.0)

    @classmethod
    def from_estimates(
        cls, r_min: float | None, r_max: float | None, *, epsilon: float, unknown: bool
    ) -> RelevanceRange:
        """From the SQL pass: the estimated extremes (±ε) and whether some memories were left
        unestimated (`unknown`: their exact relevance can be anything in [-1, 1])."""
        if r_min is None or r_max is None:
            return cls(-1.0, 1.0, -1.0, 1.0)
        return cls(
            min_low=-1.0 if unknown else max(-1.0, r_min - epsilon),
            min_high=min(1.0, r_min + epsilon),
            max_low=max(-1.0, r_max - epsilon),
            max_high=1.0 if unknown else min(1.0, r_max + epsilon),
        )

    def normalized(self, r: FloatArray, error: float) -> tuple[FloatArray, FloatArray]:
        """Bounds on the normalised relevance (x − min)/(max − min) of memories whose raw
        relevance x is within `error` of r. Uses max − min ≤ widest_span, and x − min ≥
        r − error − min_high (lower), max − x ≥ max_low − r − error (upper)."""
        span = self.widest_span
        if span <= 0.0:
            return np.zeros_like(r), np.zeros_like(r)
        low = np.maximum(0.0, (r - error - self.min_high) / span)
        high = 1.0 - np.maximum(0.0, (self.max_low - r - error) / span)
        return np.minimum(low, 1.0), np.clip(high, 0.0, 1.0)

    def weighted_upper(self, weight: float, r: float, error: float) -> float:
        """An upper bound of weight × normalised relevance that is affine in r (the clamps of
        `normalized` dropped), so its maximum over an interval of r is at an endpoint."""
        span = self.widest_span
        if span <= 0.0 or weight == 0.0:
            return 0.0
        if weight > 0.0:
            return weight * (span - self.max_low + r + error) / span
        return weight * (r - error - self.min_high) / span


@dataclass(frozen=True)
class Scale:
    """A component's exact reference extremes; a constant component normalises to 0."""

    low: float
    high: float

    @property
    def span(self) -> float:
        return self.high - self.low

    def normalized(self, values: FloatArray, tolerance: float) -> tuple[FloatArray, FloatArray]:
        """Bounds on (x − low)/(high − low) for raw values known to within `tolerance`."""
        if self.span == 0.0:
            return np.zeros_like(values), np.zeros_like(values)
        low = (values - tolerance - self.low) / self.span
        high = (values + tolerance - self.low) / self.span
        return np.clip(low, 0.0, 1.0), np.clip(high, 0.0, 1.0)

    def exact(self, value: float) -> float:
        """The reference's normalised value of an exactly known raw value."""
        return 0.0 if self.span == 0.0 else (value - self.low) / self.span


def score_tolerance(weights: RetrievalWeights) -> float:
    """The slack on either side of a bounded score."""
    return SCORE_TOLERANCE * (
        abs(weights.recency) + abs(weights.importance) + abs(weights.relevance)
    )


def weighted(weight: float, low: FloatArray, high: FloatArray) -> tuple[FloatArray, FloatArray]:
    """weight × [low, high] as an interval, for a weight of either sign."""
    a, b = weight * low, weight * high
    return np.minimum(a, b), np.maximum(a, b)


def score_bounds(
    weights: RetrievalWeights,
    recency: tuple[FloatArray, FloatArray],
    importance: tuple[FloatArray, FloatArray],
    relevance: tuple[FloatArray, FloatArray],
) -> tuple[FloatArray, FloatArray]:
    """[S_lo, S_hi] around the reference score from bounds on the normalised components."""
    parts = [
        weighted(weights.recency, *recency),
        weighted(weights.importance, *importance),
        weighted(weights.relevance, *relevance),
    ]
    slack = score_tolerance(weights)
    low = parts[0][0] + parts[1][0] + parts[2][0] - slack
    high = parts[0][1] + parts[1][1] + parts[2][1] + slack
    return low, high


def kth_largest(values: Sequence[float] | FloatArray, k: int) -> float:
    """The k-th largest value; −inf if there are fewer than k (nothing can be ruled out), +inf
    for k = 0 (nothing is wanted).

    Over many values, the k-th largest of a strided sample is a lower bound (k values of the
    whole are at least it), so the exact answer is the k-th largest of the values at or above
    it: two passes and a small partition instead of a partition of everything."""
    if k == 0:
        return math.inf
    array = np.asarray(values, dtype=np.float64)
    if array.size < k:
        return -math.inf
    sample = array[:: max(1, array.size // KTH_SAMPLE)]
    if array.size > KTH_SAMPLE and sample.size >= k:
        floor = float(np.partition(sample, sample.size - k)[sample.size - k])
        array = array[array >= floor]
    return float(np.partition(array, array.size - k)[array.size - k])
