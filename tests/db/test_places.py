"""What an agent knows of the map for choosing where to act: norms, and how many others'
current actions are located in each place with a capacity (one set-based query)."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy.orm import Session

from cognition.places import flatten_map
from cognition.types import PlanItem, PlanLevel
from db.queries.places import apply_map, known_places, learn_places, world_places
from db.queries.plans import save_items
from tests.factories import GAME_START, make_agent, make_world

MAP = [
    {
        "name": "Cafe",
        "norms": {"capacity": 3, "opening_hours": "08:00-20:00"},
        "children": [{"name": "counter"}, {"name": "kitchen"}],
    },
    {"name": "Home", "children": [{"name": "bathroom", "norms": {"capacity": 1}}]},
]


def test_known_places_carry_norms_and_the_others_present(session: Session) -> None:
    world = make_world(session)
    me, *others = [make_agent(session, world, name=n) for n in ("Me", "Ann", "Bo", "Cy", "Di")]
    apply_map(session, world_id=world.id, specs=flatten_map(MAP))
    learn_places(session, agent_ids=[me.id], places=world_places(session, world.id), at=GAME_START)
    where = ["Cafe: counter", "Cafe", "Home: bathroom", None]
    for agent, location in zip(others, where, strict=True):
        item = PlanItem(GAME_START, 60, "be somewhere", location)
        save_items(session, agent_id=agent.id, level=PlanLevel.DAY, items=[item])
    mine = PlanItem(GAME_START, 60, "wait in the cafe", "Cafe: kitchen")
    save_items(session, agent_id=me.id, level=PlanLevel.DAY, items=[mine])
    ended = PlanItem(GAME_START - timedelta(hours=1), 30, "left the cafe", "Cafe")
    save_items(session, agent_id=others[3].id, level=PlanLevel.DAY, items=[ended])

    known = {
        p.path: p
        for p in known_places(
            session, agent_id=me.id, world_id=world.id, at=GAME_START + timedelta(minutes=5)
        )
    }
    assert list(known) == ["Cafe", "Home", "Cafe: counter", "Cafe: kitchen", "Home: bathroom"]
    assert (known["Cafe"].occupancy, known["Cafe"].norms.capacity) == (2, 3)  # not me, not Di
    assert known["Cafe"].norms.opening_hours() == "08:00-20:00"
    assert known["Home: bathroom"].occupancy == 1
    assert known["Cafe: counter"].occupancy == 0  # no capacity: not counted
