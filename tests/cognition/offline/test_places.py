"""Locations are always known paths; object states and emoji follow keyword tables."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cognition.norms import Norms
from cognition.offline.places import DEFAULT_EMOJI, choose_location, emoji, object_state
from cognition.places import PlaceOption

from .personas import NOW


def options(*names: str, **inside: tuple[str, ...]) -> list[PlaceOption]:
    return [PlaceOption(name, contains=inside.get(name.replace(" ", "_"), ())) for name in names]


AREAS = options("Rosa's flat", "Juniper Cafe", "River Park", rosa_s_flat=("bathroom", "shower"))
ROOMS = options("bedroom", "kitchen", "bathroom", bathroom=("sink", "shower"), kitchen=("stove",))


@pytest.mark.parametrize(
    ("action", "within", "name"),
    [
        ("make coffee", "", "Juniper Cafe"),  # a synonym of its name
        ("take a shower", "", "Rosa's flat"),  # a word of a place inside it
        ("attend the party at the cafe", "", "Juniper Cafe"),  # not the flat's shower
        ("take a walk in the park", "", "River Park"),
        ("cook breakfast", "Rosa's flat", "kitchen"),
        ("brushing teeth", "Rosa's flat", "bathroom"),
        ("sleeping", "Rosa's flat", "bedroom"),
    ],
)
def test_one_level_is_chosen_by_the_words_of_each_option(
    action: str, within: str, name: str
) -> None:
    level = ROOMS if within else AREAS
    assert choose_location(action, level, at=NOW, within=within) == name


def test_the_current_place_wins_a_tie_and_a_direct_word_beats_it() -> None:
    kitchens = options(
        "Rosa's flat", "Juniper Cafe", rosa_s_flat=("kitchen",), juniper_cafe=("kitchen",)
    )
    at_the_cafe = "Juniper Cafe: counter"
    assert choose_location("cook", kitchens, at=NOW, current=at_the_cafe) == "Juniper Cafe"
    assert choose_location("cook", kitchens, at=NOW, current="Rosa's flat") == "Rosa's flat"
    assert choose_location("cook", kitchens, at=NOW, home="Rosa's flat: bed") == "Rosa's flat"
    assert choose_location("cook at Rosa's flat", kitchens, at=NOW, current=at_the_cafe) == (
        "Rosa's flat"
    )


def test_no_match_stays_inside_but_an_area_is_always_chosen() -> None:
    assert choose_location("contemplate the void", ROOMS, at=NOW, within="Rosa's flat") == ""
    here = "Rosa's flat: kitchen: stove"
    assert choose_location("contemplate", ROOMS, at=NOW, within="Rosa's flat", current=here) == (
        "kitchen"
    )
    assert choose_location("contemplate the void", AREAS, at=NOW) == "Rosa's flat"
    assert choose_location("make coffee", [], at=NOW) == ""


def test_closed_and_full_options_are_passed_over_while_another_is_usable() -> None:
    pub = PlaceOption("Pub", contains=("bar",), norms=Norms.parse({"opening_hours": "16:00-00:00"}))
    cafe = PlaceOption("Cafe", contains=("counter",), norms=Norms.parse({"capacity": 2}))
    assert choose_location("drink beer", [cafe, pub], at=NOW) == "Cafe"  # 5:30 am: pub closed
    assert choose_location("drink beer", [cafe, pub], at=NOW.replace(hour=17)) == "Pub"
    full = PlaceOption("Cafe", contains=("counter",), norms=cafe.norms, occupancy=2)
    assert choose_location("make coffee", [full, pub], at=NOW.replace(hour=17)) == "Pub"
    assert choose_location("drink beer", [pub], at=NOW) == "Pub"  # nothing else: closed it is


@given(st.text(max_size=60), st.lists(st.sampled_from(ROOMS + AREAS), min_size=1, max_size=6))
def test_choose_location_never_invents_a_place(action: str, level: list[PlaceOption]) -> None:
    chosen = choose_location(action, level, at=NOW, within="Rosa's flat")
    assert chosen in {o.name for o in level} | {""}
    assert chosen == choose_location(action, level, at=NOW, within="Rosa's flat")


@pytest.mark.parametrize(
    ("action", "obj", "state"),
    [
        ("cooking breakfast", "stove", "cooking"),
        ("making coffee", "coffee machine", "brewing coffee"),
        ("sleeping", "bed", "in use"),
        ("washing the dishes", "Fernbrook: Rosa's flat: kitchen: sink", "running water"),
        ("painting the details", "easel", "being painted on"),
        ("wiping down the counter", "counter", "in use"),
        ("sleeping", "stove", None),
        ("reading a book", "coffee machine", None),
    ],
)
def test_object_state(action: str, obj: str, state: str | None) -> None:
    assert object_state(action, obj) == state


@pytest.mark.parametrize(
    ("action", "symbol"),
    [
        ("sleeping", "😴"),
        ("brewing coffee", "☕"),
        ("cooking dinner", "🍳🍽️"),
        ("reading the textbook", "📚"),
        ("painting", "🎨"),
        ("chatting with guests", "💬"),
        ("walking to the park", "🚶"),
        ("hosting the party", "🎉"),
        ("go to work", "💼"),
        ("eating lunch", "🍽️"),
        ("contemplating", DEFAULT_EMOJI),
    ],
)
def test_emoji(action: str, symbol: str) -> None:
    assert emoji(action) == symbol
