"""Plan arithmetic: pure functions of plan items and game times, at any level of the plan.

Spans (`covering`, `active_at`; an item ends at `PlanItem.end`), cutting a span out of items
(`outside`, `around`), laying steps over their parent's span exactly (`tile`), and the
just-in-time window of decomposition (`window_to_decompose`). No Mind, no store: the planning
and reacting loops, the workers and the service share these rules.

Just-in-time window: hour chunks for the current and the next day item, tasks for the current
and the next hour chunk (DEFAULT_HORIZON = 2 at both levels), the next one once it starts
within DEFAULT_LEAD (30 game minutes). The next item at each level is ready before the game
clock reaches it, so a game step always finds its current action already decomposed: two
sweeps and two model calls fit in the lead at any usual clock rate (30 s of wall time at the
default minute per second). Deciding no further ahead matters because a reaction supersedes
the rest of the plan: steps made hours ahead would mostly be thrown away. A re-plan wastes at
most the steps made for the next item within the lead, and those of the interrupted one.
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
DEFAULT_LEAD = timedelta(minutes=30)
"""How long before it starts the next item is decomposed (see the module docstring)."""


THEN = "; then "
"""How an outline item that does two things in turn is written ("have soup at The Copper
Kettle; then do the flowers at St. Aldhelm's Church"): an outline holds at most eight items,
so the shortest neighbours are joined. Hour chunks give each part its own hours
(`cognition.offline.decomposition`), each located where its own words say."""


def in_turn(first: str, second: str) -> str:
    """One description of two things done in turn (`THEN`); a part already said last is not
    said again (a duty taken up after a break, folded with itself, read "serve dinners at the
    school; then serve dinners at the school")."""
    if parts(first)[-1] == second.strip():
        return first
    return f"{first}{THEN}{second}"


def parts(description: str) -> list[str]:
    """The things an item joined by `in_turn` does, in order (one for any other item)."""
    return [part.strip() for part in description.split(THEN) if part.strip()] or [description]


def whole_minutes(delta: timedelta) -> int:
    """A span in whole minutes (rounded down), the unit of `PlanItem.duration_min`."""
    return int(delta // MINUTE)


def covering(items: Sequence[PlanItem], start: datetime, end: datetime) -> list[PlanItem]:
    """The items overlapping [start, end), in time order."""
    return sorted((i for i in items if i.start < end and i.end > start), key=lambda i: i.start)


def active_at(items: Sequence[PlanItem], t: datetime) -> PlanItem | None:
    """The item under way at `t`; of overlapping items the latest started (the most specific)."""
    current = [i for i in items if i.start <= t < i.end]
    return max(current, key=lambda i: i.start, default=None)


def outside(item: PlanItem, *, start: datetime, end: datetime) -> list[PlanItem]:
    """The parts of `item` before `start` and from `end` on, whichever exist: the item with
    the span [start, end) cut out (the whole item if it does not overlap the span)."""
    parts: list[PlanItem] = []
    if item.start < start:
        parts.append(replace(item, duration_min=whole_minutes(min(item.end, start) - item.start)))
    if item.end > end:
        begin = max(item.start, end)
        parts.append(replace(item, start=begin, duration_min=whole_minutes(item.end - begin)))
    return [part for part in parts if part.duration_min > 0]


def around(items: Sequence[PlanItem], fixed: Sequence[PlanItem]) -> list[PlanItem]:
    """`items` with the span of every `fixed` item cut out, in time order: new plan laid
    around what is already planned there, which keeps its time."""
    laid = list(items)
    for keep in fixed:
        laid = [part for item in laid for part in outside(item, start=keep.start, end=keep.end)]
    return sorted(laid, key=lambda i: i.start)


def window_to_decompose(
    day_items: Sequence[PlanItem],
    now: datetime,
    *,
    horizon: int = DEFAULT_HORIZON,
    lead: timedelta = DEFAULT_LEAD,
    hour_items: Sequence[PlanItem] = (),
    task_items: Sequence[PlanItem] = (),
) -> DecompositionWindow:
    """Which near items still lack detail: the first `horizon` day items and hour chunks not
    yet over that start within `lead` of now, kept only if no hour chunk (resp. task) lies
    within their span yet.

    Pass live items only (not superseded ones). Hour chunks of a day item requested now appear
    in the next call, which then asks for their tasks: a periodic sweep converges.
    """
    if horizon < 1:
        raise InvalidInput(f"horizon must be >= 1, got {horizon}", field="horizon")
    days = _upcoming(day_items, now, horizon, before=now + lead)
    hours = _upcoming(hour_items, now, horizon, before=now + lead)
    return DecompositionWindow(
        day_items=tuple(d for d in days if not covering(hour_items, d.start, d.end)),
        hour_items=tuple(h for h in hours if not covering(task_items, h.start, h.end)),
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
        cursor = step.end
    return bool(steps) and cursor == parent.end


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
    return [*steps[:-2], first, replace(last, start=first.end, duration_min=low)]


def _upcoming(
    items: Sequence[PlanItem], now: datetime, count: int, *, before: datetime
) -> list[PlanItem]:
    """The first `count` items, in time order, not over at `now` and starting by `before`."""
    ordered = sorted(items, key=lambda i: i.start)
    return [i for i in ordered if i.end > now and i.start <= before][:count]
