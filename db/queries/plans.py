"""The plan tree: day outline → hour chunks → 5–15 minute tasks, in the `plans` table.

Only `superseded` is stored as a status; planned / active / done are read off the game clock
(`status_at`), so a plan never goes stale because a job did not run to flip it.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

import sqlalchemy as sa
from sqlalchemy.orm import Session

from cognition.types import PlanItem, PlanLevel
from db.models import Plan

LEVEL_DEPTH = {PlanLevel.DAY.value: 0, PlanLevel.HOUR.value: 1, PlanLevel.TASK.value: 2}


def end_of(plan: Plan) -> datetime:
    return plan.start + timedelta(minutes=plan.duration_min)


def status_at(plan: Plan, now: datetime) -> str:
    """superseded (stored) | done | active | planned, by the game clock."""
    if plan.status == "superseded":
        return "superseded"
    if end_of(plan) <= now:
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
) -> list[Plan]:
    """Insert one level of plan items under a parent (none for the day outline)."""
    rows = [
        {"agent_id": agent_id, "parent_id": parent_id, "level": level.value, "start": i.start,
         "duration_min": i.duration_min, "description": i.description, "location": i.location,
         "emoji": i.emoji, "object_state": i.object_state, "decided_at": decided_at}
        for i in items
    ]  # fmt: skip
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
        .where(Plan.start + sa.func.make_interval(0, 0, 0, 0, 0, Plan.duration_min) > start)
        .order_by(Plan.start, Plan.id)
    )
    return list(session.scalars(query))


def current_action(session: Session, *, agent_id: uuid.UUID, at: datetime) -> Plan | None:
    """The deepest live plan covering `at`: a task if decomposed that far, else hour, else day."""
    covering = live_plans(session, agent_id=agent_id, start=at, end=at + timedelta(microseconds=1))
    if not covering:
        return None
    return max(covering, key=lambda p: (LEVEL_DEPTH[p.level], p.start, p.id))


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
