"""Read a persona's day from its own words, for the audit: when it wakes and goes to bed
(`lifestyle`) and where it works at which hours (`daily_plan_requirement`). This is the
audit's reading, kept out of `cognition/` on purpose: the audit checks the mind against the
persona text, so it must not share the mind's parser.

The phrases it reads (times like "7am", "6:30am", "noon", "midnight"):

- "goes to bed around 10pm" / "wakes up around 5:30am"; a bed time before noon is after
  midnight (1am → 25:00).
- "works at <place> from 8am to 4pm" → a shift 8:00–16:00 at that place.
- "works from 1pm", "opens <place> at 7am", "runs in <place> at 6:30am" → a start time: the
  shift's first OPEN_SHIFT_MIN are audited (the text does not say when it ends).
- "… and works there until 7pm" / "… works at the counter until late afternoon" → the shift
  before runs to that time (`END_WORDS` for "late afternoon" and the like).
- "does carpentry from 8am to 5pm, this month mostly in the Wren College library" → times
  and place in neighbouring clauses make one shift.
- "with lunch at home" / "with a long lunch at home" → the shift breaks for LUNCH_AT_HOME /
  LONG_LUNCH_AT_HOME.
- Places: an area of the map by name, "the [word] <sub-area>" for a sub-area whose name only
  one area has ("the college library" → Wren College), or "at home" (the living area).
- Vague times ("in the afternoon", "most of the day") are not read: they make no shift, so the
  audit does not judge them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

OPEN_SHIFT_MIN = 60
"""A shift with a start and no end is audited for its first hour."""
LUNCH_AT_HOME = (12 * 60, 13 * 60)
LONG_LUNCH_AT_HOME = (12 * 60, 14 * 60)
END_WORDS = {
    "noon": 12 * 60,
    "midday": 12 * 60,
    "early afternoon": 14 * 60,
    "late afternoon": 17 * 60,
    "the evening": 18 * 60,
    "evening": 18 * 60,
    "midnight": 24 * 60,
}
"""What "until <words>" means as a clock time."""

_TIME = r"(?:\d{1,2}(?::\d{2})?\s*[ap]m|noon|midnight)"


@dataclass(frozen=True)
class Shift:
    area: str
    start: int
    """minutes after the day's midnight"""
    end: int
    breaks: tuple[tuple[int, int], ...] = ()

    def covers(self, minute: int) -> bool:
        inside = self.start <= minute < self.end
        return inside and not any(a <= minute < b for a, b in self.breaks)


@dataclass(frozen=True)
class Routine:
    wake: int | None
    bed: int | None
    shifts: tuple[Shift, ...]

    def shift_at(self, minute: int) -> Shift | None:
        return next((s for s in self.shifts if s.covers(minute)), None)


def clock(text: str) -> int:
    """Minutes after midnight of "7am", "6:30 pm", "noon" or "midnight"."""
    text = text.strip().lower()
    if text in ("noon", "midnight"):
        return 12 * 60 if text == "noon" else 24 * 60
    match = re.fullmatch(r"(\d{1,2})(?::(\d{2}))?\s*([ap]m)", text)
    if match is None:
        raise ValueError(f"not a time: {text!r}")
    hour, minute = int(match[1]) % 12, int(match[2] or 0)
    return (hour + (12 if match[3] == "pm" else 0)) * 60 + minute


def read_routine(
    *, lifestyle: str, requirement: str, living_area: str, places: Mapping[str, str]
) -> Routine:
    """`places` maps a lower-case place name (area or unambiguous sub-area) to its area."""
    wake = re.search(rf"wakes? up (?:around |at |by )?({_TIME})", lifestyle, re.I)
    bed = re.search(rf"goes to bed (?:around |at |by )?({_TIME})", lifestyle, re.I)
    bed_at = clock(bed[1]) if bed else None
    if bed_at is not None and bed_at < 12 * 60:
        bed_at += 24 * 60
    home = living_area.split(":")[0].strip()
    return Routine(
        wake=clock(wake[1]) if wake else None,
        bed=bed_at,
        shifts=tuple(_shifts(requirement, home, places)),
    )


@dataclass
class _Clause:
    area: str | None
    start: int | None
    end: int | None
    until: int | None
    lunch: tuple[int, int] | None


def _shifts(text: str, home: str, places: Mapping[str, str]) -> list[Shift]:
    clauses = [_clause(part, home, places) for part in re.split(r";|,| and ", text)]
    shifts: list[Shift] = []
    for i, c in enumerate(clauses):
        if c.start is not None and c.area is None and i + 1 < len(clauses):
            after = clauses[i + 1]
            if after.area is not None and after.start is None:
                c.area, after.area = after.area, None
        if c.start is not None and c.area is not None:
            end = c.end if c.end is not None else c.until
            shifts.append(Shift(c.area, c.start, end or c.start + OPEN_SHIFT_MIN))
        elif c.until is not None and shifts and c.area in (None, shifts[-1].area):
            shifts[-1] = Shift(shifts[-1].area, shifts[-1].start, c.until, shifts[-1].breaks)
        elif c.lunch is not None and shifts:
            last = shifts[-1]
            shifts[-1] = Shift(last.area, last.start, last.end, (*last.breaks, c.lunch))
    return shifts


def _clause(text: str, home: str, places: Mapping[str, str]) -> _Clause:
    low = text.lower()
    span = re.search(rf"from ({_TIME}) to ({_TIME})", low)
    start = re.search(rf"(?:from|at) ({_TIME})", low)
    until = re.search(rf"until ({_TIME}|{'|'.join(END_WORDS)})", low)
    lunch = re.search(r"with (a long )?lunch at home", low)
    return _Clause(
        area=_place(low, home, places),
        start=clock(span[1]) if span else clock(start[1]) if start else None,
        end=_end(clock(span[2])) if span else None,
        until=_end(END_WORDS.get(until[1]) or clock(until[1])) if until else None,
        lunch=(LONG_LUNCH_AT_HOME if lunch[1] else LUNCH_AT_HOME) if lunch else None,
    )


def _end(minute: int) -> int:
    """An end time at or before 3am is after midnight."""
    return minute + 24 * 60 if minute <= 3 * 60 else minute


def _place(low: str, home: str, places: Mapping[str, str]) -> str | None:
    if re.search(r"\bat home\b", low):
        return home
    for name in sorted(places, key=len, reverse=True):
        area = name == places[name].lower()
        pattern = rf"\b{re.escape(name)}\b" if area else rf"\bthe (?:\w+ )?{re.escape(name)}\b"
        if re.search(pattern, low):
            return places[name]
    return None


def place_names(tree: Iterable[Mapping[str, object]]) -> dict[str, str]:
    """Lower-case names of the map's areas and of sub-areas only one area has → the area."""
    names: dict[str, str] = {}
    seen: dict[str, set[str]] = {}
    for node in tree:
        area = str(node["name"])
        names[area.lower()] = area
        children = node.get("children") or []
        for child in children if isinstance(children, list) else []:
            seen.setdefault(str(child["name"]).lower(), set()).add(area)
    for name, areas in seen.items():
        if len(areas) == 1 and name not in names:
            names[name] = next(iter(areas))
    return names
