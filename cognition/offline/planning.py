"""A day outline without a model: the persona's routine, timed directives honoured first.

The paper asks a model for "today's plan in broad strokes", seeded with the persona and
yesterday. Offline the outline is a routine built from the persona's fields:

    wake-up → morning routine (1 h, at home)
            → morning work      (from `currently` / `daily_plan_requirement` keywords)
            → lunch (1 h, around noon)
            → afternoon work
            → dinner (1 h, around 6pm, at home)
            → free time (from lifestyle keywords: reading, walking, friends…)
    bedtime → sleep until the next wake-up

Wake and bed times come from `lifestyle` (`clock.wake_and_bed`, defaults 7am / 11pm).
Directives (the inner voice) become items of their own: at their stated time ("at 5pm"; an
end time "to 7pm" gives the length, else one hour), or, untimed, at the start of free time.
Timed directives are placed first, so an untimed one never pushes a stated time. Routine
items they overlap are cut around them; fragments under MIN_ITEM minutes are merged into their
predecessor, and while there are more than 8 items the shortest routine item is merged into the
one before it. The result has 5–8 items, contiguous, in time order, from wake-up. At most
MAX_ITEMS - 2 directives fit a day; any beyond that, or with no room left, are not scheduled
(they stay in the memory stream). `previous_day` is not used: each day starts from the persona;
`summary` helps only to recognise the occupation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from cognition.offline import clock, occupations
from cognition.offline.places import emoji
from cognition.offline.text import as_clause, is_place, proper_nouns
from cognition.types import Persona, PlanItem

MIN_ITEMS = 5
MAX_ITEMS = 8
MIN_ITEM = 15
"""Routine fragments shorter than this (minutes) are not worth an item of their own."""
ROUTINE_MINUTES = 60
MIN_ROUTINE = 30
MEAL_MINUTES = 60
DIRECTIVE_MINUTES = 60
"""How long a directive takes when it gives no end time."""
USUAL_LUNCH = 12 * clock.MINUTES_PER_HOUR
USUAL_DINNER = 18 * clock.MINUTES_PER_HOUR
MIN_WORK_BLOCK = 90
"""Keep at least this much between meals and the day's edges before moving a meal."""
ROUND_TO = 15
"""Derived meal times are rounded to the quarter hour, as people plan."""
DIRECTIVE = "directive"
LEISURE = "leisure"


@dataclass(frozen=True)
class Slot:
    """A span of the day in minutes after midnight of the plan's date."""

    start: int
    end: int
    description: str
    location: str | None
    kind: str = "routine"

    @property
    def length(self) -> int:
        return self.end - self.start

    @property
    def fixed(self) -> bool:
        """Directive slots keep their start time through every adjustment."""
        return self.kind == DIRECTIVE


def plan_day(
    *,
    persona: Persona,
    summary: str,
    previous_day: str,
    directives: Sequence[str],
    now: datetime,
) -> list[PlanItem]:
    """The day outline described in the module docstring, on the date of `now`."""
    wake, bed = clock.wake_and_bed(persona.lifestyle)
    slots = routine(persona, summary, wake, bed)
    free_time = next((s.start for s in slots if s.kind == LEISURE), wake)
    for event in directive_slots(directives, free_time=free_time, wake=wake, bed=bed):
        slots = insert(slots, event)
    slots = fit_count(merge_fragments(slots))
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    return [_item(s, midnight) for s in slots]


def routine(persona: Persona, summary: str, wake: int, bed: int) -> list[Slot]:
    """The undisturbed day: contiguous slots from wake-up to the next wake-up."""
    home = persona.living_area or None
    job = occupations.occupation_of(persona, summary)
    work_start, work_end = _work_hours(persona.daily_plan_requirement, wake, bed)
    lunch = _meal_time(USUAL_LUNCH, work_start + MIN_WORK_BLOCK, bed)
    dinner = work_end if work_end is not None and work_end >= lunch + MEAL_MINUTES else None
    if dinner is None:
        dinner = _meal_time(USUAL_DINNER, lunch + MEAL_MINUTES + MIN_WORK_BLOCK, bed)
    plan = [
        Slot(wake, 0, "wake up and complete the morning routine", home),
        Slot(work_start, 0, job.morning, job.place or home),
        Slot(lunch, 0, "have lunch", job.place or home),
        Slot(lunch + MEAL_MINUTES, 0, job.afternoon, job.place or home),
        Slot(dinner, 0, "have dinner", home),
        Slot(dinner + MEAL_MINUTES, 0, occupations.leisure_of(persona), home, kind=LEISURE),
        Slot(bed, 0, "go to bed and sleep", home),
    ]
    ends = [s.start for s in plan[1:]] + [wake + clock.MINUTES_PER_DAY]
    slots = [replace(s, end=e) for s, e in zip(plan, ends, strict=True)]
    return [s for s in slots if s.length > 0]


def _work_hours(requirement: str, wake: int, bed: int) -> tuple[int, int | None]:
    """Working hours the author asked for ("opens at 8am … until 8pm"), kept inside the day.

    Work starts after at least MIN_ROUTINE minutes of morning routine and leaves room for
    lunch, an afternoon and dinner; otherwise the routine's defaults apply.
    """
    default = wake + ROUTINE_MINUTES
    span = clock.event_span(requirement)
    if span is None:
        return default, None
    start, end = span
    latest_start = bed - 2 * MEAL_MINUTES - 2 * MIN_WORK_BLOCK
    start = start if wake + MIN_ROUTINE <= start <= latest_start else default
    if end is not None and not start + MIN_WORK_BLOCK <= end <= bed - MEAL_MINUTES:
        end = None
    return start, end


def _meal_time(usual: int, earliest: int, bed: int) -> int:
    """The usual meal time if it fits the waking day, else proportionally placed."""
    latest = bed - MEAL_MINUTES - MIN_WORK_BLOCK
    if earliest <= usual <= latest:
        return usual
    if earliest > latest:
        return min(earliest, bed - MEAL_MINUTES)
    midpoint = earliest + (latest - earliest) // 2
    return midpoint - midpoint % ROUND_TO


def directive_slots(
    directives: Sequence[str], *, free_time: int, wake: int, bed: int
) -> list[Slot]:
    """Fixed slots for the directives: timed ones at their time, then the rest in free time."""
    texts = [as_clause(d) for d in directives if d.strip()][: MAX_ITEMS - 2]
    timed: list[Slot] = []
    untimed: list[str] = []
    for text in texts:
        span = clock.event_span(text)
        if span is None:
            untimed.append(text)
            continue
        start, end = span
        length = end - start if end is not None and end > start else DIRECTIVE_MINUTES
        timed.append(Slot(start, start + length, text, _place_in(text), kind=DIRECTIVE))
    placed = _within_day(sorted(timed, key=lambda s: s.start), wake, bed)
    for text in untimed:
        gap = _free_start(placed, after=free_time, wake=wake, bed=bed)
        if gap is not None:
            event = Slot(gap, gap + DIRECTIVE_MINUTES, text, _place_in(text), kind=DIRECTIVE)
            placed = sorted([*placed, event], key=lambda s: s.start)
    return placed


def _within_day(events: Sequence[Slot], wake: int, bed: int) -> list[Slot]:
    """Clamp timed events into the waking day and push overlapping ones later, in order."""
    result: list[Slot] = []
    earliest = wake
    for event in events:
        length = min(event.length, bed - wake)
        start = min(max(event.start, earliest), bed - length)
        if start < earliest:
            continue  # no room left in the day; the directive stays in the memory stream
        result.append(replace(event, start=start, end=start + length))
        earliest = start + length
    return result


def _free_start(placed: Sequence[Slot], *, after: int, wake: int, bed: int) -> int | None:
    """The first start, preferably from `after` on, where an untimed directive fits."""
    candidates = [after, *(s.end for s in placed if s.end >= after), wake]
    candidates += [s.end for s in placed if s.end < after]
    for start in candidates:
        end = start + DIRECTIVE_MINUTES
        if wake <= start and end <= bed and all(s.end <= start or s.start >= end for s in placed):
            return start
    return None


def _place_in(text: str) -> str | None:
    """A named place in a directive ("… at Hobbs Cafe at 5pm" → "Hobbs Cafe")."""
    return next((p for p in proper_nouns(text) if is_place(p)), None)


def insert(slots: Sequence[Slot], event: Slot) -> list[Slot]:
    """Cut the routine around a fixed event and put the event in the gap."""
    result: list[Slot] = []
    for slot in slots:
        if slot.end <= event.start or slot.start >= event.end:
            result.append(slot)
            continue
        if slot.start < event.start:
            result.append(replace(slot, end=event.start))
        if slot.end > event.end:
            result.append(replace(slot, start=event.end))
    result.append(event)
    return sorted(result, key=lambda s: s.start)


def merge_fragments(slots: Sequence[Slot]) -> list[Slot]:
    """Fold routine pieces shorter than MIN_ITEM into the item before them."""
    result: list[Slot] = []
    for slot in slots:
        if result and not slot.fixed and slot.length < MIN_ITEM:
            result[-1] = replace(result[-1], end=slot.end)
        else:
            result.append(slot)
    return result


def fit_count(slots: Sequence[Slot]) -> list[Slot]:
    """Merge the shortest routine items, or split the longest, until 5–8 items remain."""
    result = list(slots)
    while len(result) > MAX_ITEMS:
        movable = [i for i in range(1, len(result) - 1) if not result[i].fixed]
        if not movable:
            break
        i = min(movable, key=lambda k: (result[k].length, k))
        result[i - 1] = replace(result[i - 1], end=result[i].end)
        del result[i]
    while len(result) < MIN_ITEMS:
        i = max(range(len(result)), key=lambda k: (not result[k].fixed, result[k].length, -k))
        if result[i].length < 2 * MIN_ITEM:
            break  # nothing left worth splitting; a very short day keeps fewer items
        half = result[i].length // 2
        first = replace(result[i], end=result[i].start + half)
        second = replace(result[i], start=first.end, description=_continued(result[i]))
        result[i : i + 1] = [first, second]
    return result


def _continued(slot: Slot) -> str:
    return f"continue: {slot.description}"


def _item(slot: Slot, midnight: datetime) -> PlanItem:
    return PlanItem(
        start=midnight + timedelta(minutes=slot.start),
        duration_min=slot.length,
        description=slot.description,
        location=slot.location,
        emoji=emoji(slot.description),
    )
