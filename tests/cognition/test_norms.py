"""A place's norms: opening hours (past midnight too) and capacity, strict at upload, lenient
when read back."""

from __future__ import annotations

from datetime import datetime, time, timedelta

import pytest

from cognition.errors import InvalidInput
from cognition.norms import Norms


@pytest.mark.parametrize(
    ("hours", "open_at", "closed_at"),
    [
        ("07:00-20:00", ["07:00", "12:30", "19:59"], ["06:59", "20:00", "23:00"]),
        ("16:00-00:00", ["16:00", "23:59"], ["00:00", "10:00", "15:59"]),
        ("22:00-02:00", ["22:00", "23:30", "00:30", "01:59"], ["02:00", "12:00", "21:59"]),
        ("8:00-12:00, 13:00-17:00", ["08:00", "16:00"], ["12:30", "07:59", "17:00"]),
        ("00:00-24:00", ["00:00", "23:59"], []),
    ],
)
def test_opening_hours(hours: str, open_at: list[str], closed_at: list[str]) -> None:
    norms = Norms.parse({"opening_hours": hours})
    assert all(norms.is_open(time.fromisoformat(f"{t:0>5}")) for t in open_at)
    assert not any(norms.is_open(time.fromisoformat(t)) for t in closed_at)


@pytest.mark.parametrize(
    ("hours", "written"),
    [
        ("07:00-20:00", "07:00-20:00"),
        ("16:00-24:00", "16:00-00:00"),
        ("22:00-02:00", "22:00-02:00"),
        ("8:00-12:00,13:00-17:00", "08:00-12:00, 13:00-17:00"),
    ],
)
def test_opening_hours_are_written_back(hours: str, written: str) -> None:
    assert Norms.parse({"opening_hours": hours}).opening_hours() == written


def test_capacity_and_other_norms() -> None:
    norms = Norms.parse({"capacity": 2, "quiet": True})
    assert (norms.is_full(1), norms.is_full(2)) == (False, True)
    assert norms.others == {"quiet": True} and norms.is_open(time(3))
    assert not Norms().is_full(10_000)


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"opening_hours": "mornings"}, "opening_hours"),
        ({"opening_hours": "09:00-25:00"}, "opening_hours"),
        ({"opening_hours": 9}, "opening_hours"),
        ({"capacity": 0}, "capacity"),
        ({"capacity": True}, "capacity"),
        ({"capacity": 2.5}, "capacity"),
    ],
)
def test_unusable_norms_name_the_norm(raw: dict[str, object], field: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        Norms.parse(raw)
    assert caught.value.field == field


def test_reading_stored_norms_drops_what_does_not_parse() -> None:
    norms = Norms.read({"opening_hours": "whenever", "capacity": 3})
    assert (norms.hours, norms.capacity) == ((), 3)
    assert Norms.read(None) == Norms()


def test_open_during_an_action_that_starts_before_opening() -> None:
    cafe = Norms.parse({"opening_hours": "07:00-20:00"})
    morning = datetime(2023, 2, 13, 6, 30)
    assert not cafe.is_open(morning)
    assert cafe.is_open_during(morning, morning + timedelta(hours=5))  # opens half an hour in
    assert not cafe.is_open_during(morning, morning + timedelta(minutes=30))  # until 7:00 only
    assert not cafe.is_open_during(morning)
    night = datetime(2023, 2, 13, 21, 0)
    assert cafe.is_open_during(night, night + timedelta(hours=11))  # past midnight, into 7:00
    assert not cafe.is_open_during(night, night + timedelta(hours=10))
