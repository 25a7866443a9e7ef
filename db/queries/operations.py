"""What an operator reads at scrape time: database size, rows per table, and whether planning
keeps up with each running world's game clock.

Cheap on purpose (a scrape every 15 s must not load the database): table figures come from
PostgreSQL's statistics views (`n_live_tup` is an estimate, `n_tup_ins` a counter flushed by
each backend within seconds), and the planning figures are one statement per running world
over its agents' live plans of the last day.
"""

from __future__ import annotations

import statistics
import uuid
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from db.models import Agent, Plan
from db.queries.due import running_worlds
from db.queries.plans import PLAN_REACH, current_leaves
from db.queries.worlds import game_now

NO_ACTION = "none"


@dataclass(frozen=True)
class TableRows:
    table: str
    live: int
    inserted: int


@dataclass(frozen=True)
class WorldPlanning:
    """Agents by the level of their current action (`none`: no action), and how far each
    agent's decomposed tasks reach past the game clock (0 when none does)."""

    world_id: uuid.UUID
    agents_by_action: dict[str, int]
    task_lead_s: list[float]

    @property
    def lead_min_s(self) -> float:
        return min(self.task_lead_s, default=0.0)

    @property
    def lead_median_s(self) -> float:
        return statistics.median(self.task_lead_s) if self.task_lead_s else 0.0


def database_bytes(session: Session) -> int:
    return int(session.scalar(sa.text("SELECT pg_database_size(current_database())")) or 0)


def table_rows(session: Session) -> list[TableRows]:
    rows = session.execute(
        sa.text("SELECT relname, n_live_tup, n_tup_ins FROM pg_stat_user_tables ORDER BY relname")
    )
    return [TableRows(name, int(live), int(inserted)) for name, live, inserted in rows]


def _planning_of(world_id: uuid.UUID, now: datetime) -> sa.Select[Any]:
    """Per agent of the world: the level of its current action (`plans.current_leaves`) and
    the end of its furthest live task among those that started within a day of now."""
    in_world = Plan.agent_id.in_(sa.select(Agent.id).where(Agent.world_id == world_id))
    leaves = current_leaves(now, in_world, columns=(Plan.agent_id, Plan.level)).subquery()
    reach = (
        sa.select(Plan.agent_id, sa.func.max(Plan.end).label("reach"))
        .where(in_world, Plan.level == "task", Plan.status != "superseded")
        .where(Plan.start > now - PLAN_REACH, Plan.start < now + PLAN_REACH)
        .group_by(Plan.agent_id)
        .subquery()
    )
    return (
        sa.select(Agent.id, leaves.c.level, reach.c.reach)
        .outerjoin(leaves, leaves.c.agent_id == Agent.id)
        .outerjoin(reach, reach.c.agent_id == Agent.id)
        .where(Agent.world_id == world_id)
    )


def planning(session: Session) -> list[WorldPlanning]:
    """Per running world at its game time now: `WorldPlanning`, one statement each."""
    found = []
    for world in running_worlds(session):
        now = game_now(world)
        levels: Counter[str] = Counter()
        leads: list[float] = []
        for _, level, reach in session.execute(_planning_of(world.id, now)):
            levels[level or NO_ACTION] += 1
            leads.append(_lead(reach, now))
        found.append(WorldPlanning(world.id, dict(levels), leads))
    return found


def _lead(reach: datetime | None, now: datetime) -> float:
    return max(0.0, (reach - now).total_seconds()) if reach is not None else 0.0
