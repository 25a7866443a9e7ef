"""The JSON shapes of the API as TypedDicts: what you send and what you get back.

Times are ISO-8601 strings as the server sends them (game times carry no offset). The shapes
of memories, retrieval, steps, plans and usage live in `game_types` and are re-exported here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, NotRequired, TypedDict

from hearth_client.event_types import *  # noqa: F403
from hearth_client.event_types import EventPayload, EventType
from hearth_client.game_types import *  # noqa: F403  (every shape importable from here)
from hearth_client.game_types import Weights

# --- worlds, clocks, keys ---------------------------------------------------------------


class Clock(TypedDict):
    mode: Literal["driven", "running"]
    rate: float
    now: str
    paused: bool


class ClockSpec(TypedDict, total=False):
    mode: Literal["driven", "running"]
    rate: float
    start: str


class BudgetLimits(TypedDict, total=False):
    """The most one window may spend (a limit left out is none)."""

    calls: int | None
    cost_usd: float | None


class ModelBudget(TypedDict, total=False):
    """Past a limit the offline mind answers until the window resets."""

    per_game_day: BudgetLimits | None
    per_wall_hour: BudgetLimits | None


class WorldSettings(TypedDict, total=False):
    weights: Weights | None
    reflection_threshold: int | None
    budget: ModelBudget | None
    mind_focus: Literal["all", "focused"] | None


class WorldChanges(TypedDict, total=False):
    """`PATCH` a world (admin): a setting given replaces the world's, null restores the
    server's default, one left out is kept."""

    name: str
    settings: WorldSettings


class World(TypedDict):
    id: str
    name: str
    clock: Clock
    settings: WorldSettings
    created_at: str


class WorldCreated(World):
    api_key: str


class Key(TypedDict):
    id: str
    prefix: str
    created_at: str
    revoked_at: str | None


class KeyCreated(Key):
    api_key: str


# --- agents and persona packs -----------------------------------------------------------


class PersonaFields(TypedDict, total=False):
    age: int | None
    innate: str
    background: str
    currently: str
    lifestyle: str
    living_area: str
    daily_plan_requirement: str
    speaking_style: str
    start_place: str
    known_places: list[str]


class AgentSpec(PersonaFields):
    """What `create_agent` takes: `name` plus any persona fields."""

    name: str


class AgentChanges(PersonaFields, total=False):
    """What `update_agent` takes: only what is given changes; known places are added."""

    name: str


class Agent(TypedDict):
    id: str
    world_id: str
    name: str
    age: int | None
    innate: str
    background: str
    currently: str
    lifestyle: str
    living_area: str
    daily_plan_requirement: str
    speaking_style: str
    place: str | None
    known_places: list[str]
    in_focus: bool
    summary: str | None
    summary_at: str | None
    created_at: str


class RelationshipSpec(TypedDict):
    other: str
    summary: NotRequired[str]
    sentiment: NotRequired[int]


class PersonaSpec(AgentSpec, total=False):
    relationships: list[RelationshipSpec]


class MapNode(TypedDict):
    name: str
    state: NotRequired[str]
    norms: NotRequired[dict[str, str | int | float | bool | None]]
    children: NotRequired[list[MapNode]]


class MapSpec(TypedDict):
    children: list[MapNode]
    name: NotRequired[str]


class PersonaPack(TypedDict):
    personas: list[PersonaSpec]
    map: NotRequired[MapSpec]


class MapSummary(TypedDict):
    places: int
    created: int
    updated: int
    removed: int


class ImportSummary(TypedDict):
    created: list[str]
    updated: list[str]
    unchanged: list[str]
    map: MapSummary | None


# --- places -------------------------------------------------------------------------------


class Place(TypedDict):
    name: str
    path: str
    state: str
    norms: dict[str, Any]
    children: list[Place]


class Map(TypedDict):
    name: str
    children: list[Place]


class KnownPlace(TypedDict):
    name: str
    path: str
    state: str | None
    seen_at: str | None
    children: list[KnownPlace]


class KnownMap(TypedDict):
    agent_id: str
    children: list[KnownPlace]


class Perceiver(TypedDict):
    agent_id: str
    name: str
    memory_id: int


class ObjectState(TypedDict):
    place: str
    state: str
    previous_state: str
    changed: bool
    perceived_by: list[Perceiver]


class Caller(TypedDict):
    scope: Literal["admin", "world"]
    world_id: str | None


class Health(TypedDict):
    status: Literal["ok"]
    instance: str | None


class Readiness(TypedDict):
    status: Literal["ready", "not_ready"]
    checks: dict[str, dict[str, Any]]


# --- events ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Event:
    """One Server-Sent Event: `id` resumes the stream, `type` says what happened (an
    `EventType`), `data` is its payload (`event_types.EVENT_TYPES[type]`)."""

    id: int
    type: EventType | str
    data: EventPayload | Any
