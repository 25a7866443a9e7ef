"""A whole day for every persona through the offline mind alone, as a town with no model runs."""

from __future__ import annotations

from datetime import timedelta

import pytest

from cognition.locating import locate
from cognition.mind import ListAudit
from cognition.offline import OfflineMind
from cognition.places import KnownMap
from cognition.requests import Decompose, Emoji, ObjectState, PlanDay
from cognition.types import Granularity, Persona

from .personas import KNOWN_PLACES, NOW, PERSONAS, ROSA


@pytest.mark.parametrize("persona", PERSONAS, ids=lambda p: p.name)
def test_a_day_decomposes_into_located_actions_covering_24_hours(persona: Persona) -> None:
    audit = ListAudit()
    mind = OfflineMind(audit)
    directives = ["invite everyone to the Valentine's party at 5pm"] if persona is ROSA else []
    day = mind.think(
        PlanDay(persona=persona, summary="", previous_day="", directives=directives, now=NOW)
    )
    actions = []
    for item in day:
        for hour in mind.think(
            Decompose(item=item, granularity=Granularity.HOUR, persona=persona, summary="")
        ):
            actions += mind.think(
                Decompose(item=hour, granularity=Granularity.TASK, persona=persona, summary="")
            )
    assert actions[0].start == day[0].start
    assert actions[-1].start + timedelta(minutes=actions[-1].duration_min) == day[0].start + (
        timedelta(days=1)
    )
    assert all(5 <= a.duration_min <= 15 for a in actions)
    town = KnownMap(KNOWN_PLACES)
    for action in actions[:: len(actions) // 10]:
        place = locate(
            mind,
            action=action.description,
            places=town,
            at=action.start,
            here=persona.living_area,
            home=persona.living_area,
        )
        assert place in town.paths()
        mind.think(ObjectState(action.description, place))
        assert mind.think(Emoji(action.description))
    assert {c.operation for c in audit.calls} >= {
        "plan_day",
        "decompose",
        "choose_location",
        "object_state",
        "emoji",
    }
    if persona is ROSA:
        assert any("Valentine's party" in a.description for a in actions)
