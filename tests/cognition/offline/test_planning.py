"""Day plans: 5–8 contiguous items from wake-up, routine from the persona, directives kept."""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cognition.offline.planning import plan_day
from cognition.types import Persona, PlanItem

from .personas import HELEN, IVO, NOW, PERSONAS, ROSA, TOMAS

PARTY = "invite everyone to the Valentine's party at Juniper Cafe at 5pm"


def _plan(persona: Persona, directives: tuple[str, ...] = ()) -> list[PlanItem]:
    return plan_day(persona=persona, summary="", previous_day="", directives=directives, now=NOW)


def _end(item: PlanItem) -> datetime:
    return item.start + timedelta(minutes=item.duration_min)


def _assert_well_formed(items: list[PlanItem]) -> None:
    assert 5 <= len(items) <= 8, [i.description for i in items]
    assert all(item.duration_min > 0 for item in items)
    for before, after in itertools.pairwise(items):
        assert _end(before) == after.start, (before, after)


@pytest.mark.parametrize(
    ("persona", "wake"),
    [(ROSA, (6, 0)), (TOMAS, (7, 30)), (HELEN, (6, 0)), (IVO, (9, 0))],
    ids=lambda p: getattr(p, "name", ""),
)
def test_plan_starts_at_wake_up_on_the_date_of_now(persona: Persona, wake: tuple[int, int]) -> None:
    items = _plan(persona)
    _assert_well_formed(items)
    assert items[0].start == NOW.replace(hour=wake[0], minute=wake[1])
    assert "wake up" in items[0].description
    assert items[0].location == persona.living_area


def test_plan_ends_with_sleep_until_the_next_wake_up() -> None:
    items = _plan(ROSA)
    assert "sleep" in items[-1].description
    assert items[-1].start == NOW.replace(hour=23, minute=0)
    assert _end(items[-1]) == items[0].start + timedelta(days=1)


def test_bedtime_past_midnight_lands_on_the_next_day() -> None:
    sleep = _plan(IVO)[-1]
    assert sleep.start == NOW.replace(hour=1, minute=0) + timedelta(days=1)


def test_work_blocks_follow_the_persona() -> None:
    assert any("Juniper Cafe" in i.description for i in _plan(ROSA))
    assert any("classes" in i.description for i in _plan(TOMAS))
    assert any("prescriptions" in i.description for i in _plan(HELEN))
    assert any("paint" in i.description for i in _plan(IVO))


def test_stated_working_hours_are_kept() -> None:
    items = _plan(ROSA)
    opening = next(i for i in items if i.description.startswith("open Juniper Cafe"))
    assert opening.start.hour == 8
    assert opening.location == "Juniper Cafe"
    dinner = next(i for i in items if i.description == "have dinner")
    assert dinner.start.hour == 19


def test_timed_directive_becomes_an_item_at_its_time() -> None:
    items = _plan(ROSA, (PARTY,))
    _assert_well_formed(items)
    party = next(i for i in items if i.description == PARTY)
    assert party.start == NOW.replace(hour=17, minute=0)
    assert party.duration_min == 60
    assert party.location == "Juniper Cafe"


def test_directive_with_an_end_time_takes_that_long() -> None:
    items = _plan(TOMAS, ("meet Lena at the library from 2 to 4pm",))
    _assert_well_formed(items)
    meeting = next(i for i in items if i.description.startswith("meet Lena"))
    assert (meeting.start.hour, meeting.duration_min) == (14, 120)


def test_untimed_directive_is_scheduled_in_free_time() -> None:
    items = _plan(HELEN, ("write a thank-you note to the new assistant",))
    _assert_well_formed(items)
    note = next(i for i in items if i.description.startswith("write a thank-you note"))
    dinner = next(i for i in items if i.description == "have dinner")
    assert note.start == _end(dinner)


def test_many_directives_still_fit_in_eight_items() -> None:
    directives = (PARTY, "call the flour supplier at 9am", "meet Helen from 2 to 3pm", "rest")
    items = _plan(ROSA, directives)
    _assert_well_formed(items)
    times = {i.description: (i.start.hour, i.start.minute) for i in items}
    assert times[PARTY] == (17, 0)
    assert times["call the flour supplier at 9am"] == (9, 0)
    assert times["meet Helen from 2 to 3pm"] == (14, 0)


def test_plan_is_deterministic() -> None:
    for persona in PERSONAS:
        assert _plan(persona, (PARTY,)) == _plan(persona, (PARTY,))


LIFESTYLES = st.sampled_from(
    [
        "",
        "wakes up at 5am and goes to bed at 9pm",
        "goes to bed around 11pm, awakes up around 6am",
        "sleeps at midnight and wakes at 10 am",
        "wakes at 4pm and goes to bed at 8am",
        "wakes at noon, sleeps at 4am",
    ]
)
DIRECTIVE = st.sampled_from(
    [PARTY, "nap at 3pm", "call Rosa at 9", "clean the stove", "meet Ivo from 10am to 1pm", ""]
)


@given(LIFESTYLES, st.lists(DIRECTIVE, max_size=7), st.integers(min_value=0, max_value=23))
def test_any_persona_gets_a_well_formed_plan(
    lifestyle: str, directives: list[str], hour: int
) -> None:
    persona = Persona(name="Sam Lee", lifestyle=lifestyle, currently="Sam is learning to juggle")
    items = plan_day(
        persona=persona,
        summary="",
        previous_day="",
        directives=directives,
        now=NOW.replace(hour=hour),
    )
    _assert_well_formed(items)
    assert items[0].start.date() == NOW.date()
    assert _end(items[-1]) == items[0].start + timedelta(days=1)


def test_untimed_directive_never_pushes_a_timed_one() -> None:
    items = _plan(HELEN, ("tidy the shelves", "phone the supplier at 7pm"))
    _assert_well_formed(items)
    times = {i.description: (i.start.hour, i.start.minute) for i in items}
    assert times["phone the supplier at 7pm"] == (19, 0)
    assert "tidy the shelves" in times
