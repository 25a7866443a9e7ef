"""What the demo's game reports each agent perceives: everyone in the same area, and the objects
they use only from inside the object's room (a neighbour's stove two apartments away was
stored, as the same "stove is cooking", once per apartment in sight)."""

from __future__ import annotations

from typing import Any, cast

from hearth_client.demo.drive import perceptions
from hearth_client.game_types import Action, AgentNow
from hearth_client.types import Agent


def _agent(name: str, place: str) -> Agent:
    return cast(Agent, {"id": name, "name": name, "place": place})


def _doing(name: str, description: str, location: str, state: str | None) -> AgentNow:
    action: dict[str, Any] = {
        "description": description,
        "location": location,
        "object_state": state,
    }
    return {"agent_id": name, "action": cast(Action, action), "utterance": None, "stored": 0}


def test_objects_are_seen_from_their_room_and_people_across_the_area() -> None:
    building = "Riverside Apartments"
    lucia = _agent("Lucia", f"{building}: apartment 4: kitchen")
    tomas = _agent("Tomas", f"{building}: apartment 2: kitchen")
    ruth = _agent("Ruth", f"{building}: apartment 4: kitchen")
    now = {
        "Lucia": _doing(
            "Lucia", "cooking dinner", f"{building}: apartment 4: kitchen: stove", "cooking"
        ),
        "Tomas": _doing(
            "Tomas", "cooking dinner", f"{building}: apartment 2: kitchen: stove", "cooking"
        ),
        "Ruth": _doing("Ruth", "setting the table", f"{building}: apartment 4: kitchen", None),
    }
    seen = perceptions(ruth, now, [lucia, tomas, ruth])
    assert {"kind": "agent", "subject": "Tomas", "state": "cooking dinner"} in seen
    assert {"kind": "agent", "subject": "Lucia", "state": "cooking dinner"} in seen
    objects = [p["subject"] for p in seen if p["kind"] == "object"]
    assert objects == [f"{building}: apartment 4: kitchen: stove"]
