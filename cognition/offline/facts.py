"""A piece of news as a structured value, and the English readers every kind of news shares.

A `Fact` is what the offline mind knows for sure from a statement: what happens (`what`), who
organises it or whom it concerns (`who`), where, on which day, at what time, whether everyone
is welcome, and how much it matters. Kinds of news (`cognition.offline.news`) read facts out
of sentences and say them again; everything else in the offline mind works on facts, never on
the sentence they came from.

Dates are read by `parsedatetime` (weekdays, "tomorrow", "on February 14", "next Friday"),
clock times by `clock.event_span` ("at noon", "from 3 to 5 pm", "6pm-8pm"), articles by
`inflect` ("an open house", "a university fair").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import Any

import parsedatetime

from cognition.offline import clock
from cognition.offline.inflection import inflect
from cognition.offline.text import first_name, same_person
from cognition.offline.text import sentences as text_sentences
from cognition.types import FactRecord

MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
MINUTES_PER_HOUR = 60
NOON = 12 * MINUTES_PER_HOUR


@dataclass(frozen=True)
class Fact(FactRecord):
    """One piece of news with what the offline mind does with it; every field but `kind` and
    `what` may be unknown (the fields are `FactRecord`'s, the form a memory stores)."""

    @classmethod
    def of(cls, record: FactRecord) -> Fact:
        """The stored record as a fact."""
        return record if isinstance(record, Fact) else cls(**asdict(record))

    def record(self) -> FactRecord:
        """The fields alone, as a memory stores them."""
        return FactRecord(**asdict(self))

    @property
    def key(self) -> str:
        """What makes two mentions the same news (its kind decides)."""
        from cognition.offline.news import kind_of

        return kind_of(self).key(self)

    @property
    def timed(self) -> bool:
        """It happens at a known time of a known day: something to plan for."""
        return self.start_min is not None and (self.day is not None or self.weekday is not None)

    def on(self, day: date) -> bool:
        """Whether the fact happens on that date (a bare weekday: within the coming week)."""
        if self.month is not None and self.day is not None:
            return (self.month, self.day) == (day.month, day.day)
        return self.weekday is not None and self.weekday == day.weekday()

    def statement(self) -> str:
        """The fact as a complete sentence, in the words of its kind."""
        from cognition.offline.news import kind_of

        return kind_of(self).statement(self)

    def about(self, name: str) -> bool:
        """Whether the news is the person's own (their event, their candidacy, their worry)."""
        return bool(self.who) and same_person(self.who or "", name)

    def merged(self, other: Fact) -> Fact:
        """This fact with any detail it lacks taken from another mention of it."""
        return replace(
            self,
            who=self.who or other.who,
            place=self.place or other.place,
            month=self.month if self.month is not None else other.month,
            day=self.day if self.day is not None else other.day,
            weekday=self.weekday if self.weekday is not None else other.weekday,
            start_min=self.start_min if self.start_min is not None else other.start_min,
            end_min=self.end_min if self.end_min is not None else other.end_min,
            open_to_all=self.open_to_all or other.open_to_all,
            weight=max(self.weight, other.weight),
            source=self.source or other.source,
            purpose=self.purpose or other.purpose,
        )

    def when(self) -> str:
        """ " on Friday, May 12 at noon", as far as known ("" when nothing is)."""
        parts = []
        if self.month is not None and self.day is not None:
            parts.append(f" on {MONTHS[self.month - 1]} {self.day}")
        elif self.weekday is not None:
            parts.append(f" on {WEEKDAYS[self.weekday]}")
        if self.start_min is not None and self.end_min is not None:
            parts.append(f" from {clock_text(self.start_min)} to {clock_text(self.end_min)}")
        elif self.start_min is not None:
            parts.append(f" at {clock_text(self.start_min)}")
        return "".join(parts)

    def details(self) -> str:
        """Place, day, time and purpose as far as known: " at the chapel on May 12 at noon",
        " at the schoolroom on Tuesday at 7:30 pm to vote on the quarry road"."""
        purpose = f" {self.purpose}" if self.purpose else ""
        return (f" at {self.place}" if self.place else "") + self.when() + purpose


def sentences(text: str) -> list[str]:
    """Prose split into sentences and semicolon clauses, keeping abbreviations ("St.
    Brigid's") whole."""
    return text_sentences(text, at_semicolons=True)


@lru_cache(maxsize=1)
def _calendar() -> parsedatetime.Calendar:
    return parsedatetime.Calendar(version=parsedatetime.VERSION_CONTEXT_STYLE)


_MONTH_DAY = re.compile(
    rf"\b(?:(?P<month>{'|'.join(MONTHS)})\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?"
    rf"|(?P<day2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<month2>{'|'.join(MONTHS)}))\b"
)
_WEEKDAY = re.compile(rf"\b(?:{'|'.join(WEEKDAYS)})\b")
_RECURRING = re.compile(
    rf"\b(?:every|each)\s+(?:(?:other|second|third|fourth|last|first)\s+)?"
    rf"(?:{'|'.join(WEEKDAYS)})\b|\b(?:{'|'.join(WEEKDAYS)})s\b"
    r"|\b(?i:most|some|many|every|each)\s+(?:days|evenings|mornings|afternoons|nights|weekends|"
    r"day|evening|morning|afternoon|night|weekend)\b"
    r"|\b(?i:every|each)\s+(?:year|summer|winter|spring|autumn|fall|January|February|March|"
    r"April|May|June|July|August|September|October|November|December)\b"
)
"""A day that comes back every week or so ("every Friday", "every second Tuesday", "on
Fridays", "most evenings") or every year ("every June"): a habit, not a date."""
_RELATIVE_DAY = re.compile(
    r"\b(?:today|tonight|tomorrow|this (?:evening|afternoon|morning))\b", re.I
)


SPOKEN_DAYS_AHEAD = 6
"""Dates this many days ahead or fewer are said by their weekday, as people say them."""
_ON_DATE = re.compile(rf"\bon (?P<month>{'|'.join(MONTHS)}) (?P<day>\d{{1,2}})\b")


def spoken_days(text: str, now: datetime) -> str:
    """The text with each "on <Month> <day>" of the coming week said as people say it:
    "today", "tomorrow", "on Friday" (news is read back from either form)."""

    def said(match: re.Match[str]) -> str:
        month, day = MONTHS.index(match["month"]) + 1, int(match["day"])
        year = now.year + (1 if month < now.month else 0)  # "on January 3", said in December
        try:
            ahead = (date(year, month, day) - now.date()).days
        except ValueError:
            return match[0]
        if ahead == 0:
            return "today"
        if ahead == 1:
            return "tomorrow"
        if 1 < ahead <= SPOKEN_DAYS_AHEAD:
            return f"on {WEEKDAYS[date(year, month, day).weekday()]}"
        return match[0]

    return _ON_DATE.sub(said, text)


def with_weekdays(text: str, now: datetime) -> str:
    """The text with each "on <Month> <day>" given its weekday ("on Wednesday, October 14"),
    the year read as the one nearest `now`: a date told back days later is remembered by its
    weekday, as people remember them."""

    def said(match: re.Match[str]) -> str:
        month, day = MONTHS.index(match["month"]) + 1, int(match["day"])
        years = (now.year - 1, now.year, now.year + 1)
        try:
            nearest = min((date(y, month, day) for y in years), key=lambda d: abs(d - now.date()))
        except ValueError:
            return match[0]
        return f"on {WEEKDAYS[nearest.weekday()]}, {match['month']} {day}"

    return _ON_DATE.sub(said, text)


_LONG_STANDING = re.compile(
    r"\b(?:for|over) (?:the (?:last|past) )?(?:\w+ )?(?:years|decades|generations)\b"
    r"|\b(?:all (?:his|her|their|my) li(?:fe|ves))\b"
    r"|\b(?:a|a few|some|many|\w+) (?:years|decades) ago\b"
)
"""How things have long been ("for forty years", "all his life", "three years ago"): known,
not news."""


def long_standing(text: str) -> bool:
    """Whether the text tells how things have long been ("for forty years", "all his life")."""
    return _LONG_STANDING.search(text) is not None


def recurs(text: str) -> bool:
    """Whether the text tells of a weekly habit ("on Wednesdays", "every Friday")."""
    return _RECURRING.search(text) is not None


_ORDINAL_DAY = re.compile(r"\b(?:on )?the (?P<day>\d{1,2})(?:st|nd|rd|th)\b(?! (?:of )?[A-Z])")
"""A day of the month said alone ("on the 24th"); "the 24th of May" is a date."""


def read_day(text: str, *, now: datetime | None) -> dict[str, int | None]:
    """The day a text names: month and day when they can be fixed (a date, or a weekday or
    "tomorrow" read against `now` by parsedatetime), else a bare weekday; else nothing."""
    found: dict[str, int | None] = {"month": None, "day": None, "weekday": None}
    exact = _MONTH_DAY.search(text)
    if exact is not None:
        month = MONTHS.index(exact["month"] or exact["month2"]) + 1
        found.update(month=month, day=int(exact["day"] or exact["day2"]))
        return found
    if _RECURRING.search(text):
        return found
    ordinal = _ORDINAL_DAY.search(text)
    if ordinal is not None and now is not None and 1 <= int(ordinal["day"]) <= 31:
        month, year = now.month, now.year  # "on the 24th": this month's, or next month's
        if int(ordinal["day"]) < now.day:
            month, year = (1, year + 1) if month == 12 else (month + 1, year)
        found.update(month=month, day=int(ordinal["day"]))
        return found
    weekday = _WEEKDAY.search(text)
    if weekday is not None and re.search(r"\blast\s+$", text[: weekday.start()]):
        return found  # "the quiz night last Friday raised …": a day gone, no date to plan for
    if weekday is None and not _RELATIVE_DAY.search(text):
        return found
    if now is None:
        found["weekday"] = WEEKDAYS.index(weekday[0]) if weekday else None
        return found
    phrase = weekday[0] if weekday else _RELATIVE_DAY.search(text)[0]  # type: ignore[index]
    parsed = _parse_day(phrase, now)
    if parsed is not None:
        found.update(month=parsed.month, day=parsed.day)
    return found


def _parse_day(phrase: str, now: datetime) -> date | None:
    """The first date on or after `now`'s day that `phrase` names (parsedatetime)."""
    if phrase.lower() in ("today", "tonight") or phrase.lower().startswith("this "):
        return now.date()
    if phrase in WEEKDAYS and WEEKDAYS.index(phrase) == now.weekday():
        return now.date()  # "on Tuesday", said on a Tuesday, is today
    result: Any = _calendar().parse(phrase, sourceTime=now)
    parsed, context = result
    if not context.hasDate:
        return None
    day = date(parsed.tm_year, parsed.tm_mon, parsed.tm_mday)
    if day < now.date():
        day += timedelta(days=7)
    return day


def read_time(clause: str) -> dict[str, int | None]:
    """Start and end minutes of a clause ("at noon", "from 3 to 5 pm"); a bare "at 6" is the
    afternoon or evening, as an occasion's hour usually is."""
    span = clock.event_span(clause)
    if span is None:
        return {"start_min": None, "end_min": None}
    start, end = span
    return {"start_min": start, "end_min": end if end is not None and end > start else None}


def clock_text(minutes: int) -> str:
    """ "6 pm", "7:30 am", "noon", "midnight"."""
    minutes %= 24 * MINUTES_PER_HOUR
    if minutes == 0:
        return "midnight"
    if minutes == NOON:
        return "noon"
    hour, minute = divmod(minutes, MINUTES_PER_HOUR)
    suffix = "am" if hour < 12 else "pm"
    hour = hour % 12 or 12
    return f"{hour} {suffix}" if minute == 0 else f"{hour}:{minute:02d} {suffix}"


@lru_cache(maxsize=1)
def _inflector() -> inflect.engine:
    return inflect.engine()


def article(noun_phrase: str) -> str:
    """ "a" or "an" for a noun phrase ("an open house", "a university fair"), by inflect."""
    return str(_inflector().a(noun_phrase)).split()[0] if noun_phrase.strip() else "a"


def full_name(name: str, known: Sequence[str]) -> str:
    """The first known full name sharing this first name, else the name itself."""
    first = first_name(name)
    return next((k for k in known if first_name(k) == first and len(k) > len(name)), name)
