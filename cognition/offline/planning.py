"""A day outline without a model: the persona's own rhythm, its appointments, and free time.

The paper asks a model for "today's plan in broad strokes". Offline, the outline is built from
what the persona's designer wrote and what the agent has since agreed to:

    wake-up → get ready (and breakfast, when there is time before the first duty)
            → the duties of `daily_plan_requirement` at their stated times (`routine`)
            → lunch around noon (at home when the persona says so, else near work)
            → dinner around 6 pm (before an evening shift, after a late one)
            → evening duties, else a pastime (from lifestyle and traits)
    bedtime → sleep until the next wake-up

Appointments come first and keep their times: gatherings of today found in what the agent
recalled (`knowledge.occasions_on`) that are its own, that a planning note says it agreed to
("For Tomas's planning: … Junie Halvorsen's Valentine's Day party at The Copper Kettle on
February 14 from 6 pm to 8 pm" → "go to Junie Halvorsen's Valentine's Day party",
18:00–20:00, at The Copper Kettle), or that are open to everyone; the organiser gets an hour
of preparation and holds it) and timed directives ("… at 5pm"). Routine items they overlap
are cut around them. Gaps of the waking day are filled with a flexible duty, else an errand or
a pastime at a known public place that is open then (a coffee, a walk in the park) — people
cross paths there. Every description is a bare verb phrase ("have lunch at home").

Places are real paths of `known_places`, found from the words of each activity
(`resolve_place`): "at home" is the living area; a named area ("The Copper Kettle") or a
named sub-area ("the art studio" → "Wren College: art studio") is taken as it stands.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from cognition.offline import clock, knowledge, occupations
from cognition.offline.knowledge import Fact
from cognition.offline.news import gathering, report
from cognition.offline.notes import agreed, declined
from cognition.offline.places import emoji
from cognition.offline.routine import EVENING, MORNING, Duty, rhythm
from cognition.offline.text import PLACE_WORDS, stable_index, stems
from cognition.places import JOINER, SEPARATOR
from cognition.schedule import in_turn
from cognition.types import Persona, PlanItem

MIN_ITEMS = 5
MAX_ITEMS = 8
MAX_ITEMS_APART = 10
"""A busy day of duties in different places may keep this many items rather than join two."""
MIN_ITEM = 15
"""Routine fragments shorter than this (minutes) are not worth an item of their own."""
ROUTINE_MINUTES = 45
BREAKFAST_MINUTES = 30
MEAL_MINUTES = 60
LONG_MEAL_MINUTES = 90
DIRECTIVE_MINUTES = 60
USUAL_LUNCH = 12 * clock.MINUTES_PER_HOUR
USUAL_DINNER = 18 * clock.MINUTES_PER_HOUR
LATEST_DINNER = 21 * clock.MINUTES_PER_HOUR + 30
EARLIEST_DINNER = 15 * clock.MINUTES_PER_HOUR
DAY_END = 17 * clock.MINUTES_PER_HOUR
"""A duty with a start and no end lasts until the next one, lunch, or this time."""
BEDTIME_WIND_DOWN = 30
MIN_GAP = 30
"""Free time shorter than this stays with the item before it."""
LATE_SHIFT = 14 * clock.MINUTES_PER_HOUR
"""Work starting after this with no stated end runs into the night (a tavern opening)."""
DEFAULT_DUTY_MINUTES = 90
"""A duty with a start, no end and no work in its words ("runs in the park at 6:30am")."""
MAX_OUTING = 90
"""An outing fills at most this much free time; the rest is spent at home."""
EARLY_SHIFT = 9 * clock.MINUTES_PER_HOUR
"""A shift started before this and over by 2 pm is followed by lunch, not broken by it."""
AT_HOME = "relax at home"
"""Free daytime with nowhere to go."""
DIRECTIVE = "directive"
APPOINTMENT = "appointment"
ROUTINE = "routine"
MEAL = "meal"
OUTING = "outing"
MORNING_ROUTINE = "morning"
_WORKLIKE = re.compile(
    r"\b(?:work|works|open|opens|shift|there|serve|tend|run the|attend|attends|class|classes|"
    r"lectures?|teach|teaches|seminar|lab|office hours|interview|interviews|campaign)\b",
    re.I,
)
"""Words of a duty done at the workplace (or college) when it names no place itself."""

ERRANDS: tuple[tuple[str, str, str], ...] = (
    ("have a coffee at {place}", "cafe coffee kettle", "day"),
    ("take a walk in {place}", "park garden green common meadow wood", "day"),
    ("buy groceries at {place}", "store shop market grocery", "day"),
    ("read the notices in {place}", "square", "day"),
    ("have a drink at {place}", "tavern bar pub", "evening"),
)
"""(activity, words of a place that hosts it, when): outings that fill free time."""
_INDOORS = "tavern bar pub inn cafe shop store hall church chapel school"
"""Words of a building: its garden ("The Otter: beer garden") is no place for a walk."""


@dataclass(frozen=True)
class Slot:
    """A span of the day in minutes after midnight of the plan's date."""

    start: int
    end: int
    description: str
    location: str | None
    kind: str = ROUTINE

    @property
    def length(self) -> int:
        return self.end - self.start

    @property
    def fixed(self) -> bool:
        """Appointments and directives keep their start time through every adjustment."""
        return self.kind in (DIRECTIVE, APPOINTMENT)


@dataclass(frozen=True)
class Day:
    """What the outline is built from: the persona's clock, home and known places."""

    persona: Persona
    wake: int
    bed: int
    weekday: int
    date: datetime
    known_places: Sequence[str]

    @property
    def home(self) -> str | None:
        return self.persona.living_area or None


def plan_day(
    *,
    persona: Persona,
    summary: str,
    previous_day: str,
    directives: Sequence[str],
    now: datetime,
    notes: Sequence[str] = (),
    known_places: Sequence[str] = (),
) -> list[PlanItem]:
    """The day outline described in the module docstring, on the date of `now`."""
    wake, bed = clock.wake_and_bed(persona.lifestyle)
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    day = Day(persona, wake, bed, now.weekday(), midnight, known_places)
    fixed = appointments(day, notes) + directive_slots(day, directives)
    fixed += outreach(day, notes, taken=fixed)
    slots = routine(day, summary)
    fixed += drop_ins(day, notes, slots, taken=fixed)
    for event in _within_day(sorted(fixed, key=lambda s: s.start), wake, bed):
        slots = insert(slots, event)
    slots = _eaten(slots)
    slots = fit_count(merge_fragments(fill_gaps(day, slots)))
    return [_item(s, midnight) for s in slots]


def routine(day: Day, summary: str) -> list[Slot]:
    """The undisturbed day: contiguous slots from wake-up to the next wake-up."""
    persona, wake, bed = day.persona, day.wake, day.bed
    plan = rhythm(persona.daily_plan_requirement)
    duties = [d for d in plan.duties if d.applies_on(day.weekday)]
    work = _work_slots(day, [d for d in duties if d.start != EVENING and not d.flexible], summary)
    first = min((s.start for s in work), default=wake + ROUTINE_MINUTES + BREAKFAST_MINUTES)
    slots = _morning(day, first) + work
    midday_meal = next((s for s in work if _EATS.search(s.description) and _midday(s)), None)
    if midday_meal is None:  # "has his dinner at home at one" is the day's lunch
        slots = _with_lunch(day, slots, at_home=plan.lunch_at_home, long=plan.long_lunch)
    dinner = _dinner_slot(day, slots)
    if dinner is not None and midday_meal is not None and "dinner" in midday_meal.description:
        dinner = replace(dinner, description=dinner.description.replace("dinner", "supper"))
    slots = slots if dinner is None else insert(slots, dinner)
    evening = [d for d in duties if d.start == EVENING]
    after = max(s.end for s in slots if s.kind in (ROUTINE, MEAL))
    slots += _evening(day, after, evening)
    slots = [s for s in slots if wake <= s.start < bed]
    slots.append(Slot(bed, wake + clock.MINUTES_PER_DAY, "go to bed and sleep", day.home))
    flexible = [d for d in duties if d.flexible and not _MEAL_WORDS.search(d.activity)]
    slots = _cooked(slots, [d for d in duties if d.flexible and _MEAL_WORDS.search(d.activity)])
    return _contiguous(_fill_flexible(day, sorted(slots, key=lambda s: s.start), flexible))


_MEAL_WORDS = re.compile(r"\b(breakfast|lunch|dinner|supper)\b", re.I)


def _eaten(slots: Sequence[Slot]) -> list[Slot]:
    """Meals an appointment already has ("have lunch out and invite people …") dropped: what
    went on before them goes on instead, not a second lunch an hour later."""
    had = {m.lower() for s in slots if s.fixed for m in _MEAL_WORDS.findall(s.description)}
    result: list[Slot] = []
    for slot in slots:
        meal = _MEAL_WORDS.search(slot.description)
        if slot.kind == MEAL and meal is not None and meal[1].lower() in had:
            before = next((s for s in reversed(result) if not s.fixed and s.kind != MEAL), None)
            if before is None:
                continue  # the next item starts earlier (`_contiguous`)
            slot = replace(before, start=slot.start, end=slot.end)
        result.append(slot)
    return result


_EATS = re.compile(
    r"\b(?:ha(?:ve|s|ving)|eats?|eating|takes?|taking)\s+(?:(?:his|her|their|a|an|the|some)\s+)?"
    r"(?:[\w'’-]+\s+)?(?:lunch|dinner|supper|tea|meal)\b|\b(?:dines?|dining)\b",
    re.I,
)
"""A duty that is eating, not serving ("has his dinner at home", not "serve lunch")."""
MIDDAY = (11 * 60, 15 * 60)
"""A meal that starts within these minutes is the day's lunch, whatever it is called."""


def _midday(slot: Slot) -> bool:
    return MIDDAY[0] <= slot.start < MIDDAY[1]


_DINING = re.compile(r"\b(?:eats?|eating|dines?|dining|dinner|supper|meal)\b", re.I)
"""A duty that is itself the evening meal ("eats his tea at The Anchor")."""


def _cooked(slots: list[Slot], duties: Sequence[Duty]) -> list[Slot]:
    """ "cooks dinner for her family": the meal it names becomes that, half an hour longer."""
    result = list(slots)
    for duty in duties:
        meal = _MEAL_WORDS.search(duty.activity)
        assert meal is not None
        for i, slot in enumerate(result):
            if slot.kind == MEAL and meal[1].lower() in slot.description:
                result[i] = replace(slot, start=slot.start - 30, description=duty.activity)
                break
    return result


def _morning(day: Day, first_duty: int) -> list[Slot]:
    """Getting ready, with breakfast as its own item when the first duty leaves time."""
    ready = day.wake + ROUTINE_MINUTES
    if first_duty - ready >= BREAKFAST_MINUTES:
        return [
            Slot(day.wake, ready, "wake up and get ready for the day", day.home, MORNING_ROUTINE),
            Slot(ready, ready + BREAKFAST_MINUTES, "have breakfast at home", day.home, MEAL),
        ]
    end = max(day.wake + MIN_ITEM, min(first_duty, ready))
    text = "wake up, get ready and have a quick breakfast"
    return [Slot(day.wake, end, text, day.home, MORNING_ROUTINE)]


def _until_start(duty: Duty, duties: Sequence[Duty], morning_start: int) -> int | None:
    """Where a duty said only with its end begins ("works on the pens … through to five"):
    after the other duties that end before it, else after breakfast; None when another duty
    fills that time ("eats his lunch on the bench by noon" inside a day's work) or runs on
    into it from a start alone."""
    assert isinstance(duty.end, int)
    others = [d for d in duties if d is not duty and isinstance(d.start, int | str)]
    ends = [d.end for d in others if isinstance(d.end, int) and d.end < duty.end]
    start = max([morning_start, *ends])
    for other in others:
        other_start = morning_start if other.start == MORNING else other.start
        if isinstance(other_start, int) and other.end is None and other_start < duty.end:
            return None  # "opens the mill at 6am and … until 3pm": the opening runs on
        other_end = other.end if isinstance(other.end, int) else other_start
        if not (isinstance(other_start, int) and isinstance(other_end, int)):
            continue
        if other_start < duty.end and other_end > start:
            return None
    return start if start < duty.end else None


def _work_slots(day: Day, duties: Sequence[Duty], summary: str) -> list[Slot]:
    """The timed daytime duties in order, each ending where the next begins at the latest."""
    morning_start = day.wake + ROUTINE_MINUTES + BREAKFAST_MINUTES
    spans: list[tuple[int, int | None, Duty]] = []
    for duty in duties:
        start = morning_start if duty.start == MORNING else duty.start
        end = duty.end if isinstance(duty.end, int) else None
        if start is None and end is not None:
            start = _until_start(duty, duties, morning_start)
        if isinstance(start, int):
            spans.append((start, end, duty))
    spans.sort(key=lambda s: s[0])
    slots: list[Slot] = []
    rests: list[Slot] = []  # what a duty has left after one inside it ("a break from 2pm")
    workplace = _workplace(day, summary)
    for index, (start, end, duty) in enumerate(spans):
        start = max(start, slots[-1].end if slots else start)
        following = spans[index + 1][0] if index + 1 < len(spans) else None
        stop = end if end is not None else _open_end(start, following, day, duty.activity)
        stop = min(stop, following) if following is not None and following > start else stop
        place = resolve_place(duty.context, day, fallback=_fallback(duty, day, workplace))
        if stop - start >= MIN_ITEM:
            slots.append(Slot(start, stop, duty.activity, place))
        if end is not None and stop < end:
            rests.append(Slot(max(stop, start), end, duty.activity, place))
    resumed = [piece for rest in rests for piece in _uncovered(rest, slots)]
    return sorted([*slots, *(p for p in resumed if p.length >= MIN_ITEM)], key=lambda s: s.start)


def _uncovered(rest: Slot, slots: Sequence[Slot]) -> list[Slot]:
    """The parts of `rest` no slot covers: a counter worked from 10am to 5:30pm, with a break
    from 2pm to 2:30pm, is worked again from 2:30pm (it used to end at the break)."""
    pieces = [rest]
    for slot in slots:  # each piece minus the slot: what is before it and what is after it
        pieces = [
            part
            for piece in pieces
            for part in (
                replace(piece, end=min(piece.end, slot.start)),
                replace(piece, start=max(piece.start, slot.end)),
            )
            if part.length > 0
        ]
    return pieces


def _open_end(start: int, following: int | None, day: Day, activity: str) -> int:
    """Where a duty with no stated end stops: work runs to the next duty, 5 pm, or before
    bed; anything else (a run, a class) lasts DEFAULT_DUTY_MINUTES at most."""
    if not _WORKLIKE.search(activity):
        end = start + DEFAULT_DUTY_MINUTES
        return min(end, following) if following is not None and following > start else end
    if following is not None and following > start:
        return following
    if start < LATE_SHIFT:
        return DAY_END
    return day.bed - BEDTIME_WIND_DOWN


def _fallback(duty: Duty, day: Day, workplace: str | None) -> str | None:
    """Where a duty naming no place happens: at work when it is work, else at home."""
    return workplace if _WORKLIKE.search(duty.context) else day.home


def _with_lunch(day: Day, slots: list[Slot], *, at_home: bool, long: bool) -> list[Slot]:
    """Lunch at noon (inside a long duty as a break), or when a morning shift ends."""
    length = LONG_MEAL_MINUTES if long else MEAL_MINUTES
    covering = next((s for s in slots if s.start <= USUAL_LUNCH < s.end), None)
    start = USUAL_LUNCH
    early_shift = covering is not None and covering.start < EARLY_SHIFT
    if early_shift and covering is not None and covering.end - USUAL_LUNCH <= 120:
        start = covering.end  # an early shift over by 2 pm: lunch after it
    start = _awake(day, start, length)
    where = day.home if at_home else (covering.location if covering else None)
    where = where or _eatery(day, start) or day.home
    text = "have lunch at home" if where == day.home else "have lunch"
    return insert(slots, Slot(start, start + length, text, where, kind=MEAL))


def _eatery(day: Day, at: int) -> str | None:
    """A known cafe or tavern open at that time, for a meal out."""
    return _public_place(day, ["cafe kettle tavern"], at)


def _dinner_slot(day: Day, slots: Sequence[Slot]) -> Slot | None:
    """Dinner at 6 pm at home; after a shift that runs past it, or before an evening one;
    none when a duty then is the meal."""
    busy = next((s for s in slots if s.start <= USUAL_DINNER < s.end and s.kind == ROUTINE), None)
    if busy is not None and _DINING.search(busy.description):
        return None
    start = USUAL_DINNER
    text = "have dinner at home"
    if busy is not None and "lunch" not in busy.description:
        if busy.end <= LATEST_DINNER:
            start = busy.end
        elif busy.start - MEAL_MINUTES >= EARLIEST_DINNER:
            start, text = busy.start - MEAL_MINUTES, "have an early dinner at home"
        else:
            start, text = busy.end, "have a late supper at home"
    start = _awake(day, min(start, day.bed - MEAL_MINUTES), MEAL_MINUTES)
    return Slot(start, start + MEAL_MINUTES, text, day.home, MEAL)


def _awake(day: Day, start: int, length: int) -> int:
    """A meal time moved into the waking day (a night owl's lunch is after it gets up)."""
    earliest = day.wake + ROUTINE_MINUTES
    if earliest <= start <= day.bed - length:
        return start
    return min(max(start, earliest) if start >= earliest else earliest + 3 * 60, day.bed - length)


def _evening(day: Day, after: int, duties: Sequence[Duty]) -> list[Slot]:
    """Evening duties after dinner, else the persona's pastime, until bedtime."""
    end = day.bed
    if after >= end:
        return []
    if duties:
        duty = duties[0]
        place = resolve_place(duty.context, day, fallback=day.home)
        return [Slot(after, end, duty.activity, place)]
    pastime = occupations.leisure_of(day.persona)
    return [Slot(after, end, pastime, resolve_place(pastime, day, fallback=day.home), OUTING)]


def _fill_flexible(day: Day, slots: list[Slot], flexible: Sequence[Duty]) -> list[Slot]:
    """Untimed duties go into the longest daytime gaps, one each."""
    result = list(slots)
    workplace = _workplace(day, "")
    for duty in flexible:
        gap = _longest_gap(result, day)
        if gap is None:
            break
        start, end = gap
        place = resolve_place(duty.context, day, fallback=_fallback(duty, day, workplace))
        result = sorted([*result, Slot(start, end, duty.activity, place)], key=lambda s: s.start)
    return result


def _longest_gap(slots: Sequence[Slot], day: Day) -> tuple[int, int] | None:
    """The longest stretch between slots of the waking day, if at least MIN_GAP long."""
    ordered = sorted(slots, key=lambda s: s.start)
    gaps = [
        (a.end, b.start)
        for a, b in itertools.pairwise(ordered)
        if b.start - a.end >= MIN_GAP and a.end < day.bed
    ]
    return max(gaps, key=lambda g: (g[1] - g[0], -g[0]), default=None)


def fill_gaps(day: Day, slots: Sequence[Slot]) -> list[Slot]:
    """Free time (an item ended early or was cut around an appointment) → an outing."""
    result: list[Slot] = []
    for slot in sorted(slots, key=lambda s: s.start):
        if result and slot.start - result[-1].end >= MIN_GAP:
            start = result[-1].end
            done = {s.description for s in result if s.kind == OUTING}
            beside = {_area_name(s.location or "") for s in (result[-1], slot)}
            end = min(slot.start, start + MAX_OUTING)
            outing = _outing(day, start, end, len(result), done=done, beside=beside)
            result.append(outing)
            if slot.start - outing.end >= MIN_GAP:
                result.append(Slot(outing.end, slot.start, AT_HOME, day.home, OUTING))
        result.append(slot)
    return _contiguous(result, close_gaps=True)


def _outing(
    day: Day,
    start: int,
    end: int,
    index: int,
    *,
    done: Collection[str] = (),
    beside: Collection[str] = (),
) -> Slot:
    """An errand or pastime for free time at a known public place open then, else home; none
    done already that day (groceries bought before each half of a split shift read as
    filler), none where the agent is just before or after ("have a drink at The Colliers
    Arms; then have a half of bitter at The Colliers Arms")."""
    evening = start >= USUAL_DINNER
    options = [
        (text, place)
        for text, words, when in ERRANDS
        if (when == "evening") == evening
        and (place := _public_place(day, [words], start, unless=_unless(text))) is not None
        and text.format(place=_area_name(place)) not in done
        and place not in beside
    ]
    if not options:
        return Slot(start, end, AT_HOME, day.home, OUTING)
    text, place = options[stable_index(f"{day.persona.name}|{day.date:%F}|{index}", len(options))]
    return Slot(start, end, text.format(place=_area_name(place)), place, OUTING)


_DWELLING = stems("bed bedroom")
_LODGING = stems("hotel inn hostel lodge")
"""Somebody's house (a bed in it) is no place for an errand or a walk, unless it lets rooms."""


def _unless(errand: str) -> str:
    return _INDOORS if errand.startswith("take a walk") else ""


def _public_place(day: Day, kinds: Sequence[str], at: int, *, unless: str = "") -> str | None:
    """A known area outside the agent's home whose name or rooms carry a word of the first
    of `kinds` that any does, else whose objects do: a pub is where to drink before a crew
    room with a kettle is a cafe. None whose name or rooms carry a word of `unless`."""
    home = (day.home or "").split(SEPARATOR)[0].strip()
    named: dict[str, set[str]] = {}
    furnished: dict[str, set[str]] = {}
    for path in day.known_places:
        parts = [p.strip() for p in path.split(SEPARATOR)]
        if parts[0] != home:
            named.setdefault(parts[0], set()).update(stems(" ".join(parts[:2])))
            furnished.setdefault(parts[0], set()).update(stems(path))
    barred = {area for area, words in named.items() if words & stems(unless)}
    barred |= {a for a, words in furnished.items() if words & _DWELLING and not words & _LODGING}
    named = {a: w for a, w in named.items() if a not in barred}
    furnished = {a: w for a, w in furnished.items() if a not in barred}
    for areas in (named, furnished):
        for words in kinds:
            matching = sorted(a for a, w in areas.items() if w & stems(words))
            if matching:
                return matching[0]
    return None


def appointments(day: Day, notes: Sequence[str]) -> list[Slot]:
    """Today's gatherings the agent goes to, from what it recalled: its own (it prepares and
    holds them), those it agreed to go to, and those open to everyone. Each kind of news says
    what it puts in the plan (`NewsKind.slots`)."""
    slots: list[Slot] = []
    for event in knowledge.occasions_on(notes, day=day.date.date(), now=day.date):
        if not event.about(day.persona.name) and declined(event, notes):
            continue
        if not (event.about(day.persona.name) or event.open_to_all or agreed(event, notes)):
            continue
        for part in knowledge.kind_of(event).slots(event, name=day.persona.name):
            place = resolve_place(part.place or "", day, fallback=None)
            slots.append(Slot(part.start, part.end, part.description, place, kind=APPOINTMENT))
    return slots


OUTREACH_HOURS = (
    (12 * 60, "have lunch out and invite people to the {what}"),
    (19 * 60, "invite people to the {what}"),
)
"""When a host goes among people to invite them, and what it does then: the lunch hour at
a cafe and an evening hour at the pub (one of them may be when the town is elsewhere)."""
OUTREACH_MINUTES = 60
OUTREACH_DAYS = 2
"""A host goes out on each of the days before its gathering (and the day itself, before it)."""
GATHERING_PLACES = {
    12 * 60: (
        "cafe café coffee kettle bakery tearoom canteen diner",
        "tavern bar pub inn cantina chicheria chichería",
        "square green market plaza piazza shop store tienda",
    ),
    19 * 60: (
        "tavern bar pub inn cantina chicheria chichería",
        "cafe café coffee hall",
        "square green market plaza piazza",
    ),
}
"""Words of public places where a host finds people at each hour, likeliest first (where
the town eats at noon and drinks of an evening, before an empty green)."""


def outreach(day: Day, notes: Sequence[str], *, taken: Sequence[Slot]) -> list[Slot]:
    """The hours (`OUTREACH_HOURS`) an agent spends among people inviting them, when the
    gathering it spreads word of (`_promoted_after`) is later today or within
    `OUTREACH_DAYS`: organisers seek guests out, they do not wait at home (or at a village
    school) to be found. None at an hour that is
    taken or when no public place for it is known."""
    slots: list[Slot] = []
    for start, doing in OUTREACH_HOURS:
        end = start + OUTREACH_MINUTES
        if start < day.wake or end > day.bed or any(s.start < end and start < s.end for s in taken):
            continue
        hosted = _promoted_after(day, notes, end)
        place = _public_place(day, GATHERING_PLACES[start], start)
        if hosted is not None and place is not None:
            # where is the slot's, not the words': "invite people to the work party at The
            # Stag's Rest", observed and recalled, would tell of a party at The Stag's Rest
            slots.append(Slot(start, end, doing.format(what=hosted.what), place, APPOINTMENT))
        elif start == NEWS_HOUR and place is not None and _news_to_spread(day, notes):
            slots.append(Slot(start, end, SPREADING, place, APPOINTMENT))
    return slots


NEWS_HOUR = 12 * 60
SPREADING = "have lunch out and tell people the news"
"""Whoever saw news happen (the slope come down on the road, the riverbank fall in) goes out
among people at lunch that day and the next to tell it, as a host goes out to invite."""


def _news_to_spread(day: Day, notes: Sequence[str]) -> bool:
    """Whether the agent knows news first (`knowledge.firsthand`) that it learned since the
    day before: news from longer ago has been told already or no longer needs telling."""
    name = day.persona.name
    first = {f.key for f in knowledge.firsthand(notes, name=name, now=day.date)}
    since = day.date - timedelta(days=1)
    return any(
        fact.kind == report.NAME and fact.key in first and (at is None or at >= since)
        for at, fact in knowledge.own_news(notes, name=name, now=day.date)
    )


def _promoted_after(day: Day, notes: Sequence[str], end: int) -> Fact | None:
    """The gathering within `OUTREACH_DAYS` the agent spreads word of (today's only if it
    begins after `end`): its own, or one open to all that it knew of before anyone told it
    (the lifeboat's mechanic who has the film night's poster)."""
    known_first = knowledge.firsthand(notes, name=day.persona.name, now=day.date)
    for ahead in range(OUTREACH_DAYS + 1):
        on = (day.date + timedelta(days=ahead)).date()
        for event in knowledge.occasions_on(notes, day=on, now=day.date):
            later = ahead > 0 or (event.start_min is not None and event.start_min > end)
            first = event.open_to_all and any(
                gathering.same_occasion(event, f) for f in known_first
            )
            if later and (event.about(day.persona.name) or first):
                return event
    return None


FREE_KINDS = frozenset({OUTING, MEAL})
"""Parts of a routine an agent gives up for a gathering it was not asked to: pastimes and
meals, never work, sleep or getting up."""


def drop_ins(
    day: Day, notes: Sequence[str], routine_slots: Sequence[Slot], *, taken: Sequence[Slot]
) -> list[Slot]:
    """Today's gatherings the agent heard of without being asked, when its day is free then
    (only pastimes and meals in the way) and it knows where: people drop by what they hear
    of, as word of mouth brought guests to the paper's party."""
    slots: list[Slot] = []
    for event in knowledge.occasions_on(notes, day=day.date.date(), now=day.date):
        if event.about(day.persona.name) or event.open_to_all or agreed(event, notes):
            continue  # an appointment already
        if declined(event, notes):
            continue
        for part in knowledge.kind_of(event).slots(event, name=day.persona.name):
            place = resolve_place(part.place or "", day, fallback=None)
            busy = [
                s
                for s in [*routine_slots, *taken, *slots]
                if s.start < part.end
                and part.start < s.end
                and (s.kind not in FREE_KINDS or s in taken or s in slots)
            ]
            if place is not None and not busy:
                slots.append(Slot(part.start, part.end, part.description, place, APPOINTMENT))
    return slots


def directive_slots(day: Day, directives: Sequence[str]) -> list[Slot]:
    """Timed directives at their time, untimed ones in free evening time."""
    texts = [" ".join(d.split()).rstrip(".") for d in directives if d.strip()][: MAX_ITEMS - 2]
    slots: list[Slot] = []
    evening = USUAL_DINNER + MEAL_MINUTES
    for text in texts:
        span = clock.event_span(text)
        place = resolve_place(text, day, fallback=None)
        if span is None:
            slots.append(Slot(evening, evening + DIRECTIVE_MINUTES, text, place, kind=DIRECTIVE))
            evening += DIRECTIVE_MINUTES
            continue
        start, end = span
        length = end - start if end is not None and end > start else DIRECTIVE_MINUTES
        slots.append(Slot(start, start + length, text, place, kind=DIRECTIVE))
    return slots


def _within_day(events: Sequence[Slot], wake: int, bed: int) -> list[Slot]:
    """Clamp fixed items into the waking day and push overlapping ones later, in order."""
    result: list[Slot] = []
    earliest = wake
    for event in events:
        length = min(event.length, bed - wake)
        start = min(max(event.start, earliest), bed - length)
        if start < earliest:
            continue  # no room left in the day; it stays in the memory stream
        result.append(replace(event, start=start, end=start + length))
        earliest = start + length
    return result


def resolve_place(text: str, day: Day, *, fallback: str | None, away: bool = False) -> str | None:
    """The known place an activity's words name (module docstring), else `fallback`.

    A path counts when one of its segments is named in the text ("the art studio"), or when
    all its segments' words are; the most segments named wins, then the most words shared.
    The result is an area or "area: sub-area" (an object named gives its sub-area). `away`
    skips the agent's home area (looking for where someone works).
    """
    if not away and re.search(r"\bhome\b", text, re.I) and day.home:
        return day.home
    words, lowered = stems(text), text.lower()
    home = _area_name(day.home or "")
    best: tuple[int, int] | None = None
    chosen: str | None = None
    for path in day.known_places:
        parts = [p.strip() for p in path.split(SEPARATOR)]
        if away and parts[0] == home:
            continue
        named = [
            i for i, p in enumerate(parts) if re.search(rf"\b{re.escape(p.lower())}\b", lowered)
        ]
        shared = len(stems(" ".join(parts)) & words)
        if not named and shared < len(parts):
            continue
        score = (len(named), shared)
        if best is None or score > best:
            best, chosen = score, JOINER.join(parts[: min(2, max(named, default=1) + 1)])
    if chosen is not None:
        return chosen
    return _by_kind(lowered, day) or _by_compound(lowered, day) or fallback


def _by_kind(lowered: str, day: Day) -> str | None:
    """An area whose name carries a place word of the text ("the park" → "Willow Park")."""
    kinds = {w for w in re.findall(r"[a-z]+", lowered) if w in PLACE_WORDS}
    for path in day.known_places:
        area = _area_name(path)
        if kinds & set(area.lower().split()):
            return area
    return None


COMPOUND_HEAD = 5
"""The shortest word of an area's name a compound may begin with ("church" of "churchyard")."""


def _by_compound(lowered: str, day: Day) -> str | None:
    """An area one of whose name's words begins a longer word of the text: "the churchyard"
    is St Mary's Church, "the kyrkjegard" Solvik Kyrkje (a compound of the place's word)."""
    said = set(re.findall(r"[a-z]+", lowered))
    for path in day.known_places:
        area = _area_name(path)
        for word in re.findall(r"[a-z]+", area.lower()):
            if len(word) >= COMPOUND_HEAD and any(_compound_of(w, word) for w in said):
                return area
    return None


COMPOUND_TAILS = frozenset("yard yards gard garden side front gate house hof platz plass".split())  # noqa: SIM905
"""Ends that make a place of an English place word ("churchyard"; not "housework")."""


def _compound_of(said: str, word: str) -> bool:
    """Whether `said` is a compound headed by `word`: any longer word of a name that is no
    English place word ("kyrkjegard" of "Kyrkje"), or a place word with a place's end."""
    if not said.startswith(word) or len(said) == len(word):
        return False
    return word not in PLACE_WORDS or said[len(word) :] in COMPOUND_TAILS


def _area_name(path: str) -> str:
    return path.split(SEPARATOR)[0].strip()


def _workplace(day: Day, summary: str) -> str | None:
    """The first known area the persona's work prose names, else home."""
    persona = day.persona
    for text in (persona.background, persona.daily_plan_requirement, summary):
        place = resolve_place(text, day, fallback=None, away=True)
        if place is not None:
            return _area_name(place)
    return day.home


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


def _contiguous(slots: Sequence[Slot], *, close_gaps: bool = False) -> list[Slot]:
    """In time order, overlaps cut (the later item keeps its start) and, with `close_gaps`,
    each item running until the next begins; empty items dropped."""
    ordered = sorted(slots, key=lambda s: s.start)
    result: list[Slot] = []
    for slot in ordered:
        overlaps = bool(result) and result[-1].end > slot.start
        if overlaps or (close_gaps and result and result[-1].end < slot.start):
            result[-1] = replace(result[-1], end=slot.start)
        result.append(slot)
    return [s for s in result if s.length > 0]


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
    """Merge the shortest routine items, or split the longest, until 5–8 items remain; up to
    MAX_ITEMS_APART when what is left to merge happens in different places or is a meal."""
    result = list(slots)
    while len(result) > MAX_ITEMS:
        i = _least_needed(result, anywhere=len(result) > MAX_ITEMS_APART)
        if i is None:
            break
        result[i - 1 : i + 1] = [_folded(result[i - 1], result[i])]
    while len(result) < MIN_ITEMS:
        i = max(range(len(result)), key=lambda k: (not result[k].fixed, result[k].length, -k))
        if result[i].length < 2 * MIN_ITEM:
            break  # nothing left worth splitting; a very short day keeps fewer items
        half = result[i].length // 2
        first = replace(result[i], end=result[i].start + half)
        second = replace(result[i], start=first.end)
        result[i : i + 1] = [first, second]
    return result


_MERGE_ORDER = (MEAL, OUTING, ROUTINE)
"""Which items give way first when a day has too many: breakfast (folded into getting ready),
then outings after a duty (the duty runs on), then the shortest duty next to another (joined:
"A; then B"). Meals after getting up are never folded into anything else."""
_ABSORBS = {MEAL: (MORNING_ROUTINE,), OUTING: (ROUTINE, OUTING), ROUTINE: (ROUTINE, OUTING)}


def _least_needed(slots: Sequence[Slot], *, anywhere: bool) -> int | None:
    """The index of the item to fold into the one before it, or None.

    Two items at different places are not joined ("sort the mail; then tend the hens" would
    all happen at one of them), nor a meal and another item, nor anything into an appointment
    (it keeps its name): a day with nothing else left to join keeps more items. Only past
    MAX_ITEMS_APART (`anywhere`) is one of those joined, the least harmful first."""
    for kind in _MERGE_ORDER:
        movable = [
            i
            for i in range(1, len(slots) - 1)
            if slots[i].kind == kind
            and slots[i - 1].kind in _ABSORBS[kind]
            and (kind != ROUTINE or _same_place(slots[i - 1], slots[i]))
        ]
        if movable:
            return min(movable, key=lambda k: (slots[k].length, k))

    def harm(i: int) -> tuple[bool, bool, bool]:
        before, item = slots[i - 1], slots[i]
        return (before.fixed, not _same_place(before, item), MEAL in (before.kind, item.kind))

    foldable = [i for i in range(1, len(slots) - 1) if not slots[i].fixed]
    if not anywhere:
        foldable = [i for i in foldable if not any(harm(i))]
    return min(foldable, key=lambda k: (harm(k), slots[k].length, k)) if foldable else None


def _same_place(before: Slot, item: Slot) -> bool:
    """Whether joining the two keeps each where it happens (a place not known yet fits any)."""
    return before.location is None or item.location is None or before.location == item.location


def _folded(before: Slot, item: Slot) -> Slot:
    """`item` folded into the slot before it, keeping what both say where it matters."""
    if item.kind == OUTING and before.kind != OUTING:
        return replace(before, end=item.end)  # the duty runs on
    if item.kind == MEAL and before.kind == MORNING_ROUTINE:
        text = "wake up, get ready and have breakfast"
        return replace(before, end=item.end, description=text)
    longer = item if item.length > before.length else before  # where most of it is spent
    return replace(
        before,
        end=item.end,
        description=in_turn(before.description, item.description),
        location=longer.location,
    )


def _item(slot: Slot, midnight: datetime) -> PlanItem:
    return PlanItem(
        start=midnight + timedelta(minutes=slot.start),
        duration_min=slot.length,
        description=slot.description,
        location=slot.location,
        emoji=emoji(slot.description),
    )
