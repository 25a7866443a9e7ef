"""Plan arithmetic: spans, the current item, cutting a span out of items, and the just-in-time
decomposition window."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from cognition.errors import InvalidInput
from cognition.schedule import active_at, around, covering, outside, window_to_decompose
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
    assert DAY[0].end == at(8)


def test_only_the_current_and_next_day_items_get_hour_chunks() -> None:
    window = window_to_decompose(DAY, at(11, 30))
    assert [i.description for i in window.day_items] == ["work", "lunch"]
    assert window.hour_items == ()


def test_the_next_item_waits_until_it_is_within_the_lead() -> None:
    assert [i.description for i in window_to_decompose(DAY, at(9)).day_items] == ["work"]
    assert [i.description for i in window_to_decompose(DAY, at(11, 29)).day_items] == ["work"]
    wide = window_to_decompose(DAY, at(9), lead=timedelta(hours=3))
    assert [i.description for i in wide.day_items] == ["work", "lunch"]
    work_hours = chunks(DAY[1], 60)
    window = window_to_decompose(DAY, at(9), hour_items=work_hours)
    assert [i.description for i in window.hour_items] == ["work 1"]  # 10 am is 60 min away
    later = window_to_decompose(DAY, at(9, 30), hour_items=work_hours)
    assert [i.description for i in later.hour_items] == ["work 1", "work 2"]


def test_items_already_decomposed_are_not_asked_again() -> None:
    work_hours = chunks(DAY[1], 60)
    window = window_to_decompose(DAY, at(11, 30), hour_items=work_hours)
    assert [i.description for i in window.day_items] == ["lunch"]
    assert [i.description for i in window.hour_items] == ["work 3"]

    tasks = chunks(work_hours[3], 15)
    window = window_to_decompose(DAY, at(11, 30), hour_items=work_hours, task_items=tasks)
    assert window.hour_items == ()


def test_the_window_moves_with_the_clock() -> None:
    lunch_hours = chunks(DAY[2], 60)
    work_hours = chunks(DAY[1], 60)
    window = window_to_decompose(DAY, at(11, 59), hour_items=[*work_hours, *lunch_hours])
    assert [i.description for i in window.day_items] == []  # work and lunch both chunked
    assert [i.description for i in window.hour_items] == ["work 3", "lunch 0"]
    later = window_to_decompose(DAY, at(12, 30), hour_items=[*work_hours, *lunch_hours])
    assert [i.description for i in later.day_items] == ["work again"]


def test_before_the_day_starts_the_first_items_are_near() -> None:
    window = window_to_decompose(DAY, at(5, 30))
    assert [i.description for i in window.day_items] == ["morning routine"]
    assert window_to_decompose(DAY, at(5)).day_items == ()  # 6 am is an hour away
    wide = window_to_decompose(DAY, at(5), horizon=3, lead=timedelta(hours=7))
    assert [i.description for i in wide.day_items] == ["morning routine", "work", "lunch"]


def test_after_the_plan_nothing_is_near() -> None:
    assert window_to_decompose(DAY, at(30)).day_items == ()


def test_the_horizon_must_include_the_current_item() -> None:
    with pytest.raises(InvalidInput):
        window_to_decompose(DAY, at(9), horizon=0)


def test_outside_cuts_a_span_out_of_an_item() -> None:
    work = DAY[1]  # 8 am to noon
    assert outside(work, start=at(9), end=at(9, 20)) == [
        span(at(8), 60, "work"),
        span(at(9, 20), 160, "work"),
    ]
    assert outside(work, start=at(7), end=at(8, 30)) == [span(at(8, 30), 210, "work")]
    assert outside(work, start=at(11), end=at(13)) == [span(at(8), 180, "work")]
    assert outside(work, start=at(7), end=at(13)) == []
    assert outside(work, start=at(13), end=at(14)) == [work]  # no overlap: the whole item


def test_around_lays_items_around_what_is_already_planned() -> None:
    greet, chat = span(at(7, 50), 20, "greet Tomas"), span(at(12, 45), 30, "chat with Maria")
    laid = around(DAY, [greet, chat])
    assert [(i.start, i.duration_min, i.description) for i in laid] == [
        (at(6), 110, "morning routine"),
        (at(8, 10), 230, "work"),
        (at(12), 45, "lunch"),
        (at(13, 15), 285, "work again"),
        (at(18), 720, "evening and sleep"),
    ]
    assert around(DAY, []) == DAY


def test_a_thing_done_again_in_turn_is_said_once() -> None:
    """A duty taken up after a break and folded with itself read "serve dinners at the
    school; then serve dinners at the school; then do her shopping"."""
    from cognition.schedule import in_turn, parts

    again = in_turn(in_turn("serve dinners", "serve dinners"), "do her shopping")
    assert parts(again) == ["serve dinners", "do her shopping"]
    assert in_turn("serve dinners", "do her shopping") == "serve dinners; then do her shopping"
