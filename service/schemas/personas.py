"""Persona packs: a map and many personas (with relationships) imported in one request."""

from __future__ import annotations

from pydantic import BaseModel, Field

from service.schemas.agents import AgentCreate
from service.schemas.common import Integer, Name, RequestModel, Text
from service.schemas.places import MapSpec, MapSummary

MAX_PACK_PERSONAS = 1000
MAX_RELATIONSHIPS = 200


class RelationshipSpec(RequestModel):
    other: Name = Field(description="name of another agent of the world (or of the pack)")
    summary: Text = Field("", description="how this agent sees the other")
    sentiment: Integer = Field(5, ge=0, le=10, description="0 hostile … 5 neutral … 10 devoted")


class PersonaSpec(AgentCreate):
    relationships: list[RelationshipSpec] = Field(
        default_factory=list, max_length=MAX_RELATIONSHIPS
    )


class PersonaPack(RequestModel):
    map: MapSpec | None = Field(None, description="applied first, as `PUT …/map` would")
    personas: list[PersonaSpec] = Field(max_length=MAX_PACK_PERSONAS)


class ImportSummary(BaseModel):
    """Names by outcome: importing the same pack twice lists everyone as unchanged."""

    created: list[str]
    updated: list[str]
    unchanged: list[str]
    map: MapSummary | None = Field(description="null when the pack has no map")
