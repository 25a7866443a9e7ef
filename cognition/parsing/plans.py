"""Parsers for the planning operations: day plans, decomposition, places, object states, emoji."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, datetime, time, timedelta

from cognition.clamps import lay_out_steps, order_day_plan
from cognition.errors import InvalidOutput
from cognition.parsing import repairs
from cognition.parsing.day_parts import PARTS, DayPart
from cognition.parsing.extract import load
from cognition.parsing.schemas import (
    DayPlanOut,
    EmojiOut,
    LocationOut,
    ObjectStateOut,
    StepsOut,
)
from cognition.prompting import one_line
from cognition.types import Granularity, PlanItem

_TIME = re.compile(r"(?<!\d)(\d{1,2})(?::(\d{2}))?(?::\d{2})?\s*([ap])?\.?\s*m?\b", re.I)
_NO_STATE = frozenset({"", "null", "none", "n/a", "unchanged", "unaffected"})
_PLACE_SEPARATOR = re.compile(r"\s*:\s*")

HOURS_PER_HALF_DAY = 12
EVENING = time(18, 0)
"""After an item this late, an earlier time in the outline is past midnight."""
LATE = time(23, 0)
"""An item still going at this hour runs into the night."""
NOON_HOUR_BEFORE = time(10, 0)
"""After an item from this time and before the evening, "12:xx am" is a slip for noon."""
MAX_EMOJI_CHARS = 16
"""Two emoji, even family and flag sequences joined by zero-width joiners, fit in 16 code points."""


def parse_plan_day(raw: str, *, now: datetime) -> list[PlanItem]:
    """The day outline from `now`'s date, in time order, every item with a positive duration.

    A time earlier than an evening item before it is past midnight ("01:00 go to bed" after
    "19:00 dinner" is tomorrow at 1 am); otherwise items may come in any order."""
    return order_day_plan(read_plan_day(raw, now=now))


def _ends_late(item: PlanItem, day: date) -> bool:
    """The item runs into the evening's last hour or past midnight (a night owl's shift
    from 2 pm for ten hours): a "00:00" after it is midnight, not a slip for noon."""
    return item.end >= datetime.combine(day, LATE, tzinfo=item.start.tzinfo)


def read_plan_day(raw: str, *, now: datetime) -> list[PlanItem]:
    """The day outline's items in the order the model wrote them (durations as written)."""
    items = load(raw, DayPlanOut, list_key="items").items
    plan: list[PlanItem] = []
    day = now.date()
    for position, item in enumerate(items, start=1):
        start = _clock_time(item.start)
        if start is None or not item.description.strip():
            raise InvalidOutput(
                f"item {position} needs a start time (HH:MM) and a description", raw=raw
            )
        before = plan[-1].start.time() if plan else None
        late = bool(plan) and _ends_late(plan[-1], day)
        slip = before is not None and NOON_HOUR_BEFORE <= before < EVENING and not late
        if slip and start.hour == 0:
            # "12:30 am" after an 11:00 item is lunch at 12:30 pm, the commonest slip
            repairs.note(f"item {position} at {item.start!r} read as just after noon")
            start = start.replace(hour=HOURS_PER_HALF_DAY)
        evening = before is not None and (before >= EVENING or late)
        if evening and start < plan[-1].start.time() and plan[-1].start.date() == day:
            day += timedelta(days=1)
        plan.append(
            PlanItem(
                start=datetime.combine(day, start, tzinfo=now.tzinfo),
                duration_min=item.duration_min,
                description=item.description.strip(),
                location=(item.location or "").strip() or None,
            )
        )
    if not plan:
        raise InvalidOutput("the plan has no items", raw=raw)
    return plan


def read_day_parts(raw: str) -> list[DayPart] | None:
    """The outline's items by part of day, or None when the answer gives clock times instead
    (`read_plan_day` reads those)."""
    items = load(raw, DayPlanOut, list_key="items").items
    if any(item.start.strip() and not item.part.strip() for item in items):
        return None
    parts: list[DayPart] = []
    for position, item in enumerate(items, start=1):
        part = item.part.strip().lower()
        if part not in PARTS:
            raise InvalidOutput(
                f"item {position} needs a part of day: one of {', '.join(PARTS)}", raw=raw
            )
        if item.description.strip():
            location = (item.location or "").strip() or None
            parts.append(DayPart(part, one_line(item.description), location))
    if not parts:
        raise InvalidOutput("the plan has no items", raw=raw)
    return parts


def parse_decompose(raw: str, *, parent: PlanItem, granularity: Granularity) -> list[PlanItem]:
    """The parent's span covered by back-to-back steps within the granularity's bounds."""
    return lay_out_steps(parent, read_steps(raw), granularity)


def read_steps(raw: str) -> list[tuple[str, int]]:
    """The decomposition's (description, minutes) as written, empty descriptions dropped."""
    steps = load(raw, StepsOut, list_key="steps").steps
    usable = [(step.description.strip(), step.duration_min) for step in steps]
    usable = [(description, minutes) for description, minutes in usable if description]
    if not usable:
        raise InvalidOutput("the decomposition has no steps", raw=raw)
    return usable


def parse_choose_location(raw: str, *, options: Sequence[str], may_stay: bool = False) -> str:
    """One of `options` (names of one level's places), or "" when `may_stay` and the answer is
    empty. Matched loosely (case, spacing), also when copied with its notes ("Cafe — open …")
    or written as a path ("Cafe: counter" → "counter" among the cafe's places).

    An answer outside the options is invalid: agents may only go where they know.
    """
    answer = one_line(load(raw, LocationOut).location or "")
    if not answer and may_stay:
        return ""
    by_key = {_place_key(option): option for option in options}
    named = answer.split(NOTES_SEPARATOR)[0]
    for candidate in (answer, named, *reversed(_PLACE_SEPARATOR.split(named))):
        found = by_key.get(_place_key(candidate))
        if found is not None:
            return found
    raise InvalidOutput("the location is not one of the listed options", raw=raw)


NOTES_SEPARATOR = " — "
"""Between an option's name and its notes in the choose_location prompt."""


def parse_object_state(raw: str) -> str | None:
    """The object's state in a few words, or None when the action leaves it alone."""
    state = one_line(load(raw, ObjectStateOut).state or "")
    return None if state.lower() in _NO_STATE else state


def parse_emoji(raw: str) -> str:
    """One or two emoji: letters and digits the model added are dropped."""
    emoji = "".join(char for char in load(raw, EmojiOut).emoji if not char.isascii())
    if not emoji.strip():
        raise InvalidOutput("no emoji in the answer", raw=raw)
    return emoji.strip()[:MAX_EMOJI_CHARS]


def _clock_time(text: str) -> time | None:
    """`07:00`, `7:00 am`, `7pm`, `19:30` or an ISO timestamp's time, as a time of day."""
    if "T" in text:
        text = text.split("T", 1)[1]
    match = _TIME.search(text)
    if match is None:
        return None
    hour, minute = int(match[1]), int(match[2] or 0)
    meridiem = (match[3] or "").lower()
    if meridiem and not 1 <= hour <= HOURS_PER_HALF_DAY:
        return None
    if meridiem:
        hour = hour % HOURS_PER_HALF_DAY + (HOURS_PER_HALF_DAY if meridiem == "p" else 0)
    try:
        return time(hour, minute)
    except ValueError:
        return None


def _place_key(place: str) -> str:
    return _PLACE_SEPARATOR.sub(":", one_line(place).lower()).strip(": ")
