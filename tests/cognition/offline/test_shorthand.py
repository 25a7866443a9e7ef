"""Shorthand in texts and notices is written out before the news readers see it."""

from __future__ import annotations

import pytest

from cognition.offline.shorthand import written_out


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("quiz night at the legion fri 7ish!!", "quiz night at the legion Friday around 7!!"),
        ("fish fry tmrw @ the hall half 6", "fish fry tomorrow at the hall at 6:30"),
        ("from 9:00 a.m. until 12:00 noon.", "from 9:00 am until noon."),
        ("Doors at 7 p.m. Bring a plate.", "Doors at 7 pm. Bring a plate."),
        ("Thursday, Sept. 18th at 6.30pm", "Thursday, September 18th at 6:30 pm"),
        ("see you on sat. we'll go", "see you on Saturday we'll go"),
        ("meet this arvo on thursday", "meet this afternoon on Thursday"),
        ("pancakes sun 7.30-10am!!", "pancakes Sunday 7:30 am-10 am!!"),
        ("lunch 11-2pm", "lunch 11-2 pm"),
        ("Rummage Sale, Sat. Oct. 11, 9 a.m.", "Rummage Sale, Saturday October 11, 9 am."),
        ("bonfire down the beach fri, 8 till late", "bonfire down the beach Friday, from 8"),
        ("NOTICE: the road is shut", "the road is shut"),
        ("hey all, bbq at ours", "bbq at ours"),
        ("ok so QUIZ NIGHT at the Anchor", "Quiz Night at the Anchor"),
        ("so, darts FINAL at the club tonight", "darts final at the club tonight"),
        ("BBQ at the RSL, bring a PLATE", "BBQ at the RSL, bring a plate"),
        ("MILLBROOK PARISH COUNCIL. Notice", "Millbrook Parish Council. Notice"),
    ],
)
def test_days_dates_and_times_are_written_out(text: str, expected: str) -> None:
    assert written_out(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "I sat at the table by the window.",
        "The sun came out and half the town came.",
        "We may march in May.",
        "They wed in June.",
        "I sat. Then I left.",
        "It costs $4.50 at the shop.",
    ],
)
def test_words_that_only_look_like_shorthand_are_left_alone(text: str) -> None:
    assert written_out(text) == text


def test_days_in_another_language_are_written_out_but_a_name_spelt_like_one_is_kept() -> None:
    """Held out: "Manana Kaldani", a Georgian woman, became "tomorrow Kaldani", whose doings
    were then passed on as news."""
    assert written_out("Comadre! Mañana sábado, finally") == "Comadre! tomorrow Saturday, finally"
    assert written_out("the market is on viernes") == "the market is on Friday"
    assert written_out("Manana Kaldani is milking") == "Manana Kaldani is milking"
