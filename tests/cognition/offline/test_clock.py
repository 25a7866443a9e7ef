"""Wake and bed times from persona prose; event times from directives."""

from __future__ import annotations

import pytest

from cognition.offline.clock import (
    DEFAULT_BED,
    DEFAULT_WAKE,
    MINUTES_PER_DAY,
    event_span,
    numeric_times,
    wake_and_bed,
)

H = 60


@pytest.mark.parametrize(
    ("lifestyle", "wake", "bed"),
    [
        ("goes to bed around 11pm, awakes up around 6am", 6 * H, 23 * H),
        ("wakes up at 7:30 am", 7 * H + 30, DEFAULT_BED),
        ("sleeps at midnight", DEFAULT_WAKE, MINUTES_PER_DAY),
        ("wakes up at 8 and goes to bed at 11", 8 * H, 23 * H),
        ("sleeps from 1am until 9am", 9 * H, MINUTES_PER_DAY + 1 * H),
        ("goes to bed at 10:30 p.m. and gets up at 5 a.m.", 5 * H, 22 * H + 30),
        ("works nights: wakes at 4pm and goes to bed at 8am", 16 * H, MINUTES_PER_DAY + 8 * H),
        ("a creature of habit", DEFAULT_WAKE, DEFAULT_BED),
        ("is 25 years old and keeps 3 cats", DEFAULT_WAKE, DEFAULT_BED),
    ],
)
def test_wake_and_bed(lifestyle: str, wake: int, bed: int) -> None:
    assert wake_and_bed(lifestyle) == (wake, bed)


def test_implausible_days_fall_back_to_defaults() -> None:
    assert wake_and_bed("wakes at 9pm and goes to bed at 11pm") == (DEFAULT_WAKE, DEFAULT_BED)


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("invite everyone to the party at Juniper Cafe at 5pm", (17 * H, None)),
        ("meet Lena from 2 to 4pm", (14 * H, 16 * H)),
        ("call the supplier at 9", (9 * H, None)),
        ("have lunch with Helen at noon", (12 * H, None)),
        ("study at 19:30", (19 * H + 30, None)),
        ("finish the painting before February 14th", None),
    ],
)
def test_event_span(text: str, span: tuple[int, int | None] | None) -> None:
    assert event_span(text) == span


@pytest.mark.parametrize(
    ("said", "span"),
    [
        ("at half past seven in the evening", (19 * H + 30, None)),
        ("at a quarter to eight", (19 * H + 45, None)),
        ("at ten past nine in the morning", (9 * H + 10, None)),
        ("at half seven", (19 * H + 30, None)),
        ("at seven o'clock", (19 * H, None)),
        ("from seven till nine", (19 * H, 21 * H)),
        ("at six thirty pm", (18 * H + 30, None)),
        ("from 7 to 9", (19 * H, 21 * H)),
    ],
)
def test_times_said_in_words_read_as_clock_times(said: str, span: tuple[int, int | None]) -> None:
    assert event_span(numeric_times(said)) == span


def test_words_that_are_not_times_stay_words() -> None:
    for text in ("half the town came", "ten people sang", "one of the boats"):
        assert numeric_times(text) == text
