"""Decomposition tiles its parent exactly: hour chunks ≤ 60 min, actions of 5–15 min."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cognition.offline.decomposition import decompose
from cognition.types import Granularity, Persona, PlanItem
from tests.hash_seeds import printed_under_seeds

from .personas import NOW, ROSA, TOMAS

PARTY = "invite everyone to the Valentine's party at Juniper Cafe"


def _item(description: str, *, hour: int, minute: int = 0, minutes: int) -> PlanItem:
    return PlanItem(
        start=NOW.replace(hour=hour, minute=minute),
        duration_min=minutes,
        description=description,
        location="Fernbrook: Juniper Cafe",
    )


def _assert_tiles(parent: PlanItem, parts: list[PlanItem]) -> None:
    assert parts[0].start == parent.start
    assert sum(p.duration_min for p in parts) == parent.duration_min
    for before, after in itertools.pairwise(parts):
        assert before.end == after.start


def test_hours_align_to_the_clock_and_cover_the_span() -> None:
    parent = _item("work at the counter of Juniper Cafe", hour=8, minute=30, minutes=200)
    hours = decompose(item=parent, granularity=Granularity.HOUR, persona=ROSA, summary="")
    _assert_tiles(parent, hours)
    assert [h.duration_min for h in hours] == [30, 60, 60, 50]
    assert all(h.description.startswith("work at the counter of Juniper Cafe") for h in hours)
    assert all(h.location == parent.location for h in hours)


def test_tasks_are_five_to_fifteen_minutes_from_the_matching_template() -> None:
    parent = _item("wake up and complete the morning routine", hour=6, minutes=60)
    tasks = decompose(item=parent, granularity=Granularity.TASK, persona=ROSA, summary="")
    _assert_tiles(parent, tasks)
    assert all(5 <= t.duration_min <= 15 for t in tasks)
    assert tasks[0].description == "waking up and stretching"
    assert any("brushing teeth" in t.description for t in tasks)


def test_sleep_becomes_fifteen_minute_sleeping_actions() -> None:
    parent = _item("go to bed and sleep", hour=23, minutes=60)
    tasks = decompose(item=parent, granularity=Granularity.TASK, persona=ROSA, summary="")
    assert [(t.description, t.duration_min) for t in tasks] == [("sleeping", 15)] * 4


def test_a_directive_survives_into_its_actions() -> None:
    parent = _item(PARTY, hour=17, minutes=60)
    tasks = decompose(item=parent, granularity=Granularity.TASK, persona=ROSA, summary="")
    assert any(t.description == PARTY for t in tasks)


def test_vague_work_borrows_the_persona_occupation() -> None:
    parent = _item("go to work", hour=9, minutes=45)
    tasks = decompose(item=parent, granularity=Granularity.TASK, persona=TOMAS, summary="")
    assert any("lecture notes" in t.description or "textbook" in t.description for t in tasks)


def test_short_span_is_one_action_and_empty_span_none() -> None:
    short = decompose(
        item=_item("tidy up", hour=9, minutes=3),
        granularity=Granularity.TASK,
        persona=ROSA,
        summary="",
    )
    assert [t.duration_min for t in short] == [3]
    empty = _item("nothing", hour=9, minutes=0)
    assert decompose(item=empty, granularity=Granularity.TASK, persona=ROSA, summary="") == []


def _decompositions() -> list[list[PlanItem]]:
    parent = _item("paint in the studio", hour=10, minutes=125)
    return [
        decompose(item=parent, granularity=granularity, persona=ROSA, summary="")
        for granularity in Granularity
    ]


def test_decompose_is_the_same_in_every_process() -> None:
    code = (
        "from tests.cognition.offline.test_decomposition import _decompositions; "
        "print(repr(_decompositions()))"
    )
    assert set(printed_under_seeds(code)) == {repr(_decompositions())}


DESCRIPTIONS = st.sampled_from(
    [PARTY, "have lunch", "go to bed and sleep", "fill prescriptions", "juggle", "go to work"]
)


@given(
    DESCRIPTIONS,
    st.integers(min_value=5, max_value=24 * 60),
    st.integers(min_value=0, max_value=59),
)
def test_tasks_always_tile_with_legal_lengths(description: str, minutes: int, minute: int) -> None:
    parent = _item(description, hour=7, minute=minute, minutes=minutes)
    tasks = decompose(item=parent, granularity=Granularity.TASK, persona=ROSA, summary="")
    _assert_tiles(parent, tasks)
    assert all(5 <= t.duration_min <= 15 for t in tasks)
    assert all(t.description and t.location == parent.location for t in tasks)


@given(
    DESCRIPTIONS,
    st.integers(min_value=1, max_value=24 * 60),
    st.integers(min_value=0, max_value=59),
)
def test_hours_always_tile_within_an_hour(description: str, minutes: int, minute: int) -> None:
    parent = _item(description, hour=7, minute=minute, minutes=minutes)
    hours = decompose(item=parent, granularity=Granularity.HOUR, persona=ROSA, summary="")
    _assert_tiles(parent, hours)
    assert all(1 <= h.duration_min <= 60 for h in hours)
    assert all(h.start.minute == 0 for h in hours[1:])


def test_a_guest_goes_to_a_party_as_a_guest_and_the_host_hosts_it() -> None:
    """A guest's hour at the party is spent as a guest's; greeting arrivals is the host's."""
    going = _item("go to Junie Halvorsen's Valentine's Day party", hour=18, minutes=60)
    guest = decompose(item=going, granularity=Granularity.TASK, persona=ROSA, summary="")
    _assert_tiles(going, guest)
    assert guest[0].description == "arriving and saying hello to the host"
    assert not any("greeting people" in t.description for t in guest)
    hosting = _item("host the Valentine's Day party", hour=18, minutes=60)
    host = decompose(item=hosting, granularity=Granularity.TASK, persona=ROSA, summary="")
    assert host[0].description == "greeting people as they arrive"


@pytest.mark.parametrize(
    ("background", "duties", "steps", "not_steps"),
    [
        (
            "Bram owns Delft Hardware, which his mother ran before him; Bram sings in a choir",
            "Bram opens Delft Hardware at 8am and works there until 6pm, and has a beer at "
            "The Plough tavern at 7pm.",
            "ringing up purchases",
            "pouring drinks",
        ),
        (
            "Lotte works the counter at Delft Hardware and paints at night",
            "Lotte works at Delft Hardware from 9am to 5pm.",
            "helping customers",
            "brewing coffee",
        ),
        (
            "Bram is the foreman at Delft Hardware",
            "Bram works at Delft Hardware from 6am to 2pm and reads the paper in the library.",
            "ringing up purchases",
            "drafting a section",
        ),
    ],
)
def test_work_takes_the_steps_of_the_job_not_of_an_evening_out(
    background: str, duties: str, steps: str, not_steps: str
) -> None:
    worker = Persona(name="Bram Vos", background=background, daily_plan_requirement=duties)
    parent = _item("work at Delft Hardware", hour=9, minutes=120)
    tasks = [
        t.description
        for t in decompose(item=parent, granularity=Granularity.TASK, persona=worker, summary="")
    ]
    assert steps in tasks and not any(not_steps in t for t in tasks), tasks
