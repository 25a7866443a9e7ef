"""A budget's limits and windows: when one more call may start, and which window a moment is in."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from cognition.budget import Budget, Limits, Period, Window, window


def test_calls_stop_at_the_limit_and_cost_below_it() -> None:
    limits = Limits(calls=3, cost_usd=0.5)
    assert limits.room(calls=2, cost_usd=0.49)
    assert not limits.room(calls=3, cost_usd=0.0)
    assert not limits.room(calls=0, cost_usd=0.5)
    assert Limits(calls=0).bounded and not Limits(calls=0).room(calls=0, cost_usd=0)
    assert Limits().room(calls=10**9, cost_usd=1e9) and not Limits().bounded


def test_a_stored_budget_reads_leniently_and_keeps_only_bounded_periods() -> None:
    budget = Budget.from_json({"per_game_day": {"calls": 500, "cost_usd": 2.5}})
    assert budget.per_game_day == Limits(calls=500, cost_usd=2.5)
    assert budget.periods == (Period.GAME_DAY,)
    odd = Budget.from_json(
        {"per_game_day": {"calls": True, "cost_usd": "1"}, "per_wall_hour": {"calls": -1}}
    )
    assert odd.periods == ()
    both = Budget.from_json({"per_wall_hour": {"cost_usd": 1}, "per_game_day": {"calls": 0}})
    assert both.periods == (Period.GAME_DAY, Period.WALL_HOUR)


def test_a_game_day_runs_midnight_to_midnight_of_the_worlds_calendar() -> None:
    late = datetime(2023, 2, 13, 23, 59, 59)
    day = window(Period.GAME_DAY, game_time=late, wall_time=datetime.now(UTC))
    assert day == Window(Period.GAME_DAY, datetime(2023, 2, 13))
    assert day.resets_at == datetime(2023, 2, 14)
    next_day = window(Period.GAME_DAY, game_time=late + timedelta(seconds=1), wall_time=late)
    assert next_day.start == day.resets_at


def test_a_wall_hour_is_an_hour_of_utc_whatever_the_offset() -> None:
    paris = timezone(timedelta(hours=1))
    moment = datetime(2024, 5, 1, 10, 59, 30, tzinfo=paris)
    hour = window(Period.WALL_HOUR, game_time=datetime(1900, 1, 1), wall_time=moment)
    assert hour.start == datetime(2024, 5, 1, 9, tzinfo=UTC)
    assert hour.resets_at == datetime(2024, 5, 1, 10, tzinfo=UTC)


def test_limits_say_what_they_are() -> None:
    assert Limits(calls=5).describe(Period.GAME_DAY) == "5 calls per game day"
    assert Limits(calls=5, cost_usd=0.25).describe(Period.WALL_HOUR) == (
        "5 calls or $0.25 per wall hour"
    )
