"""Locations are always known paths; object states and emoji follow keyword tables."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cognition.offline.places import DEFAULT_EMOJI, choose_location, emoji, object_state

from .personas import KNOWN_PLACES


@pytest.mark.parametrize(
    ("action", "path"),
    [
        ("make coffee", "Fernbrook: Juniper Cafe: counter: coffee machine"),
        ("sleeping", "Fernbrook: Rosa's flat: bedroom: bed"),
        ("cook breakfast on the stove", "Fernbrook: Rosa's flat: kitchen: stove"),
        ("study for the chemistry exam", "Fernbrook: Brookside College: library: desk"),
        ("fill prescriptions", "Fernbrook: Willow Pharmacy: counter: register"),
        ("paint a river landscape", "Fernbrook: Ivo's studio: easel"),
        ("take a walk in the park", "Fernbrook: River Park: bench"),
        ("brushing teeth", "Fernbrook: Rosa's flat: bathroom: sink"),
    ],
)
def test_choose_location_matches_the_action(action: str, path: str) -> None:
    assert choose_location(action, KNOWN_PLACES) == path


def test_deeper_match_wins_over_the_area() -> None:
    places = ["Juniper Cafe", "Juniper Cafe: counter: coffee machine"]
    assert choose_location("brew coffee", places) == places[1]


def test_no_match_falls_back_to_the_first_known_place() -> None:
    assert choose_location("contemplate the void", KNOWN_PLACES) == KNOWN_PLACES[0]


def test_no_known_places_gives_empty_string() -> None:
    assert choose_location("make coffee", []) == ""


@given(st.text(max_size=60), st.lists(st.sampled_from(KNOWN_PLACES), min_size=1, max_size=6))
def test_choose_location_never_invents_a_place(action: str, places: list[str]) -> None:
    chosen = choose_location(action, places)
    assert chosen in places
    assert chosen == choose_location(action, places)


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
