"""Relationships: how an agent sees another agent or a player now, and how it saw them before."""

from __future__ import annotations

import uuid

from pydantic import BaseModel, Field

from service.schemas.common import GameTimeRead


class EarlierView(BaseModel):
    summary: str
    sentiment: int
    until: GameTimeRead = Field(description="game time this view was replaced")


class RelationshipRead(BaseModel):
    other_name: str
    other_agent_id: uuid.UUID | None = Field(description="null for a player or someone unknown")
    summary: str
    sentiment: int = Field(ge=0, le=10, description="0 hostile … 5 neutral … 10 devoted")
    updated_at: GameTimeRead = Field(description="game time of the current view")
    history: list[EarlierView] = Field(description="earlier views, oldest first")
