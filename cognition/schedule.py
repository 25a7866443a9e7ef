"""Plan arithmetic: pure functions of plan items and game times, at any level of the plan.

Spans (`ends_at`, `covering`, `active_at`), laying steps over their parent's span exactly
(`tile`), and the just-in-time window of decomposition (`window_to_decompose`). No Mind, no
store: the planning and reacting loops, the workers and the service share these rules.

Just-in-time window: hour chunks for the current and the next day item, tasks for the current
and the next hour chunk (MINUTE = timedelta(minutes=1)
DEFAULT_HORIZON = 2 at both levels). The next item at each level is
ready before the game clock reaches it, so a game step always finds its current action already
decomposed even when the model is slow: the lead time is the whole of the current item.
Deciding no further ahead bounds what a re-plan wastes to the tasks of about two hour chunks
(the rest of the current one and the next) and the hour chunks of two day items.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from cognition.clamps import STEP_BOUNDS, lay_out_steps
from cognition.errors import InvalidInput
from cognition.types import DecompositionWindow, Granularity, PlanItem

MINUTE = timedelta(minutes=1)
DEFAULT_HORIZON = 2
"""Items decomposed ahead at each level, the current one included (see the module docstring)."""


def ends_at(item: PlanItem) -> datetime:
    """When a plan item ends."""
    return item.start + timedelta(minutes=item.duration_min)


def whole_minutes(delta: timedelta) -> int:
    """A span in whole minutes (rounded down), the unit of `PlanItem.duration_min`."""
    return int(delta // MINUTE)


def covering(items: Sequence[PlanItem], start: datetime, end: datetime) -> list[PlanItem]:
    """The items overlapping [start, end), in time order."""
    return sorted((i for i in items if i.start < end and ends_at(i) > start), key=lambda i: i.start)


def active_at(items: Sequence[PlanItem], t: datetime) -> PlanItem | None:
    """The item under way at `t`; of overlapping items the latest started (the most specific)."""
    current = [i for i in items if i.start <= t < ends_at(i)]
    return max(current, key=lambda i: i.start, default=None)


def window_to_decompose(
    day_items: Sequence[PlanItem],
    now: datetime,
    *,
    horizon: int = DEFAULT_HORIZON,
    hour_items: Sequence[PlanItem] = (),
    task_items: Sequence[PlanItem] = (),
) -> DecompositionWindow:
    """Which near items still lack detail: the first `horizon` day items and hour chunks not
    yet over, kept only if no hour chunk (resp. task) lies within their span yet.

    Pass live items only (not superseded ones). Hour chunks of a day item requested now appear
    in the next call, which then asks for their tasks: a periodic sweep converges.
    """
    if horizon < 1:
        raise InvalidInput(f"horizon must be >= 1, got {horizon}", field="horizon")
    days = _upcoming(day_items, now, horizon)
    hours = _upcoming(hour_items, now, horizon)
    return DecompositionWindow(
        day_items=tuple(d for d in days if not covering(hour_items, d.start, ends_at(d))),
        hour_items=tuple(h for h in hours if not covering(task_items, h.start, ends_at(h))),
    )


def tile(parent: PlanItem, steps: Sequence[PlanItem], granularity: Granularity) -> list[PlanItem]:
    """The steps if they already tile the parent within bounds; else laid out again so they do.

    Re-laying keeps the descriptions and durations (clamped) in order, cuts what overflows,
    fills a shortfall, and for tasks rebalances a last action shorter than 5 minutes with
    the one before. A step without a location inherits the parent's.
    """
    low, high = STEP_BOUNDS[granularity]
    if not _tiles(parent, steps, granularity):
        usable = [(s.description.strip(), s.duration_min) for s in steps if s.description.strip()]
        steps = lay_out_steps(parent, usable, granularity)
        if granularity is Granularity.TASK:
            steps = _rebalance_tail(steps, low=low, high=high)
    return [replace(s, location=s.location or parent.location) for s in steps]


def _tiles(parent: PlanItem, steps: Sequence[PlanItem], granularity: Granularity) -> bool:
    """Whether steps run back to back from the parent's start to its end, within bounds.

    Hour chunks may be shorter than an hour (aligned to the clock); tasks must be 5–15
    minutes unless the whole parent is shorter than 5.
    """
    low, high = STEP_BOUNDS[granularity]
    shortest = low if granularity is Granularity.TASK and parent.duration_min >= low else 1
    cursor = parent.start
    for step in steps:
        fits = shortest <= step.duration_min <= high and bool(step.description.strip())
        if step.start != cursor or not fits:
            return False
        cursor = ends_at(step)
    return bool(steps) and cursor == ends_at(parent)


def _rebalance_tail(steps: Sequence[PlanItem], *, low: int, high: int) -> list[PlanItem]:
    """Fold a last step shorter than `low` into the one before, or share their time so both
    stay within bounds (their total is then more than `high`, so both halves are >= `low`)."""
    if len(steps) < 2 or steps[-1].duration_min >= low:
        return list(steps)
    before, last = steps[-2], steps[-1]
    total = before.duration_min + last.duration_min
    if total <= high:
        return [*steps[:-2], replace(before, duration_min=total)]
    first = replace(before, duration_min=total - low)
    return [*steps[:-2], first, replace(last, start=ends_at(first), duration_min=low)]


def _upcoming(items: Sequence[PlanItem], now: datetime, count: int) -> list[PlanItem]:
    """The first `count` items, in time order, that are not over at `now`."""
    return [i for i in sorted(items, key=lambda i: i.start) if ends_at(i) > now][:count]
