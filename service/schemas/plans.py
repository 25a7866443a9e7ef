"""The plan tree as the game reads it."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, Field

from service.schemas.common import GameTimeRead

PlanStatus = Literal["planned", "active", "done", "superseded"]


class PlanNodeRead(BaseModel):
    id: int
    level: Literal["day", "hour", "task"]
    start: GameTimeRead
    duration_min: int
    location: str | None
    description: str
    emoji: str | None
    object_state: str | None = Field(description="state the action puts its object in")
    status: PlanStatus = Field(description="superseded is stored; the rest follow the clock")
    superseded_by: int | None
    stand_in: bool = Field(
        description="the offline mind's plan, acting while the model plans; the model's plan "
        "supersedes what of it was not lived"
    )
    children: list[PlanNodeRead]


class PlanDay(BaseModel):
    day: date
    now: GameTimeRead = Field(description="the world's game time the statuses were read at")
    current_action: PlanNodeRead | None = Field(
        description="the active leaf at `now` (a task when decomposed that far)"
    )
    items: list[PlanNodeRead]
