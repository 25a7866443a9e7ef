"""A day outline written by part of day, laid over the hours by Hearth.

A 1.5B model asked for clock times goes to bed at 11 am and lists 7 am after 11 am; asked for
what happens in the morning, afternoon and evening it writes a sensible day. So the model
names each item's part of day, and Hearth places the wake-up and bedtime the persona's
lifestyle fixes and spreads the items over their part's hours. A time the item states
("meet Maria at 3pm", an appointment from the notes) is kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from cognition.offline.clock import MINUTES_PER_DAY, find_times, wake_and_bed
from cognition.parsing import plan_checks, repairs
from cognition.prompting import copies_instructions
from cognition.types import Persona, PlanItem

PARTS = ("morning", "afternoon", "evening")
PART_ENDS = {"morning": 12 * 60, "afternoon": 18 * 60}
"""Minutes after midnight where a part of day ends; the evening ends at bedtime."""
GET_READY_MIN = 60
"""The wake-up item: waking, washing, dressing, breakfast."""
MIN_GAP_MIN = 15
"""Items never start closer than this; a later item is pushed on."""
WAKE_UP = "wakes up, gets ready and has breakfast"
GO_TO_BED = "goes to bed"
OWNED_ITEMS = (WAKE_UP, GO_TO_BED)


@dataclass(frozen=True)
class DayPart:
    """One item as the model wrote it: its part of day, what and where."""

    part: str
    description: str
    location: str | None


def lay_out_day(
    items: Sequence[DayPart], *, persona: Persona, now: datetime, home: str | None
) -> list[PlanItem]:
    """Wake-up, the items in their parts' hours (or at a time they state), bedtime.

    Items come in part order, within a part as written; a repeat of an item is dropped."""
    wake, bed = wake_and_bed(persona.lifestyle)
    first = wake + GET_READY_MIN
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    kept = _kept(items)
    starts = _spread(kept, first=first, bed=bed)
    for index, item in enumerate(kept):
        stated = _stated_time(item.description, first=first, bed=bed)
        if stated is not None:
            starts[index] = stated
    placed = sorted(zip(starts, kept, strict=True), key=lambda pair: pair[0])
    minutes = _apart([start for start, _ in placed], first=first, bed=bed)
    plan = [_item(midnight, wake, minutes[0] if minutes else first, WAKE_UP, home)]
    ends = [*minutes[1:], bed]
    for start, end, (_, item) in zip(minutes, ends, placed, strict=True):
        plan.append(_item(midnight, start, end, item.description, item.location))
    plan.append(_item(midnight, bed, wake + MINUTES_PER_DAY, GO_TO_BED, home))
    return plan


def _owned(description: str) -> bool:
    """What Hearth places itself, the wake-up and the bedtime as the plan checks read them: an
    item the model wrote for either is left out."""
    return bool(plan_checks.BED.search(description) or plan_checks.WAKE.search(description))


def _kept(items: Sequence[DayPart]) -> list[DayPart]:
    """The items in part order without Hearth's own wake-up and bedtime, repeats, or the
    request's instructions written back as an item."""
    seen: set[tuple[str, str]] = set()
    kept: list[DayPart] = []
    for item in sorted(items, key=lambda i: PARTS.index(i.part)):
        key = (item.part, " ".join(item.description.lower().split()))
        if _owned(item.description):
            continue
        if copies_instructions(item.description, "plan_day"):
            repairs.note(f"item {item.description!r} copies the request's own words: dropped")
            continue
        if key in seen:
            repairs.note(f"repeated item {item.description!r} dropped")
            continue
        seen.add(key)
        kept.append(item)
    return kept


def _spread(items: Sequence[DayPart], *, first: int, bed: int) -> list[int]:
    """Each item's start, its part's waking hours shared evenly among the part's items."""
    spans = _part_spans(first=first, bed=bed)
    starts: list[int] = []
    for part in PARTS:
        count = sum(1 for item in items if item.part == part)
        begin, end = spans[part]
        starts += [begin + (end - begin) * k // max(count, 1) for k in range(count)]
    return starts


def _part_spans(*, first: int, bed: int) -> dict[str, tuple[int, int]]:
    """Each part's waking minutes; a part the persona sleeps through shares its neighbour's."""
    bounds = [first, *(min(max(PART_ENDS[p], first), bed) for p in PARTS[:2]), bed]
    spans = {part: (bounds[i], bounds[i + 1]) for i, part in enumerate(PARTS)}
    awake = [part for part in PARTS if spans[part][1] - spans[part][0] >= MIN_GAP_MIN]
    for part in PARTS:
        if part not in awake and awake:
            nearest = min(awake, key=lambda p: abs(PARTS.index(p) - PARTS.index(part)))
            spans[part] = spans[nearest]
    return spans


def _stated_time(description: str, *, first: int, bed: int) -> int | None:
    """The clock time an item states ("at 3pm"), when it falls in the waking hours."""
    for found in find_times(description):
        for minutes in (found.minutes, found.minutes + MINUTES_PER_DAY):
            if first <= minutes < bed:
                return minutes
    return None


def _apart(starts: Sequence[int], *, first: int, bed: int) -> list[int]:
    """Starts at least MIN_GAP_MIN apart, none before `first`; squeezed back before bed."""
    spaced: list[int] = []
    for start in starts:
        spaced.append(max(start, first, spaced[-1] + MIN_GAP_MIN if spaced else first))
    overrun = spaced[-1] + MIN_GAP_MIN - bed if spaced else 0
    if overrun > 0:
        spaced = [max(first, s - overrun) for s in spaced]
    return spaced


def _item(midnight: datetime, start: int, end: int, what: str, where: str | None) -> PlanItem:
    return PlanItem(
        start=midnight + timedelta(minutes=start),
        duration_min=max(1, end - start),
        description=what,
        location=where,
    )
