"""A world's model budget: how many model calls, or how much cost, per game day and per wall hour.

Past a limit no call is made and the offline mind answers (`cognition.adapters.llm`), so a
player spamming chat cannot run up a bill. A *call* is one answer asked of the model — an ask,
or its one re-ask; the retries of a failed request belong to it — and it counts when it is
admitted, so a call that then fails still counts. The spend is kept per window: the game day
the world's clock is in (midnight to midnight of the world's calendar) and the wall-clock hour
(UTC). Each window starts empty, so a new game day or a new hour resets its limit.

Pure: limits, windows and how a stored budget reads. The database meters the spend
(`db.budget`) and the LLM mind asks before each call, through its audit sink's `admit`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Any


class Period(StrEnum):
    """The windows a budget is kept over."""

    GAME_DAY = "game_day"
    """From midnight to midnight of the world's own calendar (its game time)."""
    WALL_HOUR = "wall_hour"
    """A wall-clock hour in UTC: a paused or fast clock cannot stretch or shrink it."""


MIN_GAME_DAY_WALL = timedelta(hours=1)
"""The least wall time between the openings of two game-day windows of a world. A game day is
the world's own, and a world's key may jump its clock: without this a key that advanced (or
rewound) a day would start a fresh budget window at will. With it a world that ran out opens
at most one fresh game-day window per wall hour, however it moves its clock; a clock moved
back counts in the latest window it reached (`next_game_day`)."""

SPAN = {Period.GAME_DAY: timedelta(days=1), Period.WALL_HOUR: timedelta(hours=1)}
FIELDS = {Period.GAME_DAY: "per_game_day", Period.WALL_HOUR: "per_wall_hour"}
"""Each period's name in a stored or requested budget."""


@dataclass(frozen=True)
class Limits:
    """The most one window may spend: calls, cost in USD, either or both (None: no limit)."""

    calls: int | None = None
    cost_usd: float | None = None

    @property
    def bounded(self) -> bool:
        return self.calls is not None or self.cost_usd is not None

    def room(self, *, calls: int, cost_usd: float) -> bool:
        """Whether one more call may start after `calls` calls costing `cost_usd`.

        The cost of a call is known only once it is answered, so a call starts while the
        spend is below the limit: each call in flight when the limit is reached may overshoot
        it by its own cost (calls never overshoot: each is counted before it starts)."""
        if self.calls is not None and calls >= self.calls:
            return False
        return self.cost_usd is None or cost_usd < self.cost_usd

    def describe(self, period: Period) -> str:
        parts = []
        if self.calls is not None:
            parts.append(f"{self.calls} calls")
        if self.cost_usd is not None:
            parts.append(f"${self.cost_usd:g}")
        per = "game day" if period is Period.GAME_DAY else "wall hour"
        return f"{' or '.join(parts)} per {per}"


@dataclass(frozen=True)
class Budget:
    """A world's limits per game day and per wall hour; a period without limits is not kept."""

    per_game_day: Limits = Limits()
    per_wall_hour: Limits = Limits()

    def limits(self, period: Period) -> Limits:
        return self.per_game_day if period is Period.GAME_DAY else self.per_wall_hour

    @property
    def periods(self) -> tuple[Period, ...]:
        """The periods with a limit, in a fixed order (the order their windows are locked in)."""
        return tuple(p for p in Period if self.limits(p).bounded)

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> Budget:
        """A stored budget (`{"per_game_day": {"calls": 500, "cost_usd": 2.5}, …}`), read
        leniently: the edge validated it when it was set; anything unusable is no limit."""
        return cls(
            per_game_day=_limits(value.get(FIELDS[Period.GAME_DAY])),
            per_wall_hour=_limits(value.get(FIELDS[Period.WALL_HOUR])),
        )


def _limits(value: Any) -> Limits:
    if not isinstance(value, Mapping):
        return Limits()
    return Limits(calls=_count(value.get("calls")), cost_usd=_amount(value.get("cost_usd")))


def _count(value: Any) -> int | None:
    ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
    return value if ok else None


def _amount(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) and value >= 0 else None


@dataclass(frozen=True)
class Window:
    """One period's window: `start` is naive game time for a game day, aware UTC for an hour."""

    period: Period
    start: datetime

    @property
    def resets_at(self) -> datetime:
        return self.start + SPAN[self.period]


def next_game_day(
    wanted: Window, latest: Window | None, *, opened_at: datetime | None, wall_time: datetime
) -> Window:
    """The game-day window a call counts in: the one its game time falls in, unless that is
    earlier than the latest window the world used (a rewound clock: the latest), or later
    while the latest opened less than MIN_GAME_DAY_WALL ago (a skipped clock: the latest)."""
    if latest is None or opened_at is None:
        return wanted
    if wanted.start <= latest.start:
        return latest
    return wanted if wall_time - opened_at >= MIN_GAME_DAY_WALL else latest


def window(period: Period, *, game_time: datetime, wall_time: datetime) -> Window:
    """The window of `period` that holds the moment (the world's game time, the wall time)."""
    if period is Period.GAME_DAY:
        return Window(period, datetime.combine(game_time.date(), datetime.min.time()))
    hour = wall_time.astimezone(UTC).replace(minute=0, second=0, microsecond=0)
    return Window(period, hour)
