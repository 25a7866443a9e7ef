"""Agents: the paper's persona fields in, persona + summary + status out."""

from __future__ import annotations

import uuid
from datetime import datetime

from pydantic import Field

from service.schemas.common import Flag, GameTimeRead, Integer, Name, RequestModel, Text
from service.schemas.places import PlacePath

MAX_AGE = 200
MAX_KNOWN_PLACES = 1000

START_PLACE_DOC = (
    "place path the agent is in (must be in the world's map, or `create_places`); the agent "
    "knows it"
)
CREATE_PLACES_DOC = (
    "create the places this request names that the map lacks (with their ancestors, state "
    "idle) instead of answering 422"
)
IN_FOCUS_DOC = (
    "in focus (near the player, in a scene) from now on, until a step or an agent update "
    "changes it; in a world whose `settings.mind_focus` is `focused` only agents in focus think "
    "with the model, the rest with the offline mind (their memories, plans and conversations "
    "carry on either way)"
)
KNOWN_PLACES_DOC = (
    "place paths of the world's map the agent knows (each with its ancestors); "
    "on update these are added to what it knows"
)


class PersonaFields(RequestModel):
    innate: Text = Field("", description="innate traits, e.g. 'friendly, outgoing, hospitable'")
    background: Text = Field(
        "", description="learned traits and history; each `;`-separated phrase is a seed memory"
    )
    currently: Text = Field("", description="what the agent is up to these days")
    lifestyle: Text = Field("", description="e.g. 'goes to bed around 11pm, wakes up around 6am'")
    living_area: Text = Field(
        "", description="home place path (in the world's map, or `create_places`); empty: none"
    )
    daily_plan_requirement: Text = ""
    speaking_style: Text = ""


class AgentCreate(PersonaFields):
    name: Name
    age: Integer | None = Field(None, ge=0, le=MAX_AGE)
    start_place: PlacePath | None = Field(None, description=START_PLACE_DOC)
    known_places: list[PlacePath] = Field(
        default_factory=list, max_length=MAX_KNOWN_PLACES, description=KNOWN_PLACES_DOC
    )
    create_places: Flag = Field(False, description=CREATE_PLACES_DOC)


class AgentUpdate(RequestModel):
    """Every field optional: only what is sent changes."""

    name: Name | None = None
    age: Integer | None = Field(None, ge=0, le=MAX_AGE)
    innate: Text | None = None
    background: Text | None = None
    currently: Text | None = None
    lifestyle: Text | None = None
    living_area: Text | None = None
    daily_plan_requirement: Text | None = None
    speaking_style: Text | None = None
    start_place: PlacePath | None = Field(None, description="moves the agent there")
    known_places: list[PlacePath] | None = Field(
        None, max_length=MAX_KNOWN_PLACES, description=KNOWN_PLACES_DOC
    )
    create_places: Flag = Field(False, description=CREATE_PLACES_DOC)
    in_focus: Flag | None = Field(None, description=IN_FOCUS_DOC)


class AgentRead(PersonaFields):
    id: uuid.UUID
    world_id: uuid.UUID
    name: str
    age: int | None
    place: str | None = Field(None, description="current place path")
    known_places: list[str] = Field(
        default_factory=list, description="every place path the agent knows, sorted"
    )
    status: str | None = Field(
        None, description="what the agent is doing at the world's game time (its current action)"
    )
    in_focus: bool = Field(description="marked in focus by a step or an update (sticky)")
    summary: str | None = Field(None, description="cached summary description (the paper's)")
    summary_at: GameTimeRead | None = Field(None, description="game time of the summary")
    created_at: datetime
