"""Which memories retrieval must look at, decided from bounds: the cuts and the repair windows.

The pass (`statements.PASS`) estimates every candidate's relevance r and captures those with
r ≤ `lo_cut` or r ≥ `hi_cut`. The cuts come from the probe, whose r values are a subset of the
pass's (computed bit for bit alike), so a cut 2ε inside the probe's extreme always contains
every memory within 2ε of the true extreme: the memories that may hold the exact minimum or
maximum relevance. The inner cut sits at a quantile of the probe, so that the memories most
relevant to the query (or least, for a negative weight) are captured too.

Every memory left between the cuts has a bounded relevance term, so it can reach the top k
only with a large enough recency term; recency is monotone in last_accessed_at, so per
importance level that is a window of last_accessed_at (`repair_windows`), read with index range
scans. This is the threshold algorithm (Fagin et al.) with two sorted accesses: relevance
through the cuts, recency per importance level through the b-tree.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

import numpy as np

from cognition.retrieval import SECONDS_PER_HOUR
from cognition.types import DEFAULT_RECENCY_DECAY
from db.retrieval.bounds import RECENCY_TOLERANCE, FloatArray, RelevanceRange, score_tolerance
from db.retrieval.probe import Givens

CAPTURE_QUANTILE = 0.02
"""The inner cut sits at this quantile of the probe's r: about that share of the agent's
memories (the most relevant) come back from the pass itself, which keeps the repair small."""

WINDOW_SLACK = timedelta(seconds=1)
"""Repair windows are widened by this: far beyond the float error of inverting recency."""


@dataclass(frozen=True)
class Cuts:
    low: float
    high: float

    def valid_for(self, epsilon: float, r_min: float | None, r_max: float | None) -> bool:
        """Whether the pass captured every memory within 2ε of the estimated extremes."""
        if r_min is None or r_max is None:
            return True
        return self.low >= r_min + 2.0 * epsilon and self.high <= r_max - 2.0 * epsilon


@dataclass(frozen=True)
class Window:
    """Memories of one importance level accessed within [after, before] (None: unbounded)."""

    level: int
    after: datetime | None
    before: datetime | None


NO_CUTS = Cuts(-math.inf, math.inf)


def probe_cuts(ctx: Givens, probe_r: FloatArray) -> Cuts:
    """Cuts from the probe: 2ε inside its extreme on the side the relevance weight does not
    favour, at its CAPTURE_QUANTILE on the side it does."""
    if not ctx.has_query or probe_r.size == 0:
        return NO_CUTS
    ordered = np.sort(probe_r)
    inner = min(ordered.size - 1, int(CAPTURE_QUANTILE * ordered.size))
    margin = 2.0 * ctx.epsilon
    if ctx.relevance_weight >= 0.0:
        return Cuts(float(ordered[0]) + margin, float(ordered[-1 - inner]) - margin)
    return Cuts(float(ordered[inner]) + margin, float(ordered[-1]) - margin)


def exact_cuts(ctx: Givens, r_min: float | None, r_max: float | None) -> Cuts:
    """Cuts that capture just the memories near the estimated extremes (a second pass, when
    the probe had nothing to estimate)."""
    if not ctx.has_query or r_min is None or r_max is None:
        return NO_CUTS
    return Cuts(r_min + 2.0 * ctx.epsilon, r_max - 2.0 * ctx.epsilon)


def repair_windows(
    ctx: Givens, cuts: Cuts, rel: RelevanceRange, t_valid: float, now: datetime
) -> list[Window]:
    """Per importance level, the last-access window outside which a memory the pass did not
    capture cannot reach t_valid (a proven lower bound of the k-th best score)."""
    edge = 1.0 + ctx.epsilon  # an estimate is within ε of [−1, 1]
    lo_end, hi_end = max(cuts.low, -edge), min(cuts.high, edge)
    if lo_end > hi_end or t_valid == math.inf:
        return []
    c = ctx.relevance_weight
    relevance_term = max(rel.weighted_upper(c, r, ctx.epsilon) for r in (lo_end, hi_end))
    windows = []
    for level in range(int(ctx.importance.low), int(ctx.importance.high) + 1):
        importance_term = ctx.weights.importance * ctx.importance.exact(float(level))
        needed = t_valid - importance_term - relevance_term - score_tolerance(ctx.weights)
        window = _recency_window(ctx, level, needed, now)
        if window is not None:
            windows.append(window)
    return windows


def _recency_window(ctx: Givens, level: int, needed: float, now: datetime) -> Window | None:
    """The memories whose recency term a × rec_n can reach `needed` (None: no memory can).
    rec_n = (rec − rec_lo)/rec_span and rec = decay^hours are monotone, so a bound on rec_n is
    one on hours, hence on last_accessed_at; RECENCY_TOLERANCE covers the roundings."""
    a, scale = ctx.weights.recency, ctx.recency
    everything = Window(level, None, None)
    if a == 0.0 or scale.span == 0.0:
        return everything if needed <= 0.0 else None
    bound = needed / a  # a > 0: rec_n ≥ bound; a < 0: rec_n ≤ bound
    try:
        if a > 0.0:
            least = scale.low + bound * scale.span - RECENCY_TOLERANCE
            if least <= 0.0:
                return everything
            if least > 1.0:
                return None
            return Window(level, now - _hours_ago(least) - WINDOW_SLACK, None)
        most = scale.low + bound * scale.span + RECENCY_TOLERANCE
        if most >= 1.0:
            return everything
        if most <= 0.0:
            return None
        return Window(level, None, now - _hours_ago(most) + WINDOW_SLACK)
    except OverflowError:
        return everything  # the window starts before the calendar does: no bound at all


def _hours_ago(recency: float) -> timedelta:
    """How long ago a memory of this recency (0 < recency ≤ 1) was last accessed."""
    hours = math.log(recency) / math.log(DEFAULT_RECENCY_DECAY)
    return timedelta(seconds=hours * SECONDS_PER_HOUR)
