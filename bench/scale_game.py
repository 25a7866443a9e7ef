"""The game side of `bench.scale`: where each agent is and what it sees, from the actions the
last step answered — what a game engine would compute from its own positions.

An agent stands at its current action's location (else where it was), at that area's grid
coordinates plus a small offset per room. It perceives up to ATTENTION_BANDWIDTH things in its
area, nearest first (the same room before the rest of the area, then by distance, then by
name): the other agents doing what their actions say, and the objects they use in a state.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

ATTENTION_BANDWIDTH = 3
"""Things an agent attends to per step: the reference implementation's `att_bandwidth`."""
ROOM_OFFSET_M = 6


@dataclass(frozen=True)
class Resident:
    agent_id: str
    name: str
    home: str


@dataclass(frozen=True)
class Spot:
    """Where one agent is this step, and what someone seeing it there perceives."""

    resident: Resident
    place: str
    x: float
    y: float
    doing: str | None
    object_path: str | None
    object_state: str | None


def area(place: str) -> str:
    return place.split(":")[0].strip()


def room(place: str) -> str:
    parts = [p.strip() for p in place.split(":")]
    return ": ".join(parts[:2])


def spots(
    residents: Sequence[Resident],
    actions: Mapping[str, Any],
    coordinates: Mapping[str, tuple[int, int]],
    last_place: dict[str, str],
) -> list[Spot]:
    """Each resident's spot from its action (`actions[agent_id]`, the step's `action` field)."""
    found = []
    for resident in residents:
        action = actions.get(resident.agent_id)
        location = action.get("location") if action else None
        place = location if location and area(location) in coordinates else None
        place = place or last_place.get(resident.agent_id) or f"{resident.home}: bedroom"
        last_place[resident.agent_id] = place
        x, y = coordinates.get(area(place), (0, 0))
        offset = (sum(map(ord, room(place))) % 7) * ROOM_OFFSET_M
        uses = action is not None and bool(action.get("object_state")) and place.count(":") >= 2
        found.append(
            Spot(
                resident=resident,
                place=place,
                x=x + offset,
                y=y + offset / 2,
                doing=action.get("description") if action else None,
                object_path=place if uses else None,
                object_state=action.get("object_state") if uses and action else None,
            )
        )
    return found


def step_body(all_spots: Sequence[Spot]) -> list[dict[str, Any]]:
    """The step request's agents: position, place and up to three perceptions each."""
    by_area: dict[str, list[Spot]] = defaultdict(list)
    for spot in all_spots:
        by_area[area(spot.place)].append(spot)
    body = []
    for me in all_spots:
        seen = _perceived(me, by_area[area(me.place)])
        body.append(
            {
                "agent_id": me.resident.agent_id,
                "place": me.place,
                "position": {"x": round(me.x, 1), "y": round(me.y, 1)},
                "perceived": seen,
            }
        )
    return body


def _perceived(me: Spot, here: Sequence[Spot]) -> list[dict[str, str]]:
    near: list[tuple[int, float, str, dict[str, str]]] = []
    mine = room(me.place)
    for other in here:
        if other is me or other.doing is None:
            continue
        same_room = 0 if room(other.place) == mine else 1
        distance = abs(other.x - me.x) + abs(other.y - me.y)
        seen = {"kind": "agent", "subject": other.resident.name, "state": other.doing}
        near.append((same_room, distance, other.resident.name, seen))
        if other.object_path and other.object_state:
            near.append(
                (
                    same_room,
                    distance,
                    other.object_path,
                    {"kind": "object", "subject": other.object_path, "state": other.object_state},
                )
            )
    near.sort(key=lambda n: (n[0], n[1], n[2]))
    chosen: list[dict[str, str]] = []
    for *_, event in near:
        if event not in chosen:
            chosen.append(event)
        if len(chosen) == ATTENTION_BANDWIDTH:
            break
    return chosen
