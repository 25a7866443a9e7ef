"""A place's norms — opening hours and capacity — read from the map, for choosing where to act.

The paper's agents walked into shops after closing and into a one-person bathroom that was
occupied, because such norms "did not percolate to the agents" (§7). A map gives them as
`norms` of a place: `{"opening_hours": "07:00-20:00", "capacity": 30}`.

- `opening_hours`: one or more `HH:MM-HH:MM` spans separated by commas, 24-hour clock. An end
  of `00:00` (or `24:00`) is midnight at the end of the day; an end before the start runs past
  midnight ("22:00-02:00"). Open means start ≤ t < end. No opening hours: always open.
- `capacity`: a positive whole number of people; full when that many others are there.

Other norms are kept as given and shown to a model as they are. `parse` is strict (a map
upload with unusable norms is the caller's mistake); `read` is lenient (rows already stored
are never a reason to fail a plan).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from typing import Any

from cognition.errors import InvalidInput

OPENING_HOURS = "opening_hours"
CAPACITY = "capacity"
MINUTES_PER_DAY = 24 * 60
_SPAN = re.compile(r"^\s*(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})\s*$")


@dataclass(frozen=True)
class Norms:
    """When a place can be used and by how many: spans in minutes after midnight."""

    hours: tuple[tuple[int, int], ...] = ()
    """Open spans (start, end) with end > start, an overnight span split in two; () = always."""
    capacity: int | None = None
    others: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def parse(cls, raw: Mapping[str, Any]) -> Norms:
        """Strict: `InvalidInput` naming the norm at fault (`field` is its key)."""
        hours = raw.get(OPENING_HOURS)
        capacity = raw.get(CAPACITY)
        if capacity is not None and (
            isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1
        ):
            raise InvalidInput("capacity must be a positive whole number", field=CAPACITY)
        if hours is not None and not isinstance(hours, str):
            raise InvalidInput('opening hours are written "HH:MM-HH:MM"', field=OPENING_HOURS)
        others = {k: v for k, v in raw.items() if k not in (OPENING_HOURS, CAPACITY)}
        return cls(hours=_spans(hours or ""), capacity=capacity, others=others)

    @classmethod
    def read(cls, raw: Mapping[str, Any] | None) -> Norms:
        """Lenient: a norm that does not parse is left out."""
        raw = dict(raw or {})
        try:
            return cls.parse(raw)
        except InvalidInput as exc:
            raw.pop(exc.field or "", None)
            return cls.read(raw) if exc.field else cls()

    def is_open(self, at: datetime | time) -> bool:
        if not self.hours:
            return True
        minute = at.hour * 60 + at.minute
        return any(start <= minute < end for start, end in self.hours)

    def is_open_during(self, start: datetime, end: datetime | None = None) -> bool:
        """Open at some time in [start, end) (at `start` when there is no end): a place that
        opens half an hour into a morning's work can host it; one closed throughout cannot."""
        if self.is_open(start):
            return True
        if end is None or end <= start:
            return False
        for opening, _ in self.hours:
            first = start.replace(hour=opening // 60, minute=opening % 60, second=0, microsecond=0)
            if first <= start:
                first += timedelta(days=1)
            if first < end:
                return True
        return False

    def is_full(self, occupancy: int) -> bool:
        return self.capacity is not None and occupancy >= self.capacity

    def opening_hours(self) -> str:
        """The spans as written back ("16:00-00:00"); "" when always open."""
        spans = _rejoined(self.hours)
        return ", ".join(f"{_clock(start)}-{_clock(end % MINUTES_PER_DAY)}" for start, end in spans)


def _spans(text: str) -> tuple[tuple[int, int], ...]:
    spans: list[tuple[int, int]] = []
    for part in filter(str.strip, text.split(",")):
        match = _SPAN.match(part)
        if match is None:
            raise InvalidInput(
                f'opening hours are written "HH:MM-HH:MM", not {part.strip()!r}',
                field=OPENING_HOURS,
            )
        start, end = _minute(match[1], match[2]), _minute(match[3], match[4])
        if start == end % MINUTES_PER_DAY:
            return ((0, MINUTES_PER_DAY),)  # "00:00-24:00" and the like: always open
        if end == 0 or end == MINUTES_PER_DAY:
            spans.append((start, MINUTES_PER_DAY))
        elif end > start:
            spans.append((start, end))
        else:  # past midnight
            spans += [(start, MINUTES_PER_DAY), (0, end)]
    return tuple(sorted(spans))


def _minute(hour: str, minute: str) -> int:
    h, m = int(hour), int(minute)
    if h > 24 or m > 59 or (h == 24 and m):
        raise InvalidInput(f"{hour}:{minute} is not a time of day", field=OPENING_HOURS)
    return h * 60 + m


def _rejoined(spans: tuple[tuple[int, int], ...]) -> list[tuple[int, int]]:
    """An overnight span split at midnight, written as one again ("22:00-02:00")."""
    result = list(spans)
    if len(result) > 1 and result[0][0] == 0 and result[-1][1] == MINUTES_PER_DAY:
        first, last = result.pop(0), result.pop()
        result.append((last[0], first[1] + MINUTES_PER_DAY))
    return result


def _clock(minute: int) -> str:
    return f"{minute // 60:02d}:{minute % 60:02d}"
