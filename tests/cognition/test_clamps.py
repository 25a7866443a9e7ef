"""The bounds model answers are forced into."""

from __future__ import annotations

from datetime import datetime, timedelta
from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from cognition.clamps import (
    STEP_BOUNDS,
    clamp_sentiment,
    lay_out_steps,
    order_day_plan,
    valid_citations,
)
from cognition.types import Granularity, PlanItem

START = datetime(2023, 2, 13, 9, 0)


def test_citations_in_range_once_each_in_order() -> None:
    assert valid_citations([3, 0, 1, 3, 9, 2], 3) == (3, 1, 2)


def test_sentiment_rounded_and_bounded() -> None:
    assert [clamp_sentiment(v) for v in (-1, 4.6, 10.4, 42)] == [0, 5, 10, 10]


def test_day_plan_durations_fill_gaps_to_the_next_item() -> None:
    plan = order_day_plan(
        [
            PlanItem(START + timedelta(hours=3), 0, "lunch"),
            PlanItem(START, -10, "work"),
        ]
    )
    assert [(p.description, p.duration_min) for p in plan] == [("work", 180), ("lunch", 60)]


def test_hour_decomposition_extends_the_last_chunk_before_repeating_the_parent() -> None:
    parent = PlanItem(START, 100, "study", location="library")
    steps = lay_out_steps(parent, [("read", 45)], Granularity.HOUR)
    assert [(s.description, s.duration_min) for s in steps] == [("read", 60), ("study", 40)]


@given(
    span=st.integers(min_value=1, max_value=240),
    minutes=st.lists(st.integers(min_value=-30, max_value=300), min_size=1, max_size=30),
    granularity=st.sampled_from(list(Granularity)),
)
def test_steps_tile_the_parent_span_exactly(
    span: int, minutes: list[int], granularity: Granularity
) -> None:
    parent = PlanItem(START, span, "parent")
    steps = lay_out_steps(parent, [(f"s{i}", m) for i, m in enumerate(minutes)], granularity)
    assert steps[0].start == START
    for before, after in pairwise(steps):
        assert after.start == before.end
    assert sum(s.duration_min for s in steps) == span
    _, high = STEP_BOUNDS[granularity]
    assert all(0 < s.duration_min <= high for s in steps)
