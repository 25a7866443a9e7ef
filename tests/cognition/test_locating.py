"""Location choice: the paper's descent (area → sub-area → object), one Mind call per level,
preferring where the agent is, honouring opening hours and capacity — on several map shapes."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cognition.locating import locate
from cognition.norms import Norms
from cognition.offline import OfflineMind
from cognition.places import KnownMap, KnownPlace
from cognition.testing import ScriptedMind

MORNING = datetime(2023, 2, 13, 9, 0)
EVENING = datetime(2023, 2, 13, 19, 30)

FLAT = KnownMap(["Town Square", "Willow Park", "Hobbs Cafe", "Marigold Pharmacy"])
"""Areas with nothing known inside them."""

TOWN = KnownMap(
    [
        "Riverside Apartments: lobby: mailboxes",
        "Riverside Apartments: apartment 1: bedroom: bed",
        "Riverside Apartments: apartment 1: bedroom: wardrobe",
        "Riverside Apartments: apartment 1: kitchen: stove",
        "Riverside Apartments: apartment 1: kitchen: kitchen table",
        "Riverside Apartments: apartment 1: bathroom: shower",
        "Riverside Apartments: apartment 1: bathroom: sink",
        KnownPlace("Hobbs Cafe", Norms.parse({"opening_hours": "08:00-20:00", "capacity": 30})),
        "Hobbs Cafe: counter: espresso machine",
        "Hobbs Cafe: counter: cash register",
        "Hobbs Cafe: kitchen: stove",
        "Hobbs Cafe: kitchen: oven",
        "Hobbs Cafe: dining area: window table",
        KnownPlace("The Lantern Tavern", Norms.parse({"opening_hours": "16:00-00:00"})),
        "The Lantern Tavern: bar: bar counter",
        "The Lantern Tavern: kitchen: stove",
        "Willow Park: pond: park bench",
        "Willow Park: lawn: picnic table",
        "Wren College: library: bookshelves",
        "Wren College: library: reading table",
    ]
)
"""A deep flat (area → apartment → room → object) beside shallower places, three kitchens."""
HOME = "Riverside Apartments: apartment 1"
BED = f"{HOME}: bedroom: bed"


def offline(
    action: str,
    *,
    here: str | None = BED,
    at: datetime = MORNING,
    places: KnownMap = TOWN,
    keep_area: bool = False,
) -> str | None:
    return locate(
        OfflineMind(),
        action=action,
        places=places,
        at=at,
        here=here,
        home=HOME,
        name="Junie",
        keep_area=keep_area,
    )


@pytest.mark.parametrize(
    ("action", "place"),
    [
        ("take a shower", f"{HOME}: bathroom: shower"),
        ("brush teeth", f"{HOME}: bathroom: sink"),
        ("cook breakfast", f"{HOME}: kitchen: stove"),  # the flat's kitchen, not the cafe's
        ("get dressed", f"{HOME}: bedroom: wardrobe"),
        ("attend the party at Hobbs Cafe", "Hobbs Cafe: dining area: window table"),
        ("brew coffee for the customers", "Hobbs Cafe: counter: espresso machine"),
        ("take a walk in the park", "Willow Park"),  # nowhere in particular inside it
        ("sit on a bench by the pond", "Willow Park: pond: park bench"),
        ("read in the library", "Wren College: library: reading table"),
        ("check the mail", "Riverside Apartments: lobby: mailboxes"),
    ],
)
def test_the_offline_descent_finds_the_place_for_the_action(action: str, place: str) -> None:
    assert offline(action) == place


def test_depth_never_beats_the_area_the_action_names() -> None:
    """The old ranking summed matches down the path: a shower deep in the flat outbid a cafe."""
    assert offline("attend the party at the cafe", at=EVENING).startswith("Hobbs Cafe")
    assert offline("go to the party at Hobbs Cafe and shower the hosts with praise") == (
        "Hobbs Cafe: dining area: window table"
    )


def test_same_named_sub_areas_resolve_to_the_current_area() -> None:
    at_the_cafe = "Hobbs Cafe: counter: cash register"
    assert offline("cook lunch in the kitchen", here=at_the_cafe) == "Hobbs Cafe: kitchen: stove"
    assert offline("cook lunch in the kitchen", here=BED) == f"{HOME}: kitchen: stove"
    tavern = "The Lantern Tavern: bar: bar counter"
    assert offline("cook dinner", here=tavern, at=EVENING) == "The Lantern Tavern: kitchen: stove"


def test_a_task_stays_in_its_hour_chunks_area_unless_it_names_another() -> None:
    chunk = "Hobbs Cafe: counter: espresso machine"
    assert offline("take a short walk", here=chunk, keep_area=True).startswith("Hobbs Cafe")
    assert offline("take a walk in Willow Park", here=chunk, keep_area=True) == "Willow Park"
    assert offline("have a picnic in Willow Park", here=chunk, keep_area=True) == (
        "Willow Park: lawn: picnic table"
    )
    assert offline("head home and rest", here=chunk, keep_area=True) == BED


def test_with_no_match_the_action_stays_where_its_parent_is() -> None:
    assert offline("think about life", here="Willow Park", keep_area=True) == "Willow Park"
    assert offline("think about life", here=BED, keep_area=True) == BED
    assert offline("ponder", here="Hobbs Cafe: counter", keep_area=True) == "Hobbs Cafe: counter"


def test_flat_areas() -> None:
    assert offline("buy medicine", places=FLAT, here="Town Square") == "Marigold Pharmacy"
    assert offline("sit by the fountain", places=FLAT, here="Town Square") == "Town Square"
    assert offline("sit and think", places=FLAT, here=None) == "Town Square"  # first known


def test_a_closed_place_is_not_chosen_while_another_option_exists() -> None:
    assert offline("have a beer at the bar", at=MORNING).startswith(HOME)
    assert offline("have a beer at the bar", at=EVENING) == "The Lantern Tavern: bar: bar counter"
    assert offline("attend the party at the cafe", at=datetime(2023, 2, 13, 7)).startswith(HOME)
    only_closed = KnownMap([KnownPlace("Pub", Norms.parse({"opening_hours": "16:00-00:00"}))])
    assert offline("have a beer", places=only_closed, here=None) == "Pub"


def test_a_place_that_opens_during_the_action_can_host_it() -> None:
    early = datetime(2023, 2, 13, 7, 30)  # the cafe opens at 8:00
    brewing = "brew coffee for the customers"
    assert offline(brewing, at=early).startswith(HOME)  # a moment at 7:30: closed
    shift = locate(
        OfflineMind(),
        action=brewing,
        places=TOWN,
        at=early,
        until=early + timedelta(hours=4),
        here=BED,
        home=HOME,
    )
    assert shift == "Hobbs Cafe: counter: espresso machine"


def test_naming_a_place_goes_there_even_before_it_opens() -> None:
    """Staff open the cafe before its doors do: a plan that names the place keeps it."""
    opening = datetime(2023, 2, 13, 7, 30)
    assert offline("open Hobbs Cafe", at=opening).startswith("Hobbs Cafe")


def test_a_full_place_is_not_chosen() -> None:
    def bathrooms(occupied: int) -> KnownMap:
        one = Norms.parse({"capacity": 1})
        return KnownMap(
            [
                "Dorm: room 5: bed",
                KnownPlace("Dorm: bathroom A", one, occupancy=occupied),
                "Dorm: bathroom A: shower",
                KnownPlace("Dorm: bathroom B", one),
                "Dorm: bathroom B: shower",
            ]
        )

    def shower(occupied: int) -> str | None:
        return locate(
            OfflineMind(),
            action="take a shower",
            places=bathrooms(occupied),
            at=MORNING,
            here="Dorm: room 5: bed",
            keep_area=True,
        )

    assert shower(0) == "Dorm: bathroom A: shower"
    assert shower(1) == "Dorm: bathroom B: shower"


def test_the_mind_is_asked_once_per_level_with_that_levels_options() -> None:
    picks = iter(["Hobbs Cafe", "kitchen", "oven"])
    mind = ScriptedMind({"choose_location": lambda **kw: next(picks)})
    place = locate(
        mind, action="bake bread", places=TOWN, at=MORNING, here=BED, home=HOME, name="Junie"
    )
    assert place == "Hobbs Cafe: kitchen: oven"
    asked = mind.inputs("choose_location")
    assert [call["within"] for call in asked] == ["", "Hobbs Cafe", "Hobbs Cafe: kitchen"]
    assert [o.name for o in asked[0]["options"]] == [
        "Riverside Apartments",
        "Hobbs Cafe",
        "The Lantern Tavern",
        "Willow Park",
        "Wren College",
    ]
    cafe = asked[0]["options"][1]
    assert cafe.contains[:3] == ("counter", "espresso machine", "cash register")
    assert (cafe.norms.capacity, cafe.norms.opening_hours()) == (30, "08:00-20:00")
    assert [o.name for o in asked[2]["options"]] == ["stove", "oven"]
    assert {(c["current"], c["home"], c["name"], c["at"]) for c in asked} == {
        (BED, HOME, "Junie", MORNING)
    }


def test_a_named_area_and_single_options_cost_no_call() -> None:
    mind = ScriptedMind({"choose_location": ["duck house"]})
    places = KnownMap(["Willow Park: pond: park bench", "Willow Park: pond: duck house", "Home"])
    assert (
        locate(mind, action="feed the ducks at Willow Park", places=places, at=MORNING, here="Home")
        == "Willow Park: pond: duck house"
    )
    assert [c["within"] for c in mind.inputs("choose_location")] == ["Willow Park: pond"]


def test_an_empty_answer_below_the_areas_stays_at_the_place() -> None:
    mind = ScriptedMind({"choose_location": lambda **kw: "" if kw["within"] else "Hobbs Cafe"})
    assert locate(mind, action="daydream", places=TOWN, at=MORNING) == "Hobbs Cafe"


def test_nothing_known_is_nowhere() -> None:
    assert offline("anything", places=KnownMap([]), here=None) is None


@settings(max_examples=80, deadline=None)
@given(
    action=st.text(max_size=40),
    paths=st.lists(st.sampled_from(TOWN.paths()), min_size=1, max_size=8),
    hour=st.integers(min_value=0, max_value=23),
    keep=st.booleans(),
)
def test_the_descent_never_invents_a_place(
    action: str, paths: list[str], hour: int, keep: bool
) -> None:
    places = KnownMap(paths)
    here = paths[0]
    chosen = offline(
        action, places=places, here=here, at=MORNING.replace(hour=hour), keep_area=keep
    )
    assert chosen is not None and chosen in places
    assert chosen == places.canonical(chosen)


def test_an_item_the_outline_placed_stays_there_when_it_names_it_among_others() -> None:
    """A folded "A; then B" is outlined where most of it is spent: it names both places."""
    folded = "buy coffee beans at Hobbs Cafe; then have a picnic in Willow Park"
    outline = "Willow Park"
    kept = locate(
        OfflineMind(), action=folded, places=TOWN, at=MORNING, here=outline, outlined=True
    )
    assert kept is not None and kept.startswith("Willow Park"), kept
    moved = locate(OfflineMind(), action=folded, places=TOWN, at=MORNING, here=outline)
    assert moved is not None and moved.startswith("Hobbs Cafe"), moved  # a task goes elsewhere


def test_a_meal_out_and_an_invitation_are_in_the_public_room_not_the_kitchen() -> None:
    cafe = KnownMap(
        [
            "The Copper Kettle: cafe floor: window table",
            "The Copper Kettle: kitchen: oven",
            "Home: kitchen: kitchen table",
            "Home: kitchen: stove",
            "Home: bedroom: bed",
        ]
    )
    for action in ("have lunch", "have lunch out and invite people to the ceilidh"):
        placed = offline(action, here="The Copper Kettle", places=cafe, keep_area=True)
        assert placed == "The Copper Kettle: cafe floor: window table", action
    assert offline("cook lunch", here="The Copper Kettle", places=cafe, keep_area=True) == (
        "The Copper Kettle: kitchen: oven"
    )
    assert offline("have lunch at home", here="Home: bedroom: bed", places=cafe) == (
        "Home: kitchen: kitchen table"
    )
