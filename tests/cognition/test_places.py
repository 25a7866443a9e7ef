"""Place paths and map flattening: pure, no database."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cognition.errors import InvalidInput
from cognition.places import (
    MAX_MAP_DEPTH,
    ancestors,
    area_of,
    flatten_map,
    join_path,
    normalize_path,
    parse_path,
    parse_state_statement,
    within_sight,
)

segment = st.text(
    st.characters(blacklist_characters=":", blacklist_categories=("Cs",)), min_size=1
).filter(lambda s: s.strip())


@given(st.lists(segment, min_size=1, max_size=6))
def test_join_then_parse_round_trips(parts: list[str]) -> None:
    canonical = join_path([p.strip() for p in parts])
    assert parse_path(canonical) == tuple(p.strip() for p in parts)
    assert normalize_path(canonical) == canonical


def test_spacing_is_not_significant_and_empty_segments_are_refused() -> None:
    assert normalize_path(" Hobbs Cafe :counter:  coffee machine ") == (
        "Hobbs Cafe: counter: coffee machine"
    )
    for bad in ("", "a::b", "a: ", ": a"):
        with pytest.raises(InvalidInput):
            parse_path(bad)


def test_ancestors_and_area() -> None:
    assert ancestors("a: b: c") == ["a", "a: b"]
    assert ancestors("a") == []
    assert area_of("Lin house: kitchen: stove") == "Lin house"


def test_a_change_is_seen_from_the_objects_room_only() -> None:
    stove = "Riverside Apartments: apartment 1: kitchen: stove"
    assert within_sight(stove, "Riverside Apartments: apartment 1: kitchen: kitchen table")
    assert within_sight(stove, "riverside apartments:apartment 1:kitchen")
    assert not within_sight(stove, "Riverside Apartments: apartment 1: bedroom: bed")
    assert not within_sight(stove, "Riverside Apartments: apartment 2: kitchen: stove")
    assert not within_sight(stove, "Riverside Apartments")
    assert within_sight(stove, "Riverside Apartments: apartment 2: bedroom", alarming=True)
    assert not within_sight(stove, "Wren College", alarming=True)
    espresso = "The Copper Kettle: counter: espresso machine"
    assert within_sight(espresso, "The Copper Kettle: counter: cash register")
    assert not within_sight(espresso, "Wren College: library")
    assert within_sight("Willow Park: bench", "Willow Park: pond")
    assert not within_sight("Willow Park: bench", "")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<Lin house: kitchen: stove> is burning", ("Lin house: kitchen: stove", "burning")),
        ("  <a:b> is out of order.  ", ("a: b", "out of order")),
        ("<bed> is in use", ("bed", "in use")),
    ],
)
def test_the_papers_statement_form(text: str, expected: tuple[str, str]) -> None:
    assert parse_state_statement(text) == expected


@pytest.mark.parametrize(
    "text", ["stove is burning", "<stove> burning", "<stove> is ", "<> is on", "<a::b> is on"]
)
def test_malformed_statements_are_refused(text: str) -> None:
    with pytest.raises(InvalidInput):
        parse_state_statement(text)


def test_flatten_lists_parents_first_and_names_faults() -> None:
    tree = [{"name": "cafe", "children": [{"name": "counter", "state": "busy"}]}, {"name": "park"}]
    specs = flatten_map(tree)
    assert [(s.path, s.depth, s.parent, s.state) for s in specs] == [
        ("cafe", 0, None, None),
        ("cafe: counter", 1, "cafe", "busy"),
        ("park", 0, None, None),
    ]
    with pytest.raises(InvalidInput) as twins:
        flatten_map([{"name": "a"}, {"name": "b", "children": [{"name": "x"}, {"name": " x "}]}])
    assert twins.value.field == "children.1.children.1.name"
    deep: dict[str, object] = {"name": "leaf"}
    for _ in range(MAX_MAP_DEPTH):
        deep = {"name": "level", "children": [deep]}
    with pytest.raises(InvalidInput) as too_deep:
        flatten_map([deep])
    assert too_deep.value.field == "children" + ".0.children" * MAX_MAP_DEPTH
