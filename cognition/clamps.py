"""Every bound the model's answers are forced into, in one place.

Models drift: a rating of 11, a cited statement 9 of 5, a plan that runs past its hour. The
parsers call these functions so the rules are written once, tested once, and logged when
they change an answer (a clamp that fires often is a prompt worth fixing).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from cognition.types import Granularity, PlanItem

log = logging.getLogger(__name__)

IMPORTANCE_MIN, IMPORTANCE_MAX = 1, 10
"""The paper's poignancy scale."""

SENTIMENT_MIN, SENTIMENT_MAX = 0, 10
"""Hostile (0) through neutral (5) to devoted (10)."""

STEP_BOUNDS: dict[Granularity, tuple[int, int]] = {
    Granularity.HOUR: (15, 60),
    Granularity.TASK: (5, 15),
}
"""Minutes per decomposed step: the paper's hour-long chunks and its 5–15 minute actions."""

DEFAULT_DAY_ITEM_MIN = 60
"""Length given to a day-plan item the model left without a usable duration, when it is last."""


def clamp_importance(value: float) -> int:
    """A poignancy rating rounded and held to 1–10."""
    return _clamp(round(value), IMPORTANCE_MIN, IMPORTANCE_MAX, "importance")


def clamp_sentiment(value: float) -> int:
    """A sentiment rounded and held to 0–10."""
    return _clamp(round(value), SENTIMENT_MIN, SENTIMENT_MAX, "sentiment")


def valid_citations(indices: Iterable[int], count: int) -> tuple[int, ...]:
    """The cited 1-based indices that exist among `count` numbered items, once each, in order.

    A citation of a statement that was never in the prompt is a hallucination, not evidence.
    """
    kept: list[int] = []
    for index in indices:
        if not 1 <= index <= count:
            log.warning("dropped citation %d: only %d statements were numbered", index, count)
        elif index not in kept:
            kept.append(index)
    return tuple(kept)


def order_day_plan(items: Sequence[PlanItem]) -> list[PlanItem]:
    """Items in time order, each with a positive duration.

    A missing or non-positive duration becomes the gap to the next item, or the default for
    the last one, so the outline still covers the day.
    """
    ordered = sorted(items, key=lambda item: item.start)
    fixed: list[PlanItem] = []
    for position, item in enumerate(ordered):
        if item.duration_min > 0:
            fixed.append(item)
            continue
        following = ordered[position + 1 :]
        gaps = [_minutes(nxt.start - item.start) for nxt in following if nxt.start > item.start]
        duration = gaps[0] if gaps else DEFAULT_DAY_ITEM_MIN
        log.warning("day plan item at %s had no duration; gave it %d min", item.start, duration)
        fixed.append(replace(item, duration_min=duration))
    return fixed


def lay_out_steps(
    parent: PlanItem, steps: Sequence[tuple[str, int]], granularity: Granularity
) -> list[PlanItem]:
    """Decomposed steps placed back to back from the parent's start, covering exactly its span.

    Each duration is held to the granularity's bounds; steps past the parent's end are cut,
    and a shortfall extends the last step (up to the bound) and then repeats the parent's own
    description, so the agent is never left without an action.
    """
    low, high = STEP_BOUNDS[granularity]
    end = parent.end
    placed: list[PlanItem] = []
    cursor = parent.start
    for description, minutes in steps:
        if cursor >= end:
            log.warning("dropped step %r: it starts after the plan item ends", description)
            continue
        length = min(_clamp(minutes, low, high, "step duration"), _minutes(end - cursor))
        placed.append(_child(parent, cursor, length, description))
        cursor += timedelta(minutes=length)
    if placed and cursor < end:
        extra = min(high - placed[-1].duration_min, _minutes(end - cursor))
        if extra > 0:
            placed[-1] = replace(placed[-1], duration_min=placed[-1].duration_min + extra)
            cursor += timedelta(minutes=extra)
    while cursor < end:
        length = min(high, _minutes(end - cursor))
        placed.append(_child(parent, cursor, length, parent.description))
        cursor += timedelta(minutes=length)
    return placed


def _child(parent: PlanItem, start: datetime, minutes: int, description: str) -> PlanItem:
    return PlanItem(
        start=start, duration_min=minutes, description=description, location=parent.location
    )


def _minutes(delta: timedelta) -> int:
    return int(delta.total_seconds() // 60)


def _clamp(value: int, low: int, high: int, what: str) -> int:
    bounded = max(low, min(high, value))
    if bounded != value:
        log.warning("clamped %s %d to %d (bounds %d–%d)", what, value, bounded, low, high)
    return bounded
