"""Worlds, their game clocks and their settings.

The world's settings (`{"weights": {...}, "reflection_threshold": n, "budget": {...},
"mind_focus": ...}`) override the global settings per world; `effective_weights`,
`reflection_threshold`, `model_budget` and `mind_focus` resolve the two in one place.

A running clock reads `game_time + rate × (wall now − anchor)`; a driven or paused clock reads
`game_time`. Every change first freezes the clock at its current reading, so changing rate,
mode or pause never makes game time jump. A running clock stops at the end of the span of game
time (`cognition.game_time`) instead of running past what the calendar arithmetic can hold.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from cognition import game_time
from cognition.budget import Budget
from cognition.focus import DEFAULT_MIND_FOCUS, MindFocus
from cognition.types import RetrievalWeights
from db.models import World
from db.models.world import DEFAULT_CLOCK_RATE
from db.settings import Settings


def wall_now() -> datetime:
    return datetime.now(UTC)


def game_now(world: World, *, at: datetime | None = None) -> datetime:
    """The world's game time at wall time `at` (now by default)."""
    if world.clock_mode == "driven" or world.paused:
        return world.game_time
    elapsed = ((at or wall_now()) - world.clock_anchor).total_seconds()
    return game_time.advanced(world.game_time, max(0.0, elapsed) * world.clock_rate)


def create_world(
    session: Session,
    *,
    name: str,
    start: datetime,
    mode: str = "driven",
    rate: float = DEFAULT_CLOCK_RATE,
    settings: dict[str, Any] | None = None,
) -> World:
    world = World(
        id=uuid.uuid4(),
        name=name,
        clock_mode=mode,
        clock_rate=rate,
        game_time=start,
        clock_anchor=wall_now(),
        paused=False,
        settings=settings or {},
    )
    session.add(world)
    session.flush()
    return world


def get_world(session: Session, world_id: uuid.UUID) -> World | None:
    return session.get(World, world_id)


def list_worlds(
    session: Session, *, after: tuple[datetime, uuid.UUID] | None, limit: int
) -> list[World]:
    """A page in creation order; `after` is the (created_at, id) of the previous page's last."""
    query = sa.select(World)
    if after is not None:
        query = query.where(sa.tuple_(World.created_at, World.id) > sa.tuple_(*after))
    return list(session.scalars(query.order_by(World.created_at, World.id).limit(limit)))


def _freeze(world: World) -> None:
    now = wall_now()
    world.game_time = game_now(world, at=now)
    world.clock_anchor = now


def set_clock(session: Session, world: World, *, to: datetime) -> None:
    """Jump the clock to a game time (games that drive the clock call this every step)."""
    _freeze(world)
    world.game_time = to
    session.flush()


def advance_clock(session: Session, world: World, *, minutes: float) -> None:
    """Move the clock on; it stops at the end of the span (the edge refuses to pass it)."""
    _freeze(world)
    world.game_time = game_time.advanced(world.game_time, minutes * 60)
    session.flush()


def configure_clock(
    session: Session,
    world: World,
    *,
    mode: str | None = None,
    rate: float | None = None,
    paused: bool | None = None,
) -> None:
    """Change how the clock runs; pausing stops every schedule that reads it."""
    _freeze(world)
    if mode is not None:
        world.clock_mode = mode
    if rate is not None:
        world.clock_rate = rate
    if paused is not None:
        world.paused = paused
    session.flush()


def effective_weights(world: World, settings: Settings) -> RetrievalWeights:
    """The world's retrieval weights, each falling back to the HEARTH_WEIGHT_* setting."""
    stored = (world.settings or {}).get("weights") or {}
    return RetrievalWeights(
        recency=float(stored.get("recency", settings.weight_recency)),
        importance=float(stored.get("importance", settings.weight_importance)),
        relevance=float(stored.get("relevance", settings.weight_relevance)),
    )


def reflection_threshold(world: World, settings: Settings) -> int:
    """The importance sum that triggers the world's reflections (HEARTH_REFLECTION_THRESHOLD)."""
    stored = (world.settings or {}).get("reflection_threshold")
    return int(stored) if stored is not None else settings.reflection_threshold


def model_budget(world: World, settings: Settings) -> Budget:
    """The world's model budget: its own when it set one (`{}`: none at all), else
    HEARTH_MODEL_BUDGET (unset: no limit)."""
    stored = (world.settings or {}).get("budget")
    if stored is None:
        stored = settings.model_budget or {}
    return Budget.from_json(stored)


def mind_focus(world: World) -> MindFocus:
    """Which of the world's agents think with the model (`cognition.focus`): all, or only those
    in focus; a world that set none keeps the default (all)."""
    stored = (world.settings or {}).get("mind_focus")
    return MindFocus(stored) if stored is not None else DEFAULT_MIND_FOCUS
