"""Every shipped scenario loads, and what it measures can be measured: news of residents, each
item's pattern knows its own seed, each event at a place of the town, beginning within the run."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest

from bench.scenario import load

SHIPPED = sorted((Path(__file__).parents[2] / "bench" / "scenarios").glob("*.json"))


def test_the_shipped_scenarios_are_found() -> None:
    assert len(SHIPPED) >= 8, SHIPPED


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_a_shipped_scenario_is_measurable(path: Path) -> None:
    scenario = load(path)
    places = {area["name"] for area in scenario.pack["map"]["children"]}
    ends = scenario.start + timedelta(hours=scenario.hours)
    keys = [item.topic.key for item in scenario.news]
    assert len(keys) == len(set(keys)), keys
    for item in scenario.news:
        if item.seed is not None:
            assert re.search(item.topic.pattern, item.seed, re.I), item.topic.key
        assert not re.search(item.topic.pattern, "No, I haven't heard anything about that.", re.I)
        if item.gathering is not None:
            assert scenario.start <= item.gathering.start < min(item.gathering.end, ends)
            assert item.gathering.place in places, (item.topic.key, item.gathering.place)
