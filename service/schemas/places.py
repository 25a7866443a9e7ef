"""The map (the environment tree), object states, and what an agent knows of the map."""

from __future__ import annotations

import uuid
from typing import Annotated

from pydantic import BaseModel, Field, StringConstraints, model_validator

from service.schemas.common import (
    MAX_NAME,
    NO_NUL,
    Flag,
    FreeJson,
    GameTimeRead,
    RequestModel,
    Strip,
    Text,
    non_blank_pattern,
)

MAX_PATH = 2000
MAX_NORMS = 32
MAX_STATE = 200

PlaceName = Annotated[
    str,
    StringConstraints(min_length=1, max_length=MAX_NAME, pattern=non_blank_pattern(":")),
    Strip,
]
"""`:` separates path segments, so it cannot appear in a name."""
PlacePath = Annotated[
    str, StringConstraints(min_length=1, max_length=MAX_PATH, pattern=non_blank_pattern()), Strip
]
State = Annotated[
    str, StringConstraints(min_length=1, max_length=MAX_STATE, pattern=non_blank_pattern()), Strip
]
NormValue = str | int | float | bool | None


class PlaceNode(RequestModel):
    """A place and what is inside it: area → sub-area → … → object."""

    name: PlaceName
    state: Annotated[str, StringConstraints(max_length=MAX_STATE, pattern=NO_NUL)] | None = Field(
        None, description='e.g. "idle", "burning"; omitted: keep the live state (new: "idle")'
    )
    norms: Annotated[dict[str, NormValue], FreeJson] = Field(
        default_factory=dict,
        max_length=MAX_NORMS,
        description='e.g. {"capacity": 20, "opening_hours": "08:00-20:00"}',
    )
    children: list[PlaceNode] = Field(default_factory=list)


class MapSpec(RequestModel):
    """The world's root: its children are the areas. The root itself is not a place."""

    name: Annotated[str, StringConstraints(max_length=MAX_NAME, pattern=NO_NUL)] | None = Field(
        None, description="a label for the root; informational (default: the world's name)"
    )
    children: list[PlaceNode] = Field(default_factory=list)


class MapSummary(BaseModel):
    places: int = Field(description="places in the map now")
    created: int
    updated: int = Field(description="existing places whose state, norms or parent changed")
    removed: int = Field(description="places no longer in the map (with everything inside)")


class PlaceRead(BaseModel):
    name: str
    path: str
    state: str
    norms: dict[str, NormValue]
    children: list[PlaceRead]


class MapRead(BaseModel):
    name: str
    children: list[PlaceRead]


class KnownPlaceRead(BaseModel):
    name: str
    path: str
    state: str | None = Field(description="the state as this agent last saw it")
    seen_at: GameTimeRead | None = Field(
        description="game time the agent first saw it, or last saw its state change"
    )
    children: list[KnownPlaceRead]


class KnownMap(BaseModel):
    agent_id: uuid.UUID
    children: list[KnownPlaceRead]


class ObjectStateChange(RequestModel):
    """Either `place` + `state`, or the paper's `statement` "<path> is <state>"."""

    place: PlacePath | None = None
    state: State | None = None
    create_places: Flag = Field(
        False, description="create the place (with its ancestors) if the map lacks it"
    )
    statement: Text | None = Field(
        None, description='e.g. "<Fernwood apartment 2: kitchen: stove> is burning"'
    )

    @model_validator(mode="after")
    def _one_form(self) -> ObjectStateChange:
        pair = self.place is not None or self.state is not None
        if pair == (self.statement is not None):
            raise ValueError("give either `place` and `state`, or `statement`")
        if pair and (self.place is None or self.state is None):
            raise ValueError("`place` and `state` go together")
        return self


class Perceiver(BaseModel):
    agent_id: uuid.UUID
    name: str
    memory_id: int


class ObjectStateRead(BaseModel):
    place: str
    state: str
    previous_state: str
    changed: bool = Field(description="false when the place was already in that state")
    perceived_by: list[Perceiver] = Field(description="agents in the same area (see docs)")
