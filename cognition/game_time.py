"""The span of game time a world's calendar may hold: from 1900 to the end of 2999.

A world's clock is its own calendar, so any era a game is set in fits, but not every instant
Python can hold: arithmetic near year 9999 overflows (a plan a day ahead, a window of a game
hour), and a memory dated far ahead of the clock would rank first by recency for ever. The
edge refuses a time outside the span; a running clock stops at its end (`clamp`).
"""

from __future__ import annotations

from datetime import datetime, timedelta

EARLIEST = datetime(1900, 1, 1)
LATEST = datetime(2999, 12, 31, 23, 59, 59, 999999)
SPAN_TEXT = "1900-01-01T00:00:00 to 2999-12-31T23:59:59.999999"


def within(moment: datetime) -> bool:
    """True when a naive game time lies in the span."""
    return EARLIEST <= moment <= LATEST


def clamp(moment: datetime) -> datetime:
    return min(max(moment, EARLIEST), LATEST)


def advanced(moment: datetime, seconds: float) -> datetime:
    """`moment` plus `seconds`, stopped at the end of the span (never an OverflowError)."""
    room = (LATEST - moment).total_seconds()
    if seconds >= room:
        return LATEST
    return moment + timedelta(seconds=seconds)
