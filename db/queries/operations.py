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

import sqlalchemy as sa
from sqlalchemy.orm import Session

from db.queries.schedule import running_worlds
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


_PLANNING = sa.text("""
SELECT a.id,
       (SELECT p.level FROM plans p
         WHERE p.agent_id = a.id AND p.status <> 'superseded'
           AND p.start > :now - interval '1 day' AND p.start <= :now
           AND p.start + make_interval(mins => p.duration_min) > :now
         ORDER BY CASE p.level WHEN 'task' THEN 2 WHEN 'hour' THEN 1 ELSE 0 END DESC,
                  p.start DESC, p.id DESC
         LIMIT 1) AS level,
       (SELECT max(p.start + make_interval(mins => p.duration_min)) FROM plans p
         WHERE p.agent_id = a.id AND p.level = 'task' AND p.status <> 'superseded'
           AND p.start > :now - interval '1 day' AND p.start < :now + interval '1 day') AS reach
  FROM agents a
 WHERE a.world_id = :world
""")
"""A plan item lasts at most a day (an outline spans 24 hours), so the live items that matter
now start within a day of it, as the sweep reads them (`plans.PLAN_REACH`)."""


def planning(session: Session) -> list[WorldPlanning]:
    """Per running world at its game time now: `WorldPlanning`."""
    found = []
    for world in running_worlds(session):
        now = game_now(world)
        levels: Counter[str] = Counter()
        leads: list[float] = []
        for _, level, reach in session.execute(_PLANNING, {"now": now, "world": world.id}):
            levels[level or NO_ACTION] += 1
            leads.append(_lead(reach, now))
        found.append(WorldPlanning(world.id, dict(levels), leads))
    return found


def _lead(reach: datetime | None, now: datetime) -> float:
    return max(0.0, (reach - now).total_seconds()) if reach is not None else 0.0
