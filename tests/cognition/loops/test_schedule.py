"""Plan arithmetic: spans, the current item, and the just-in-time decomposition window."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from cognition.errors import InvalidInput
from cognition.schedule import active_at, covering, ends_at, window_to_decompose
from cognition.types import PlanItem

MIDNIGHT = datetime(2024, 2, 13)


def at(hour: int, minute: int = 0) -> datetime:
    return MIDNIGHT + timedelta(hours=hour, minutes=minute)


def span(start: datetime, minutes: int, text: str) -> PlanItem:
    return PlanItem(start=start, duration_min=minutes, description=text)


def chunks(parent: PlanItem, minutes: int) -> list[PlanItem]:
    """Back-to-back children of `parent`, each `minutes` long."""
    count = parent.duration_min // minutes
    return [
        span(parent.start + timedelta(minutes=i * minutes), minutes, f"{parent.description} {i}")
        for i in range(count)
    ]


DAY = [
    span(at(6), 120, "morning routine"),
    span(at(8), 240, "work"),
    span(at(12), 60, "lunch"),
    span(at(13), 300, "work again"),
    span(at(18), 720, "evening and sleep"),
]


def test_covering_and_active_at() -> None:
    assert [i.description for i in covering(DAY, at(11), at(13))] == ["work", "lunch"]
    assert covering(DAY, at(12), at(12)) == []
    assert active_at(DAY, at(12)) == DAY[2]  # an item starts where the one before ends
    assert active_at(DAY, at(5, 59)) is None
    reaction = span(at(9), 15, "greet Tomas")
    assert active_at([*DAY, reaction], at(9, 5)) == reaction  # the more specific item wins
    assert ends_at(DAY[0]) == at(8)


def test_only_the_current_and_next_day_items_get_hour_chunks() -> None:
    window = window_to_decompose(DAY, at(9))
    assert [i.description for i in window.day_items] == ["work", "lunch"]
    assert window.hour_items == ()


def test_items_already_decomposed_are_not_asked_again() -> None:
    work_hours = chunks(DAY[1], 60)
    window = window_to_decompose(DAY, at(9, 30), hour_items=work_hours)
    assert [i.description for i in window.day_items] == ["lunch"]
    assert [i.description for i in window.hour_items] == ["work 1", "work 2"]

    tasks = chunks(work_hours[1], 15)
    window = window_to_decompose(DAY, at(9, 30), hour_items=work_hours, task_items=tasks)
    assert [i.description for i in window.hour_items] == ["work 2"]


def test_the_window_moves_with_the_clock() -> None:
    lunch_hours = chunks(DAY[2], 60)
    work_hours = chunks(DAY[1], 60)
    window = window_to_decompose(DAY, at(11, 59), hour_items=[*work_hours, *lunch_hours])
    assert [i.description for i in window.day_items] == []  # work and lunch both chunked
    assert [i.description for i in window.hour_items] == ["work 3", "lunch 0"]
    later = window_to_decompose(DAY, at(12, 0), hour_items=[*work_hours, *lunch_hours])
    assert [i.description for i in later.day_items] == ["work again"]


def test_before_the_day_starts_the_first_items_are_near() -> None:
    window = window_to_decompose(DAY, at(5), horizon=3)
    assert [i.description for i in window.day_items] == ["morning routine", "work", "lunch"]


def test_after_the_plan_nothing_is_near() -> None:
    assert window_to_decompose(DAY, at(30)).day_items == ()


def test_the_horizon_must_include_the_current_item() -> None:
    with pytest.raises(InvalidInput):
        window_to_decompose(DAY, at(9), horizon=0)
