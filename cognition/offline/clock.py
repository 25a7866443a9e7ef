"""Clock times read from persona prose and directives, as minutes after midnight.

Personas say when they sleep in free text ("goes to bed around 11pm, awakes up around 6am",
"wakes up at 7:30 am", "sleeps at midnight"); directives say when something must happen
("… at Hobbs Cafe at 5pm", "from 2pm to 4pm"). These helpers find those times tolerantly and
fall back to named defaults rather than guessing wildly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from cognition.offline.inflection import inflect

MINUTES_PER_HOUR = 60
MINUTES_PER_DAY = 24 * MINUTES_PER_HOUR
NOON = 12 * MINUTES_PER_HOUR
EVENING_START = 17 * MINUTES_PER_HOUR
"""From this minute of the day it is evening: work is done and people are free to go out."""
DEFAULT_WAKE = 7 * MINUTES_PER_HOUR
DEFAULT_BED = 23 * MINUTES_PER_HOUR
MIN_AWAKE = 8 * MINUTES_PER_HOUR
MAX_AWAKE = 20 * MINUTES_PER_HOUR
"""A parsed day shorter or longer than this is a misreading: the defaults are used instead."""
LATEST_EVENING_GUESS = 7
"""A bare "at 5" in a directive means 5pm; from 8 onwards a bare hour means the morning."""
EARLIEST_BEDTIME_GUESS = 6
"""A bare bedtime "at 11" means 11pm, "at 1" means 1am; from 6 to 11 it is the evening."""

_WORDS = inflect.engine()
_TIME_RE = re.compile(
    r"(?P<prefix>\b(?:at|around|about|by|from|until|till|to|between|and|@)\s+)?"
    r"\b(?:(?P<midnight>midnight)|(?P<noon>noon|midday)"
    r"|(?P<hour>\d{1,2})(?::(?P<minute>\d{2}))?\s*(?P<meridiem>[ap]\.?\s?m\b\.?)?)",
    re.IGNORECASE,
)
_HOURS: dict[str, int] = {str(_WORDS.number_to_words(str(n))): n for n in range(1, 13)}
_HOUR = rf"(?P<h>{'|'.join(sorted(_HOURS, key=len, reverse=True))}|\d{{1,2}})"
_ANY_HOUR = _HOUR.replace("?P<h>", "?:")
_PAST_TO = {"half": 30, "a quarter": 15, "quarter": 15, "twenty": 20, "ten": 10, "five": 5}
_SPELLED = (
    (
        re.compile(
            rf"\b(?P<m>{'|'.join(_PAST_TO)})\s+(?P<rel>past|after|to|before)\s+{_HOUR}\b", re.I
        ),
        lambda m: _clock(
            _hour(m["h"]) - (m["rel"].lower() in ("to", "before")),
            _PAST_TO[m["m"].lower()]
            if m["rel"].lower() in ("past", "after")
            else 60 - _PAST_TO[m["m"].lower()],
        ),
    ),
    (  # a bare hour opening a span: "9 till noon", "nine until one"
        re.compile(
            rf"(?<![\w:])(?<!at )(?<!from )(?<!by )(?<!about )(?<!around )(?<!between )"
            rf"{_HOUR}\s+(?P<rel>till|until)\s+(?=(?:{_ANY_HOUR}|noon|midnight)\b)",
            re.I,
        ),
        lambda m: f"from {_hour(m['h'])} {m['rel']} ",
    ),
    (  # a span after a day or part of it: "Saturday 8 to 11", "tonight 7 - 9"
        re.compile(
            r"\b(?P<d>(?:mon|tues|wednes|thurs|fri|satur|sun)day|today|tomorrow|tonight|morning|afternoon|"
            rf"evening|night),?\s+{_HOUR}\s*(?P<rel>to|till|until|-|–)\s*"
            rf"(?=(?:{_ANY_HOUR}|noon|midnight)\b)",
            re.I,
        ),
        lambda m: f"{m['d']} from {_hour(m['h'])} {'to' if m['rel'] in '-–' else m['rel']} ",
    ),
    (  # British "half seven" is half past seven, only as a time ("at half seven")
        re.compile(rf"\b(?P<p>at|from|until|till|by|around|about)\s+half\s+{_HOUR}\b", re.I),
        lambda m: f"{m['p']} {_clock(_hour(m['h']), 30)}",
    ),
    (
        re.compile(rf"\b{_HOUR}\s+(?:o'clock|o’clock|oclock)\b", re.I),
        lambda m: _clock(_hour(m["h"]), 0),
    ),
    (
        re.compile(rf"\b{_HOUR}[ -](?P<mm>fifteen|thirty|forty-five)\b", re.I),
        lambda m: _clock(_hour(m["h"]), {"fifteen": 15, "thirty": 30}.get(m["mm"].lower(), 45)),
    ),
    (
        re.compile(
            rf"\b(?P<p>at|from|until|till|to|by|around|about|between|and)\s+{_HOUR}\b"
            r"(?=\s*(?:[ap]\.?m\b|in the|at night|tonight|$|[,.;!?]"
            r"|\s+(?:and|to|till|until|on|so|for|with|when|at|in|sharp|after|before|every)\b))",
            re.I,
        ),
        lambda m: f"{m['p']} {_hour(m['h'])}",
    ),
)
"""Times said in words ("half past seven", "a quarter to eight", "seven o'clock", "at
seven"), rewritten as digits; hour words come from inflect."""
_PART_OF_DAY = re.compile(
    r"\b(?P<t>\d{1,2}(?::\d{2})?)\s+(?P<part>in the (?:morning|afternoon|evening)|at night|"
    r"tonight|this (?:morning|afternoon|evening))\b",
    re.I,
)


def _hour(word: str) -> int:
    return _HOURS[word.lower()] if word.lower() in _HOURS else int(word)


def _clock(hour: int, minute: int) -> str:
    return f"{(hour - 1) % 12 + 1}:{minute:02d}"


def numeric_times(text: str) -> str:
    """The text with times said in words written as digits, and "in the evening" after a time
    made "pm" ("half past seven in the evening" → "7:30 pm"), so one reader finds every time."""
    for pattern, digits in _SPELLED:
        text = pattern.sub(digits, text)
    return _PART_OF_DAY.sub(
        lambda m: f"{m['t']} {'am' if 'morning' in m['part'].lower() else 'pm'}", text
    )


_WAKE_WORDS = re.compile(r"\b(wake|wakes|woke|awake|awakes|get up|gets up|rise|rises)\b", re.I)
_BED_WORDS = re.compile(r"\b(bed|sleep|sleeps|asleep|retire|retires|turns? in)\b", re.I)


@dataclass(frozen=True)
class ClockTime:
    """A time found in text; `ambiguous` when it had no am/pm and no 24-hour reading."""

    minutes: int
    ambiguous: bool
    position: int


def find_times(text: str) -> list[ClockTime]:
    """Every clock time in the text, in order. Bare numbers count only after "at", "from"…"""
    found: list[ClockTime] = []
    for match in _TIME_RE.finditer(text):
        if match["midnight"]:
            found.append(ClockTime(0, False, match.start()))
        elif match["noon"]:
            found.append(ClockTime(NOON, False, match.start()))
        else:
            parsed = _numeric(match)
            if parsed is not None:
                found.append(ClockTime(parsed[0], parsed[1], match.start()))
    return found


def _numeric(match: re.Match[str]) -> tuple[int, bool] | None:
    """Minutes and ambiguity of "5pm", "7:30 am", "19:00" or a bare "at 5"."""
    hour, minute = int(match["hour"]), int(match["minute"] or 0)
    meridiem = (match["meridiem"] or "").lower().replace(".", "").replace(" ", "")
    if minute >= MINUTES_PER_HOUR or hour > 24:
        return None
    if meridiem:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if meridiem.startswith("p") else 0)
        return hour * MINUTES_PER_HOUR + minute, False
    if match["minute"] is None and match["prefix"] is None:
        return None  # "14th February", "25 years": not a time
    ambiguous = hour <= 12
    return (hour % 24) * MINUTES_PER_HOUR + minute, ambiguous


def wake_and_bed(lifestyle: str) -> tuple[int, int]:
    """Wake-up and bedtime in minutes after midnight; bedtime may exceed a day (past midnight).

    Clauses naming waking ("wakes", "gets up") give the wake time, clauses naming sleep ("bed",
    "sleeps") the bedtime; "sleeps from 11pm until 7am" gives both. Anything implausible falls
    back to DEFAULT_WAKE / DEFAULT_BED.
    """
    wake: int | None = None
    bed: int | None = None
    for clause in re.split(r"[,;.]|\band\b|\bthen\b", lifestyle):
        times = find_times(clause)
        if not times:
            continue
        if _WAKE_WORDS.search(clause) and wake is None:
            wake = times[0].minutes  # a bare wake hour is a morning hour: "at 7" → 7am
        elif _BED_WORDS.search(clause) and bed is None:
            bed = _as_bed(times[0])
            if len(times) > 1:  # "sleeps from 1am until 9am"
                wake = times[-1].minutes
    return _plausible(wake, bed)


def _as_bed(time: ClockTime) -> int:
    """A bare bedtime between 6 and 11 is an evening hour ("at 11" → 11pm)."""
    hour = time.minutes // MINUTES_PER_HOUR
    if time.ambiguous and EARLIEST_BEDTIME_GUESS <= hour < 12:
        return time.minutes + NOON
    return time.minutes


def _plausible(wake: int | None, bed: int | None) -> tuple[int, int]:
    """Resolve missing values and midnight wrap; reject spans no one lives by."""
    wake = DEFAULT_WAKE if wake is None else wake
    bed = DEFAULT_BED if bed is None else bed
    if bed <= wake:
        bed += MINUTES_PER_DAY
    if not MIN_AWAKE <= bed - wake <= MAX_AWAKE:
        return DEFAULT_WAKE, DEFAULT_BED
    return wake, bed


def event_span(text: str) -> tuple[int, int | None] | None:
    """Start (and end, if given) of an event in a directive, in minutes after midnight.

    "at 5pm" → (17:00, None); "from 2 to 4pm" → (14:00, 16:00). A bare hour up to 7 is read as
    afternoon or evening (events are rarely scheduled at 3am), 8 to 11 as morning.
    """
    times = find_times(text)
    if not times:
        return None
    start, end = times[0], times[1] if len(times) > 1 else None
    parts = {m[0].lower() for m in _SAID_PART.finditer(text)}
    start = _in_part_of_day(start, parts)
    end = _in_part_of_day(end, parts) if end is not None else None
    start_minutes = _event_minutes(start, end)
    end_minutes = _event_minutes(end, None) if end is not None else None
    late = end_minutes is not None and end_minutes <= start_minutes < end_minutes + NOON
    if end is not None and end.ambiguous and end_minutes is not None and late:
        end_minutes += NOON  # "from 7 till 9": the evening's 9, as its 7 was
    return start_minutes, end_minutes


EARLIEST_PART_HOUR = 5
"""Bare hours from this one are read in a part of the day the text says; earlier ones are
the afternoon's whatever it says."""
_SAID_PART = re.compile(r"\b(?:morning|tonight|evening|night)\b", re.I)
"""A part of the day said anywhere in the text: the meridiem of its bare hours."""


def _in_part_of_day(time: ClockTime, parts: set[str]) -> ClockTime:
    """A bare hour of a text that says one part of the day, read in it: "tonight from about
    eight" is 8 pm, "Saturday morning at 7" is 7 am."""
    hour = time.minutes // MINUTES_PER_HOUR
    if not time.ambiguous or len(parts) != 1 or not EARLIEST_PART_HOUR <= hour < 12:
        return time  # "Good morning! It's at 2" is still the afternoon's 2
    evening = parts != {"morning"}
    return replace(time, minutes=time.minutes + NOON * evening, ambiguous=False)


def _event_minutes(time: ClockTime, partner: ClockTime | None) -> int:
    """Resolve a bare hour, borrowing the meridiem of a partner time when there is one (not
    when that would start it after the partner: "9 till noon" is the morning's 9)."""
    if not time.ambiguous:
        return time.minutes
    hour = time.minutes // MINUTES_PER_HOUR
    afternoon = partner is not None and not partner.ambiguous and partner.minutes >= NOON
    if afternoon and partner is not None and hour < 12:
        return time.minutes + NOON if time.minutes + NOON < partner.minutes else time.minutes
    if 1 <= hour <= LATEST_EVENING_GUESS:
        return time.minutes + NOON
    return time.minutes
