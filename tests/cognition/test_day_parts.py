"""A day outline by part of day, laid over the persona's waking hours."""

from __future__ import annotations

from datetime import datetime

import pytest

from cognition.errors import InvalidOutput
from cognition.parsing import repairs
from cognition.parsing.day_parts import DayPart, lay_out_day
from cognition.parsing.plans import read_day_parts
from cognition.types import Persona

NOW = datetime(2023, 2, 13, 6, 0)


def laid(items: list[DayPart], lifestyle: str) -> list[tuple[str, str, str]]:
    plan = lay_out_day(items, persona=Persona(name="Ada", lifestyle=lifestyle), now=NOW, home="h")
    return [(f"{i.start:%H:%M}", f"{i.end:%H:%M}", i.description) for i in plan]


def test_a_night_owls_morning_items_share_the_afternoon() -> None:
    # awake from noon: the morning is slept through, its item goes to the nearest awake part
    items = [DayPart("morning", "read", None), DayPart("evening", "play music", "pub")]
    assert laid(items, "wakes up at noon, goes to bed at 2am") == [
        ("12:00", "13:00", "wakes up, gets ready and has breakfast"),
        ("13:00", "18:00", "read"),
        ("18:00", "02:00", "play music"),
        ("02:00", "12:00", "goes to bed"),
    ]


def test_a_repeated_item_is_dropped_as_a_repair() -> None:
    items = [DayPart("morning", "study", None)] * 4 + [DayPart("evening", "sleeps", None)]
    with repairs.collecting() as notes:
        plan = laid(items, "wakes at 7am, sleeps at 11pm")
    assert [what for _, _, what in plan][1:] == ["study", "goes to bed"]
    assert len(notes) == 3


def test_an_answer_with_clock_times_is_left_to_the_clock_reader() -> None:
    raw = '{"items": [{"start": "07:00", "description": "wake up"}]}'
    assert read_day_parts(raw) is None


def test_an_item_without_a_part_of_day_is_sent_back() -> None:
    with pytest.raises(InvalidOutput, match="part of day"):
        read_day_parts('{"items": [{"part": "noon", "description": "eat"}]}')
