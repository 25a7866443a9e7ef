"""The plan tree: day outline → hour chunks → 5–15 minute tasks, in the `plans` table.

Only `superseded` is stored as a status; planned / active / done are read off the game clock
(`status_at`), so a plan never goes stale because a job did not run to flip it.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from cognition.types import PlanItem, PlanLevel
from db import locks
from db.models import Plan

PLAN_REACH = timedelta(days=1)
"""No plan item lasts longer than a day (an outline spans 24 hours), so the live items that
matter now start within a day of it."""

LEVEL_DEPTH = {PlanLevel.DAY.value: 0, PlanLevel.HOUR.value: 1, PlanLevel.TASK.value: 2}


def current_leaves(
    at: datetime | sa.ColumnElement[datetime],
    *where: sa.ColumnElement[bool],
    columns: Sequence[Any] = (Plan,),
) -> sa.Select[Any]:
    """What an agent is doing at `at`, the one rule: its deepest live plan covering `at` — a
    task if its hour chunk was decomposed, else the hour chunk, else the day item; a later
    start, then a higher id (the newer row of a re-plan), breaks a tie. One row per agent
    matching `where` (`columns` of it), as a query to run or compose: the step, the sweep,
    the plan route, occupancy and the operator's figures all read it. Only plans that
    started within `PLAN_REACH` are read, each level a range of `ix_plans_agent_level_start`,
    so the read does not grow with an agent's history. `at` may be a bound parameter (a
    statement built once, `step.current_actions`)."""
    depth = sa.case(LEVEL_DEPTH, value=Plan.level)
    return (
        sa.select(*columns)
        .where(Plan.level.in_(list(LEVEL_DEPTH)), Plan.status != "superseded", *where)
        .where(Plan.start >= at - PLAN_REACH, Plan.start <= at, Plan.end > at)
        .order_by(Plan.agent_id, depth.desc(), Plan.start.desc(), Plan.id.desc())
        .distinct(Plan.agent_id)
    )


def current_action(session: Session, *, agent_id: uuid.UUID, at: datetime) -> Plan | None:
    """One agent's current action (`current_leaves`)."""
    return session.scalars(current_leaves(at, Plan.agent_id == agent_id)).first()


def status_at(plan: Plan, now: datetime) -> str:
    """superseded (stored) | done | active | planned, by the game clock."""
    if plan.status == "superseded":
        return "superseded"
    if plan.end <= now:
        return "done"
    return "active" if plan.start <= now else "planned"


def save_items(
    session: Session,
    *,
    agent_id: uuid.UUID,
    items: Sequence[PlanItem],
    level: PlanLevel,
    parent_id: int | None = None,
    decided_at: datetime | None = None,
    stand_in: bool = False,
) -> list[Plan]:
    """Insert one level of plan items under a parent (none for the day outline)."""
    rows = [
        {
            "agent_id": agent_id,
            "parent_id": parent_id,
            "level": level.value,
            "start": i.start,
            "duration_min": i.duration_min,
            "description": i.description,
            "location": i.location,
            "emoji": i.emoji,
            "object_state": i.object_state,
            "decided_at": decided_at,
            "stand_in": stand_in,
        }
        for i in items
    ]
    if not rows:
        return []
    insert = sa.insert(Plan).returning(Plan, sort_by_parameter_order=True)
    return list(session.scalars(insert, rows))  # in input order, as callers pair them


def live_plans(
    session: Session, *, agent_id: uuid.UUID, start: datetime, end: datetime
) -> list[Plan]:
    """Non-superseded plans overlapping [start, end), in tree-friendly order."""
    query = (
        sa.select(Plan)
        .where(Plan.agent_id == agent_id, Plan.status != "superseded", Plan.start < end)
        .where(Plan.end > start)
        .order_by(Plan.start, Plan.id)
    )
    return list(session.scalars(query))


def live_from(session: Session, *, agent_id: uuid.UUID, at: datetime) -> list[Plan]:
    """Non-superseded plans of every level not over at `at`, in start order: what a re-plan
    at `at` supersedes."""
    query = (
        sa.select(Plan)
        .where(Plan.agent_id == agent_id, Plan.status != "superseded", Plan.end > at)
        .order_by(Plan.start, Plan.id)
    )
    return list(session.scalars(query))


def supersede(session: Session, *, plan_ids: Sequence[int], replacement_id: int | None) -> None:
    """Mark these plans superseded by `replacement_id` (never deleted)."""
    if plan_ids:
        session.execute(
            sa.update(Plan)
            .where(Plan.id.in_(list(plan_ids)))
            .values(status="superseded", superseded_by=replacement_id)
            .execution_options(synchronize_session="fetch")
        )


def supersede_from(
    session: Session, *, agent_id: uuid.UUID, at: datetime, replacement_id: int | None
) -> int:
    """Mark every live plan that starts at or after `at` superseded (never deleted)."""
    result = session.execute(
        sa.update(Plan)
        .where(Plan.agent_id == agent_id, Plan.status != "superseded", Plan.start >= at)
        .values(status="superseded", superseded_by=replacement_id)
    )
    return int(result.rowcount or 0)  # type: ignore[attr-defined]


def day_around(session: Session, *, agent_id: uuid.UUID, at: datetime) -> list[PlanItem]:
    """The live day items of the agent within half a day of `at`, in start order."""
    reach = timedelta(hours=12)
    rows = live_plans(session, agent_id=agent_id, start=at - reach, end=at + reach)
    return [to_item(row) for row in rows if row.level == "day"]


def to_item(plan: Plan) -> PlanItem:
    """Row → the domain value the planning loops read."""
    return PlanItem(
        start=plan.start,
        duration_min=plan.duration_min,
        description=plan.description,
        location=plan.location,
        emoji=plan.emoji,
        object_state=plan.object_state,
    )


def lock_tree(session: Session, agent_id: uuid.UUID) -> None:
    """Hold the agent's plan-tree lock until the transaction ends: writers of one agent's tree
    (outline, decomposition, re-plan) take it after their model calls, then re-check."""
    locks.hold(session, f"plans:{agent_id}")


def lived_day(session: Session, *, agent_id: uuid.UUID, day: date) -> list[PlanItem]:
    """The live (never superseded) day items that started on `day`: what the agent did."""
    start = datetime.combine(day, time.min)
    rows = session.scalars(
        sa.select(Plan)
        .where(Plan.agent_id == agent_id, Plan.level == "day", Plan.status != "superseded")
        .where(Plan.start >= start, Plan.start < start + timedelta(days=1))
        .order_by(Plan.start, Plan.id)
    )
    return [to_item(row) for row in rows]


@dataclass
class PlanNode:
    plan: Plan
    children: list[PlanNode] = field(default_factory=list)


def day_tree(session: Session, *, agent_id: uuid.UUID, day: date) -> list[PlanNode]:
    """Every day outline starting on `day` with its descendants (superseded ones included)."""
    day_start = datetime.combine(day, time.min)
    roots = list(
        session.scalars(
            sa.select(Plan)
            .where(
                Plan.agent_id == agent_id,
                Plan.level == "day",
                Plan.start >= day_start,
                Plan.start < day_start + timedelta(days=1),
            )
            .order_by(Plan.start, Plan.id)
        )
    )
    return [_subtree(session, root) for root in roots]


def _subtree(session: Session, root: Plan) -> PlanNode:
    tree = sa.select(Plan.id).where(Plan.id == root.id).cte("tree", recursive=True)
    tree = tree.union_all(sa.select(Plan.id).join(tree, Plan.parent_id == tree.c.id))
    rows = session.scalars(
        sa.select(Plan).where(Plan.id.in_(sa.select(tree.c.id))).order_by(Plan.start, Plan.id)
    ).all()
    nodes = {p.id: PlanNode(p) for p in rows}
    for plan in rows:
        if plan.parent_id is not None and plan.parent_id in nodes:
            nodes[plan.parent_id].children.append(nodes[plan.id])
    return nodes[root.id]
