"""Worlds, their clocks, settings and keys."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from db.models.world import DEFAULT_CLOCK_RATE
from service.schemas.common import (
    Flag,
    GameTime,
    GameTimeRead,
    Integer,
    Name,
    Number,
    RequestModel,
)

MAX_RATE = 86_400.0
"""A day of game time per real second is already far beyond any simulation we serve."""
MAX_ADVANCE_MINUTES = 7 * 24 * 60
MAX_BUDGET_CALLS = 1_000_000_000
MAX_BUDGET_USD = 1_000_000.0


class ClockSpec(RequestModel):
    mode: Literal["driven", "running"] = Field(
        "driven", description="driven: the game sets the time; running: it advances at `rate`"
    )
    rate: Number = Field(
        DEFAULT_CLOCK_RATE, gt=0, le=MAX_RATE, description="game seconds per real second"
    )
    start: GameTime | None = Field(None, description="game time to start at; default: now (UTC)")


class Weights(RequestModel):
    """The α weights of the retrieval score (the paper uses 1, 1, 1)."""

    recency: Number = Field(1.0, ge=0, le=100)
    importance: Number = Field(1.0, ge=0, le=100)
    relevance: Number = Field(1.0, ge=0, le=100)


class BudgetLimits(RequestModel):
    """The most one window may spend; a limit left out is no limit."""

    calls: Integer | None = Field(
        None,
        ge=0,
        le=MAX_BUDGET_CALLS,
        description="calls to the model: an ask or its one re-ask (the retries of a failed "
        "request belong to it); counted before the call, so never exceeded",
    )
    cost_usd: Number | None = Field(
        None,
        ge=0,
        le=MAX_BUDGET_USD,
        description="cost by HEARTH_LLM_PRICES; a call starts while the spend is below it, so "
        "the calls in flight when it is reached may pass it by their own cost",
    )


class ModelBudget(RequestModel):
    """What the world's minds may spend on the model; past a limit the offline mind answers
    until the window resets (`GET …/usage` shows the spend)."""

    per_game_day: BudgetLimits | None = Field(
        None,
        description="from midnight to midnight of the world's calendar; a window never goes "
        "back and opens at least an hour of wall time after the previous one, so moving the "
        "clock cannot reset it",
    )
    per_wall_hour: BudgetLimits | None = Field(None, description="a wall-clock hour (UTC)")


MAX_ORIGINS = 32
ORIGIN = r"^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?$"
Origin = Annotated[str, StringConstraints(max_length=200, pattern=ORIGIN)]
"""A web origin as a browser sends it: scheme, host and port, no path."""


class WorldSettings(RequestModel):
    weights: Weights | None = Field(None, description="default: HEARTH_WEIGHT_*")
    reflection_threshold: Integer | None = Field(
        None, ge=1, le=100_000, description="default: HEARTH_REFLECTION_THRESHOLD (150)"
    )
    budget: ModelBudget | None = Field(
        None, description="default: HEARTH_MODEL_BUDGET (unset: no limit); `{}`: no limit"
    )
    mind_focus: Literal["all", "focused"] | None = Field(
        None,
        description="which agents think with the model: `all` (the default), or only those the "
        "game marks `in_focus` (in a step or on the agent), the rest with the offline mind; the "
        "budget still bounds the focused ones",
    )
    cors_origins: list[Origin] | None = Field(
        None,
        max_length=MAX_ORIGINS,
        description="web origins whose pages may call this world's routes from a browser "
        '(CORS), e.g. ["https://game.example.com", "http://localhost:5173"]; default: none',
    )


class WorldCreate(RequestModel):
    name: Name
    clock: ClockSpec = ClockSpec()
    settings: WorldSettings = WorldSettings()


class WorldUpdate(RequestModel):
    """Rename a world or change its settings (admin). Each setting given replaces the world's;
    a setting given as null goes back to the server's default; one left out is kept."""

    name: Name | None = None
    settings: WorldSettings | None = None


class ExportedWorld(BaseModel):
    """The world of an export file's header, held to the rules the API holds its own writes to
    (`POST /v1/worlds/import`); columns not named here are checked by their column's type."""

    model_config = ConfigDict(extra="ignore")

    name: Name
    clock_mode: Literal["driven", "running"]
    clock_rate: Number = Field(gt=0, le=MAX_RATE)
    game_time: GameTime
    paused: Flag = False
    settings: WorldSettings = WorldSettings()


class ClockRead(BaseModel):
    mode: str
    rate: float
    now: GameTimeRead = Field(description="the world's current game time")
    paused: bool


class WorldRead(BaseModel):
    id: uuid.UUID
    name: str
    clock: ClockRead
    settings: WorldSettings
    created_at: datetime


class WorldCreated(WorldRead):
    api_key: str = Field(description="the world's key; shown only in this answer")


class ClockUpdate(RequestModel):
    """Drive or reconfigure the clock; `set` and `advance_minutes` exclude each other.

    The clock only moves forward unless `rewind` is true; it never leaves the span of game time
    (`cognition.game_time`): an advance past its end is a 422."""

    set: GameTime | None = Field(
        None, description="jump to this game time; an earlier one than now needs `rewind`"
    )
    rewind: Flag = Field(
        False, description="allow `set` to move the clock back (a reset); otherwise a 409"
    )
    advance_minutes: Number | None = Field(None, gt=0, le=MAX_ADVANCE_MINUTES)
    paused: Flag | None = None
    mode: Literal["driven", "running"] | None = None
    rate: Number | None = Field(None, gt=0, le=MAX_RATE)

    @model_validator(mode="after")
    def _one_move(self) -> ClockUpdate:
        if self.set is not None and self.advance_minutes is not None:
            raise ValueError("give either `set` or `advance_minutes`, not both")
        return self


class KeyRead(BaseModel):
    id: uuid.UUID
    prefix: str
    created_at: datetime
    revoked_at: datetime | None


class KeyCreated(KeyRead):
    api_key: str = Field(description="shown only in this answer")
