"""One short demo town for the whole test session: the real stack (`bench.audit.audited_town`:
API, workers and beat launched in a temporary HEARTH_HOME on a free port), six characters
driven for two game hours, then audited and reported on while it still serves. The audit's
targets (tests/bench) and the demo report (tests/clients) are both checked against it."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hearth_client.demo.drive import DemoConfig, TownRun
from hearth_client.demo.report import TownStory, town_story
from hearth_client.demo.story import render
from hearth_client.types import Event

from bench.audit import Audit, audited_town, measure

SHORT_TOWN = DemoConfig(hours=2, agents=6, world_name="Larkspur test")
"""Junie and Tomas open The Copper Kettle, Noor and Felix share a dormitory: people meet and
talk within the first game hour."""


@dataclass(frozen=True)
class ShortTown:
    run: TownRun
    audit: Audit
    story: TownStory
    report: str
    events: list[Event]
    """Every event of the town's stream, read at the end of the run."""


@pytest.fixture(scope="session")
def short_town() -> ShortTown:
    with audited_town(SHORT_TOWN, quiet=True) as town:
        audit = measure(town)
        story = town_story(town.client, town.run)
        events = list(town.client.events(town.run.world_id, once=True))
    return ShortTown(town.run, audit, story, render(story), events)
