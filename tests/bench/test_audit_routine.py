"""The audit reads each persona's day from its own words: every persona of the demo town, and
the phrases issue 11 names ("works from 1pm" is a start time, "goes to bed around 1am" is
after midnight)."""

from __future__ import annotations

import pytest
from hearth_client.demo import load_town

from bench.audit_routine import (
    OPEN_SHIFT_MIN,
    Shift,
    clock,
    place_names,
    read_routine,
)

TOWN = load_town()
PLACES = place_names(TOWN["map"]["children"])  # type: ignore[arg-type]


def _hm(text: str) -> int:
    hours, minutes = text.split(":")
    return int(hours) * 60 + int(minutes)


EXPECTED = {
    "Junie Halvorsen": ("05:30", "22:00", [("The Copper Kettle", "07:00", "17:00")]),
    "Tomas Ferreira": ("06:00", "24:00", [("The Copper Kettle", "06:30", "14:00")]),
    "Noor Haddad": ("07:00", "24:00", [("Wren College", "13:00", "17:00")]),
    "Priya Raman": ("06:00", "24:00", [("Willow Park", "06:30", "07:30")]),
    "Martin Calloway": ("06:00", "22:00", [("Marigold Pharmacy", "08:00", "19:00")]),
    "Helen Calloway": ("06:30", "22:30", [("Wren College", "08:30", "16:30")]),
    "Beatrix Lund": ("06:30", "23:00", [("Marigold Pharmacy", "08:00", "16:00")]),
    "Daniel Okafor": ("05:45", "22:00", [("Dunmore General Store", "07:00", "21:00")]),
    "Walter Brigg": ("08:00", "25:00", [("The Lantern Tavern", "16:00", "17:00")]),
    "Rosalind Kerr": ("10:00", "26:00", [("The Lantern Tavern", "16:00", "24:00")]),
    "Hiro Tanaka": ("07:00", "24:00", [("The Copper Kettle", "08:00", "12:00")]),
    "Camille Dufresne": ("06:00", "22:00", [("Willow Park", "07:30", "08:30")]),
    "Marcus Webb": ("06:00", "22:30", [("Wren College", "08:00", "17:00")]),
    "Jonah Pike": ("08:00", "25:00", [("Dunmore General Store", "10:00", "18:00")]),
    "Felix Moreau": ("08:00", "25:00", []),
    "Oskar Brandt": ("09:00", "26:00", []),
    "Ingrid Lindqvist": ("05:30", "21:30", []),
}
"""Personas whose work is said only vaguely ("in the afternoon") have no shift: not judged."""


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_demo_persona_reads_as_written(name: str) -> None:
    persona = next(p for p in TOWN["personas"] if p["name"] == name)
    routine = read_routine(
        lifestyle=persona["lifestyle"],
        living_area=persona["living_area"],
        requirement=persona["daily_plan_requirement"],
        places=PLACES,
    )
    wake, bed, shifts = EXPECTED[name]
    assert (routine.wake, routine.bed) == (_hm(wake), _hm(bed))
    assert [(s.area, s.start, s.end) for s in routine.shifts] == [
        (area, _hm(start), _hm(end)) for area, start, end in shifts
    ]


def test_every_persona_has_a_wake_and_bed_time() -> None:
    for persona in TOWN["personas"]:
        routine = read_routine(
            lifestyle=persona["lifestyle"],
            living_area=persona["living_area"],
            requirement=persona["daily_plan_requirement"],
            places=PLACES,
        )
        assert routine.wake is not None and routine.bed is not None, persona["name"]
        assert routine.wake < routine.bed


def test_works_from_1pm_is_a_start_time() -> None:
    routine = read_routine(
        lifestyle="",
        living_area="Voss Cottage",
        requirement="Rosa works from 1pm at Marigold Pharmacy",
        places=PLACES,
    )
    assert routine.shifts == (Shift("Marigold Pharmacy", 13 * 60, 13 * 60 + OPEN_SHIFT_MIN),)


def test_lunch_at_home_breaks_the_shift() -> None:
    persona = next(p for p in TOWN["personas"] if p["name"] == "Daniel Okafor")
    routine = read_routine(
        lifestyle=persona["lifestyle"],
        living_area=persona["living_area"],
        requirement=persona["daily_plan_requirement"],
        places=PLACES,
    )
    assert routine.shift_at(_hm("11:45")) is not None
    assert routine.shift_at(_hm("13:00")) is None  # "a long lunch at home"
    assert routine.shift_at(_hm("14:00")) is not None
    assert routine.shift_at(_hm("21:00")) is None


def test_places_are_areas_or_a_sub_area_only_one_area_has() -> None:
    assert PLACES["the copper kettle"] == "The Copper Kettle"
    assert PLACES["library"] == "Wren College"
    assert "kitchen" not in PLACES  # every house has one
    home = read_routine(
        lifestyle="",
        living_area="Okafor House: kitchen",
        requirement="Ada studies at home from 9am to 11am",
        places=PLACES,
    )
    assert home.shifts == (Shift("Okafor House", 9 * 60, 11 * 60),)


@pytest.mark.parametrize(
    ("text", "minutes"),
    [
        ("7am", 420),
        ("6:30am", 390),
        ("12pm", 720),
        ("12am", 0),
        ("noon", 720),
        ("midnight", 1440),
        ("10 pm", 1320),
    ],
)
def test_clock_times(text: str, minutes: int) -> None:
    assert clock(text) == minutes


def test_a_clock_time_must_be_a_time() -> None:
    with pytest.raises(ValueError, match="not a time"):
        clock("teatime")
