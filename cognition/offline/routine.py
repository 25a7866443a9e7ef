"""A persona's daily rhythm read from its own prose: when it works, where, and what else.

`daily_plan_requirement` is written by a designer as a sentence of clauses:

    "Junie opens The Copper Kettle at 7am and works at the counter until late afternoon"
    "Eleanor teaches her history seminar at 10am, holds office hours after lunch, and writes
     at home in the evening"
    "Grace teaches a pottery class at Wren College on Wednesday afternoons"

Each clause becomes a `Duty`: a bare verb phrase ("open The Copper Kettle"), the place words it
names, and a span read from its time words:

    at 7am / from 1pm to 5pm / until 9pm     the stated times ("works from 1pm" is a start)
    in the morning                           from the end of the morning routine to noon
    in the late morning                      10:00–12:00
    in the afternoon / after lunch           13:00–17:00 (after lunch: 13:00–15:00)
    in the early afternoon                   13:00–15:00
    until late afternoon                     ends at 17:00
    in the evening / at night                after dinner until bedtime
    most of the day / during the day         from the morning to 17:00
    on Wednesdays / on Friday nights         only on that weekday

A clause with a start and no end followed by one with an end and no start is one stretch of
work ("opens … at 7am and works … until late afternoon" is 7:00–17:00). A clause with no time
word at all is not a duty (it is a habit, "visits the library more often than he needs to").
"with lunch at home" / "a long lunch at home" set where and how long lunch is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from cognition.grammar import bare, base_form
from cognition.offline.clock import EVENING_START, MINUTES_PER_HOUR, find_times
from cognition.offline.text import NAME_WORD

MORNING_END = 12 * MINUTES_PER_HOUR
AFTERNOON_START = 13 * MINUTES_PER_HOUR
LATE_AFTERNOON = EVENING_START
LATE_MORNING = 10 * MINUTES_PER_HOUR
EARLY_AFTERNOON_END = 15 * MINUTES_PER_HOUR
DINNER_TIME = 18 * MINUTES_PER_HOUR
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
EVENING = "evening"
"""A span marker resolved by the planner: after dinner until bedtime."""
MORNING = "morning"
"""A span marker resolved by the planner: after the morning routine until noon."""

_SPANS: tuple[tuple[re.Pattern[str], object, object], ...] = tuple(
    (re.compile(pattern, re.I), start, end)
    for pattern, start, end in (
        (r"\b(?:in the )?late morning\b", LATE_MORNING, MORNING_END),
        (r"\b(?:in the |every |each )?mornings?\b", MORNING, MORNING_END),
        (r"\b(?:in the )?early afternoon\b", AFTERNOON_START, EARLY_AFTERNOON_END),
        (r"\buntil late afternoon\b", None, LATE_AFTERNOON),
        (r"\bafter lunch\b", AFTERNOON_START, EARLY_AFTERNOON_END),
        (r"\b(?:in the |every |each )?afternoons?\b", AFTERNOON_START, LATE_AFTERNOON),
        (r"\b(?:in the |every |each |most |on \w+ )?(?:evenings?|nights?)\b", EVENING, EVENING),
        (r"\b(?:most of|during) the day\b", MORNING, LATE_AFTERNOON),
    )
)
"""Time words → (start, end): minutes, a marker the planner resolves, or None (unstated)."""
_WEEKDAY = re.compile(r"\bon ((?:mon|tues|wednes|thurs|fri|satur|sun)day)s?\b", re.I)
_LONG_LUNCH = re.compile(r"\b(long|late) lunch\b", re.I)
_LUNCH_AT_HOME = re.compile(r"\blunch at home\b", re.I)
_TIME_WORDS = re.compile(
    r"\s*\b(?:(?:at|around|from|until|till|to|by)\s+)?(?:\d{1,2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?"
    r"|noon|midnight)\b"
    r"|\s*\b(?:in the |every |each |most |on \w+ |at )(?:late |early )?"
    r"(?:mornings?|afternoons?|evenings?|nights?)\b"
    r"|\s*\buntil the evening\b"
    r"|\s*\b(?:until|till) late afternoon\b|\s*\bafter lunch\b|\s*\b(?:most of|during) the day\b"
    r"|\s*\bon (?:mon|tues|wednes|thurs|fri|satur|sun)days?\b"
    r"|\s*,?\s*with (?:a )?(?:long |late )?lunch at home\b",
    re.I,
)
_SUBJECT = re.compile(rf"^(?:[Hh]e|[Ss]he|[Tt]hey|{NAME_WORD}(?:\s+{NAME_WORD}(?=\s+[a-z]))?)\s+")
_CLAUSE_SPLIT = re.compile(r";|,\s*(?:and\s+)?|\s+and\s+")


@dataclass(frozen=True)
class Duty:
    """Something the persona does at a stated time of day (or, `flexible`, sometime by day)."""

    activity: str
    """A bare verb phrase: "open The Copper Kettle and work at the counter"."""
    start: int | str | None
    """Minutes after midnight, MORNING / EVENING (the planner resolves them), or None."""
    end: int | str | None
    weekday: int | None = None
    """0 = Monday; None = every day."""
    context: str = ""
    """The clause with its asides ("this month mostly in the Wren College library"): where
    the duty happens is read from it."""

    @property
    def flexible(self) -> bool:
        """No stated time: done in whatever daytime the stated duties leave."""
        return self.start is None and self.end is None

    def applies_on(self, weekday: int) -> bool:
        return self.weekday is None or self.weekday == weekday


@dataclass(frozen=True)
class Rhythm:
    """The duties of a persona and how it takes lunch."""

    duties: tuple[Duty, ...]
    lunch_at_home: bool = False
    long_lunch: bool = False


@dataclass
class _Clause:
    text: str
    context: str


def rhythm(requirement: str) -> Rhythm:
    """The persona's duties from its `daily_plan_requirement` (module docstring)."""
    clauses = [c for sentence in requirement.split(";") for c in _clauses(sentence)]
    duties = _joined([d for d in map(_duty, clauses) if d is not None])
    return Rhythm(
        duties=tuple(duties),
        lunch_at_home=bool(_LUNCH_AT_HOME.search(requirement)),
        long_lunch=bool(_LONG_LUNCH.search(requirement)),
    )


def _clauses(sentence: str) -> list[_Clause]:
    """The sentence's clauses, each starting with a verb (see `_piece`)."""
    clauses: list[_Clause] = []
    for separator, piece in _pieces(sentence):
        words = _SUBJECT.sub("", piece).split()
        if words and base_form(words[0]) is not None and _SUBJECT.sub("", piece) != piece[:0]:
            clauses.append(_Clause(piece, piece))
        elif not clauses:
            return []  # "the Courier goes out on Fridays": not something the persona does
        elif _has_span(piece) and _has_span(clauses[-1].text):
            verb = _SUBJECT.sub("", clauses[-1].text).split()[0]
            clauses.append(_Clause(f"{verb} {piece}", f"{verb} {piece}"))  # "and at home …"
        elif separator == "and":
            clauses[-1].text += f" and {piece}"  # "lectures and lab sessions"
            clauses[-1].context += f" and {piece}"
        else:
            clauses[-1].context += f", {piece}"  # an aside: "where Noor works"
    return clauses


def _pieces(sentence: str) -> list[tuple[str, str]]:
    """(separator before it, piece) for the parts between commas and "and"s."""
    parts = re.split(r"(,\s*and\s+|,\s*|\s+and\s+)", sentence)
    pieces: list[tuple[str, str]] = []
    separator = ""
    for part in parts:
        if re.fullmatch(r",\s*and\s+|,\s*|\s+and\s+", part):
            separator = "comma" if part.strip().startswith(",") else "and"
        elif part.strip():
            pieces.append((separator, part.strip()))
    return pieces


def _has_span(text: str) -> bool:
    return _span(text) != (None, None)


def _duty(clause: _Clause) -> Duty | None:
    """One clause as a duty (flexible when it states no time)."""
    start, end = _span(clause.text)
    weekday = _WEEKDAY.search(clause.text)
    activity = _activity(clause.text)
    if not activity:
        return None
    day = WEEKDAYS.index(weekday[1].lower()) if weekday else None
    return Duty(activity=activity, start=start, end=end, weekday=day, context=clause.context)


def _span(clause: str) -> tuple[int | str | None, int | str | None]:
    """The clause's stated times, or its time words' span."""
    times = find_times(clause)
    lowered = clause.lower()
    if re.search(r"\buntil the evening\b", lowered):
        return _span_start(clause), DINNER_TIME
    if times:
        first = _daytime(times[0].minutes, times[0].ambiguous)
        if re.search(r"\b(?:until|till|by)\s+\S+", lowered) and len(times) == 1:
            return None, first
        if len(times) > 1:
            return first, _daytime(times[1].minutes, times[1].ambiguous, after=first)
        return first, None
    for pattern, start, end in _SPANS:
        if pattern.search(clause):
            return _typed(start), _typed(end)
    return None, None


def _span_start(clause: str) -> int | str | None:
    """The start stated before an "until the evening" (else the morning)."""
    start, _ = _span(re.sub(r"\buntil the evening\b", "", clause, flags=re.I))
    return start if start is not None else MORNING


def _typed(value: object) -> int | str | None:
    return value if isinstance(value, (int, str)) else None


def _daytime(minutes: int, ambiguous: bool, after: int | str | None = None) -> int:
    """A bare hour in a working day: "until 5" is 5 pm; an end at or before its start is
    later the same day (a bare hour) or past midnight ("from 4pm to midnight")."""
    if ambiguous and minutes < 7 * MINUTES_PER_HOUR:
        minutes += 12 * MINUTES_PER_HOUR
    if isinstance(after, int) and minutes <= after:
        if ambiguous and minutes < 12 * MINUTES_PER_HOUR:
            return minutes + 12 * MINUTES_PER_HOUR
        return minutes + 24 * MINUTES_PER_HOUR
    return minutes


def _activity(clause: str) -> str:
    """The clause as a bare verb phrase without its subject and time words."""
    text = _SUBJECT.sub("", clause.strip())
    text = re.sub(r"\b(?:his|her|their) (morning|afternoon|evening)s\b", r"the \1", text)
    text = re.sub(r"\s+(?:whenever|if|when|as often as)\b.*$", "", text)
    text = _TIME_WORDS.sub("", text)
    text = re.sub(r"\s+,", ",", " ".join(text.split())).strip(" ,.")
    if not text or base_form(text.split()[0]) is None:
        return ""
    return bare(text)


def _joined(duties: list[Duty]) -> list[Duty]:
    """A start-only duty followed by an end-only one is one stretch ("opens … and works …"); a
    bare verb with no time shares the object and hours of the duty after it ("sweeps and opens
    San Roque Chapel from 5:30am to 6:30am"); "there" is where the duty before it is ("… and
    leads the rosary there from 6pm")."""
    result: list[Duty] = []
    for duty in duties:
        previous = result[-1] if result else None
        if previous is not None and duty.activity.endswith(" there"):
            where = _where(previous.activity)
            if where is not None:
                duty = replace(duty, activity=f"{duty.activity[: -len(' there')]} at {where}")
        if (
            previous is not None
            and previous.start is None
            and previous.end is None
            and len(previous.activity.split()) == 1
            and duty.start is not None
            and previous.weekday == duty.weekday
        ):
            object_ = duty.activity.split(" ", 1)[1] if " " in duty.activity else ""
            both = f"{previous.activity} and {duty.activity.split(' ', 1)[0]} {object_}".strip()
            result[-1] = replace(duty, activity=both)
        elif (
            previous is not None
            and previous.end is None
            and duty.start is None
            and duty.end is not None
            and previous.weekday == duty.weekday
        ):
            result[-1] = replace(
                previous, activity=f"{previous.activity} and {duty.activity}", end=duty.end
            )
        else:
            result.append(duty)
    return result


_NAMED_PLACE = re.compile(
    r"\b[a-z]+ (?P<place>(?:the )?(?:[A-Z][\w'’-]*\s?)+)$"
    r"|\b(?:at|in) (?P<plain>the [a-z][\w'’ -]*)$"
)


def _where(activity: str) -> str | None:
    """The named place an activity is at or acts on ("open San Roque Chapel", "cook in the
    school kitchen at Ysgol Cwmdulas"), for a "there" after it."""
    found = _NAMED_PLACE.search(activity)
    return (found["place"] or found["plain"]).strip() if found else None
