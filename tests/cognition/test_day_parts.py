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


def test_an_item_that_writes_the_request_back_is_dropped_as_a_repair() -> None:
    # what Qwen2.5-Coder-1.5B wrote for Isabella's evening, from plan_day.txt's own words
    copied = (
        "Isabella Rodriguez has to take into account her plans and recent events (an "
        "appointment agreed with someone is kept at its time and place)"
    )
    items = [
        DayPart("afternoon", "works at Hobbs Cafe", "Hobbs Cafe"),
        DayPart("evening", copied, None),
        DayPart("evening", "takes into account what her friends say about the party", None),
    ]
    with repairs.collecting() as notes:
        plan = laid(items, "wakes at 6am, sleeps at 11pm")
    assert [what for _, _, what in plan][1:-1] == [
        "works at Hobbs Cafe",
        "takes into account what her friends say about the party",  # its own words
    ]
    assert notes == [f"item {copied!r} copies the request's own words: dropped"]


def test_an_answer_with_clock_times_is_left_to_the_clock_reader() -> None:
    raw = '{"items": [{"start": "07:00", "description": "wake up"}]}'
    assert read_day_parts(raw) is None


def test_an_item_without_a_part_of_day_is_sent_back() -> None:
    with pytest.raises(InvalidOutput, match="part of day"):
        read_day_parts('{"items": [{"part": "noon", "description": "eat"}]}')
