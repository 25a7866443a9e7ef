"""Planning: day outlines repaired into 5–8 contiguous items, decomposition that tiles spans."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cognition.errors import InvalidOutput
from cognition.offline import OfflineMind
from cognition.places import KnownMap
from cognition.planning import (
    ASLEEP,
    decompose_hours,
    decompose_tasks,
    lay_outline,
    plan_day,
    previous_day_summary,
    repair_day_plan,
)
from cognition.schedule import in_turn
from cognition.testing import ScriptedMind
from cognition.types import Granularity, MemoryKind, PlanItem

from ..offline.personas import KNOWN_PLACES, NOW, ROSA
from .support import RecordingStore

MIDNIGHT = datetime(2024, 2, 13)
DAY = timedelta(days=1)


def at(hour: int, minute: int = 0, *, day: datetime = MIDNIGHT) -> datetime:
    return day + timedelta(hours=hour, minutes=minute)


def item(hour: int, minutes: int, text: str, location: str | None = None) -> PlanItem:
    return PlanItem(start=at(hour), duration_min=minutes, description=text, location=location)


def assert_contiguous_day(items: Sequence[PlanItem]) -> None:
    assert 5 <= len(items) <= 8
    for before, after in pairwise(items):
        assert before.end == after.start
    assert items[-1].end - items[0].start == DAY
    assert all(i.duration_min > 0 for i in items)


def assert_tiles(parent: PlanItem, steps: Sequence[PlanItem], low: int, high: int) -> None:
    assert steps[0].start == parent.start
    for before, after in pairwise(steps):
        assert before.end == after.start
    assert steps[-1].end == parent.end
    assert all(low <= s.duration_min <= high for s in steps), [s.duration_min for s in steps]


def plan_with(
    drafted: list[PlanItem], store: RecordingStore
) -> tuple[list[PlanItem], ScriptedMind]:
    mind = ScriptedMind({"plan_day": [drafted]})
    items = plan_day(
        store,
        mind,
        persona=ROSA,
        summary="",
        previous_day="",
        directives=[],
        now=NOW,
        known_places=KNOWN_PLACES,
    )
    return items, mind


def test_too_many_unsorted_overlapping_items_are_repaired(store: RecordingStore) -> None:
    drafted = [
        item(13, 240, "serve customers", "Fernbrook: Juniper Cafe: counter: coffee machine"),
        item(6, 60, "wake up and shower"),
        item(7, 90, "walk to the cafe"),  # overlaps the next item
        item(8, 30, "open the cafe"),
        item(8, 30, "   "),  # no description
        item(9, 60, "bake croissants"),
        item(10, 60, "serve breakfast"),
        item(11, 30, "restock the counter"),
        item(12, 30, "have lunch"),
        item(18, 60, "have dinner"),
        item(23, 420, "go to bed and sleep"),
    ]
    items, mind = plan_with(drafted, store)

    assert_contiguous_day(items)
    assert len(items) == 8
    assert items[0].start == at(6)
    texts = " | ".join(i.description for i in items)
    for kept in ("walk to the cafe", "restock the counter", "go to bed and sleep"):
        assert kept in texts  # merging joins descriptions, never loses one
    assert all(i.location for i in items)
    assert "Fernbrook: Juniper Cafe: counter: coffee machine" in {i.location for i in items}
    asked = {call["action"] for call in mind.inputs("choose_location")}
    assert len(asked) == 8  # every item, the model's place being where its descent starts
    assert all(i.location in KnownMap(KNOWN_PLACES) for i in items)


def test_the_outlines_place_is_kept_unless_the_item_plainly_belongs_elsewhere(
    store: RecordingStore,
) -> None:
    flat = "Fernbrook: Rosa's flat"
    drafted = [
        item(6, 60, "wake up and think about the day", flat),
        item(7, 60, "brew coffee for the first customers", flat),  # the outline's fallback
        item(8, 60, "daydream", "Fernbrook: River Park"),
        item(9, 60, "ponder"),
        item(10, 1200, "go to bed and sleep", flat),
    ]
    items, _ = plan_with(drafted, store)
    assert [i.location for i in items] == [
        "Fernbrook: Rosa's flat: bedroom: bed",  # her home is her bedroom
        "Fernbrook: Juniper Cafe: counter: coffee machine",
        "Fernbrook: River Park: bench",
        "Fernbrook: River Park: bench",  # where the item before left her
        "Fernbrook: Rosa's flat: bedroom: bed",
    ]


def test_too_few_items_are_split_to_five_covering_the_day(store: RecordingStore) -> None:
    items, _ = plan_with([item(7, 60, "wake up"), item(9, 600, "paint by the river")], store)
    assert_contiguous_day(items)
    assert len(items) == 5
    assert items[0].start == at(7)


def test_items_outside_the_day_are_clamped_or_dropped(store: RecordingStore) -> None:
    drafted = [
        PlanItem(at(22, day=MIDNIGHT - DAY), 600, "sleep in"),  # starts the evening before
        item(10, 60, "open the shop"),
        PlanItem(at(12, day=MIDNIGHT + DAY), 60, "tomorrow's errand"),  # after the day's end
        item(12, 60, "lunch"),
        item(14, 60, "work"),
        item(20, 60, "read"),
    ]
    items, _ = plan_with(drafted, store)
    assert_contiguous_day(items)
    assert items[0].start == MIDNIGHT
    assert all("tomorrow" not in i.description for i in items)


def test_an_empty_outline_is_invalid_output() -> None:
    with pytest.raises(InvalidOutput):
        repair_day_plan([item(8, 60, " ")], now=NOW)


def test_the_outline_is_mirrored_as_one_plan_memory(store: RecordingStore) -> None:
    plan_with([item(7, 60, "wake up"), item(9, 600, "paint by the river")], store)
    (memory,) = store.recent(5, kinds={MemoryKind.PLAN})
    assert memory.description.startswith(
        "This is Rosa Delgado's plan for Tuesday February 13: 1) wake up at 7:00 am, 2) "
    )
    assert memory.created_at == NOW


def test_a_long_plan_memory_names_each_item_by_what_it_does_first() -> None:
    from cognition.planning import PLAN_MEMORY_CHARS, plan_memory

    busy = "have a coffee at Yamabuki Tea House; then sweep the precinct of Hachiman Shrine"
    items = [item(hour, 60, f"{busy} ({hour})") for hour in range(6, 14)]
    memory = plan_memory(items, name="Hideo Kuroda", now=NOW)
    assert len(memory.description) <= PLAN_MEMORY_CHARS
    assert "1) have a coffee at Yamabuki Tea House at 6:00 am, 2) " in memory.description
    short = plan_memory(items[:2], name="Hideo Kuroda", now=NOW)  # short enough: whole
    assert "; then sweep the precinct" in short.description


def test_the_offline_mind_plans_a_valid_day(store: RecordingStore) -> None:
    items = plan_day(
        store,
        OfflineMind(),
        persona=ROSA,
        summary="",
        previous_day="",
        directives=["invite Maria to the Valentine's party at 5pm"],
        now=NOW,
        known_places=KNOWN_PLACES,
    )
    assert_contiguous_day(items)
    assert any("Valentine" in i.description for i in items)


def test_an_outline_made_before_wake_up_starts_with_the_rest_of_the_night() -> None:
    outline = repair_day_plan(
        [
            item(10, 360, "wake up and write", "flat"),
            item(16, 600, "go out"),
            PlanItem(at(2, day=MIDNIGHT + DAY), 480, "sleep"),
        ],
        now=at(7),
    )
    laid = lay_outline(outline, now=at(7, 0) + timedelta(seconds=20))
    assert (laid[0].start, laid[0].duration_min, laid[0].description) == (at(7), 180, ASLEEP)
    assert laid[0].location == "flat"  # where the agent wakes up
    assert laid[1:] == outline
    assert all(a.end == b.start for a, b in pairwise(laid))  # a current item from now on
    assert lay_outline(outline, now=at(10)) == outline  # made at wake-up or later: as it is
    breakfast = [item(8, 60, "wake up and have breakfast", "Brigg House: kitchen: kitchen table")]
    night = lay_outline(breakfast, now=at(7))[0]
    assert (night.description, night.location) == (ASLEEP, "Brigg House")  # not at the table


def test_an_outline_is_laid_around_a_reaction_made_before_it() -> None:
    outline = repair_day_plan([item(6, 120, "wake up"), item(8, 600, "work")], now=at(7))
    hello = PlanItem(at(7, 10), 15, "say hello to Tomas")
    laid = lay_outline(outline, now=at(7, 20), planned=[hello])
    assert not any(i.start < hello.end and i.end > hello.start for i in laid)
    plan = sorted([*laid, hello], key=lambda i: i.start)
    assert [(i.start, i.description) for i in plan[:4]] == [
        (at(6), "wake up"),
        (at(7, 10), "say hello to Tomas"),
        (at(7, 25), "wake up"),
        (at(8), "work"),
    ]
    assert all(a.end == b.start for a, b in pairwise(plan))


def test_hour_chunks_from_the_offline_mind_cover_the_item() -> None:
    parent = PlanItem(
        at(7, 50), 250, "work at the counter of Juniper Cafe", "Fernbrook: Juniper Cafe"
    )
    chunks = decompose_hours(OfflineMind(), parent, persona=ROSA, summary="")
    assert_tiles(parent, chunks, 1, 60)
    assert all(c.location == parent.location for c in chunks)


def test_an_item_doing_two_things_in_turn_spends_hours_on_each_where_each_is_done() -> None:
    """Held out: "have soup at The Copper Kettle; then do the flowers at St. Aldhelm's Church"
    kept its agent four hours at the café, away from everyone at the church."""
    parent = PlanItem(
        at(13),
        240,
        in_turn("have coffee at Juniper Cafe", "read at the Brookside College library"),
        "Fernbrook: Brookside College: library: desk",  # where most of it is spent
    )
    chunks = decompose_hours(
        OfflineMind(), parent, persona=ROSA, summary="", known_places=KNOWN_PLACES
    )
    assert_tiles(parent, chunks, 1, 60)
    said = [(c.description, c.location.split(": ")[1] if c.location else "") for c in chunks]
    assert said == [
        ("have coffee at Juniper Cafe", "Juniper Cafe"),
        *[("read at the Brookside College library", "Brookside College")] * 3,
    ]
    whole = decompose_hours(OfflineMind(), parent, persona=ROSA, summary="")  # no places known
    assert {c.location for c in whole} == {parent.location}


def test_bad_hour_chunks_are_laid_out_again() -> None:
    parent = PlanItem(at(9), 150, "bake for the party", "Fernbrook: Juniper Cafe: kitchen: oven")
    broken = [PlanItem(at(11), 200, "bake"), PlanItem(at(8), 5, ""), PlanItem(at(9), 90, "ice")]
    mind = ScriptedMind({"decompose": [broken]})
    chunks = decompose_hours(mind, parent, persona=ROSA, summary="")
    assert_tiles(parent, chunks, 15, 60)
    assert chunks[0].description == "bake"


def test_tasks_from_the_offline_mind_are_5_to_15_minutes_located_and_illustrated() -> None:
    parent = PlanItem(at(8), 60, "bake croissants", "Fernbrook: Juniper Cafe: kitchen: oven")
    tasks = decompose_tasks(
        OfflineMind(), parent, persona=ROSA, summary="", known_places=KNOWN_PLACES
    )
    assert_tiles(parent, tasks, 5, 15)
    assert all(t.location in KNOWN_PLACES for t in tasks)
    assert all(t.emoji for t in tasks)


def test_each_task_asks_for_place_emoji_and_the_state_of_its_object() -> None:
    parent = PlanItem(at(8), 30, "make coffee", "Fernbrook: Juniper Cafe: counter")
    steps = [PlanItem(at(8), 10, "grind beans"), PlanItem(at(8, 10), 20, "brew")]  # 20 > 15
    mind = ScriptedMind(
        {
            "decompose": [steps],
            "choose_location": lambda **kw: next(
                (o.name for o in kw["options"] if o.name in kw["current"]), ""
            ),
            "emoji": lambda **kw: "☕",
            "object_state": lambda **kw: f"used to {kw['action']}",
        }
    )
    tasks = decompose_tasks(mind, parent, persona=ROSA, summary="", known_places=KNOWN_PLACES)

    assert_tiles(parent, tasks, 5, 15)
    levels = [call["within"] for call in mind.inputs("choose_location")]
    assert levels == ["Fernbrook", "Fernbrook: Juniper Cafe"] * len(tasks)  # one call a level
    assert {t.location for t in tasks} == {"Fernbrook: Juniper Cafe: counter: coffee machine"}
    assert {call["obj"] for call in mind.inputs("object_state")} == {"coffee machine"}
    assert tasks[0].object_state == "used to grind beans"
    assert mind.count("emoji") == len(tasks)


@settings(max_examples=150, deadline=None)
@given(
    total=st.integers(min_value=5, max_value=60),
    lengths=st.lists(st.integers(min_value=-5, max_value=90), max_size=12),
)
def test_any_task_list_is_repaired_to_tile_the_chunk(total: int, lengths: list[int]) -> None:
    parent = PlanItem(at(10), total, "tidy the studio", "Fernbrook: Ivo's studio: easel")
    steps, cursor = [], parent.start
    for n, length in enumerate(lengths):
        steps.append(PlanItem(cursor, length, f"step {n}"))
        cursor += timedelta(minutes=max(length, 0))
    mind = ScriptedMind({"decompose": [steps]})
    tasks = decompose_tasks(mind, parent, persona=ROSA, summary="", known_places=())
    assert_tiles(parent, tasks, 5, 15)
    assert all(t.location == parent.location for t in tasks)


def test_a_chunk_shorter_than_five_minutes_is_one_task() -> None:
    parent = PlanItem(at(10), 3, "wave goodbye")
    tasks = decompose_tasks(OfflineMind(), parent, persona=ROSA, summary="", known_places=())
    assert [(t.start, t.duration_min) for t in tasks] == [(parent.start, 3)]


def test_previous_day_summary_numbers_what_was_lived_in_time_order() -> None:
    lived = [item(12, 60, "have lunch"), item(6, 60, "wake up and complete the morning routine")]
    assert previous_day_summary(lived) == (
        "1) wake up and complete the morning routine at 6:00 am, 2) have lunch at 12:00 pm"
    )
    assert previous_day_summary([]) == ""


def test_hour_chunks_are_requested_with_the_hour_granularity() -> None:
    mind = ScriptedMind()
    decompose_hours(mind, item(9, 120, "work"), persona=ROSA, summary="the summary")
    (call,) = mind.inputs("decompose")
    assert (call["granularity"], call["summary"]) == (Granularity.HOUR, "the summary")
