"""The plan tree: day outline → hour chunks → 5–15 minute tasks, in the `plans` table.

Only `superseded` is stored as a status; planned / active / done are read off the game clock
(`status_at`), so a plan never goes stale because a job did not run to flip it.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from cognition.planning import lay_outline
from cognition.schedule import around, whole_minutes
from cognition.types import Granularity, PlanItem, PlanLevel
from db import locks
from db.models import Agent, Plan

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


def save_outline(
    session: Session,
    *,
    agent_id: uuid.UUID,
    day: date,
    items: Sequence[PlanItem],
    decided_at: datetime,
    lived_until: datetime | None = None,
) -> list[Plan] | None:
    """The day outline, if `day` is not planned yet (claimed on the agent row); else None.

    A stand-in the offline mind laid while the model thought is replaced first: what of it was
    not lived by `lived_until` (the game time now) is superseded by the outline's first item
    (`replace_stand_ins`). The outline is laid into the live plan by
    `cognition.planning.lay_outline` at `decided_at` (the game time of planning), around the
    live day items still there (a reaction made first, the lived part of a stand-in)."""
    lock_tree(session, agent_id)
    claimed = session.scalar(
        sa.update(Agent)
        .where(Agent.id == agent_id)
        .where(sa.or_(Agent.planned_day.is_(None), Agent.planned_day < day))
        .values(planned_day=day)
        .returning(Agent.id)
        .execution_options(synchronize_session=False)
    )
    if claimed is None:
        return None
    replaced = replace_stand_ins(session, agent_id=agent_id, at=lived_until or decided_at)
    rows = _laid(session, agent_id=agent_id, items=items, decided_at=decided_at)
    if rows:
        supersede(session, plan_ids=replaced, replacement_id=rows[0].id)
    return rows


def save_stand_in_outline(
    session: Session,
    *,
    agent_id: uuid.UUID,
    day: date,
    items: Sequence[PlanItem],
    decided_at: datetime,
) -> list[Plan] | None:
    """The offline mind's outline standing in while a model plans `day`, unless the day is
    planned already or has its stand-in (re-checked under the tree lock); else None. It claims
    nothing: the model's outline claims the day and replaces it (`save_outline`)."""
    lock_tree(session, agent_id)
    if not stand_in_due(session, agent_id=agent_id, day=day):
        return None
    return _laid(session, agent_id=agent_id, items=items, decided_at=decided_at, stand_in=True)


def stand_in_due(session: Session, *, agent_id: uuid.UUID, day: date) -> bool:
    """Whether `day` is neither planned nor stood in for yet (a live stand-in day item
    decided on it)."""
    planned = session.scalar(sa.select(Agent.planned_day).where(Agent.id == agent_id))
    if planned is not None and planned >= day:
        return False
    midnight = datetime.combine(day, time.min)
    stood = (
        sa.select(Plan.id)
        .where(Plan.agent_id == agent_id, Plan.level == "day", Plan.stand_in)
        .where(Plan.status != "superseded", Plan.decided_at >= midnight)
        .where(Plan.decided_at < midnight + timedelta(days=1))
    )
    return session.scalar(stood.limit(1)) is None


def _laid(
    session: Session,
    *,
    agent_id: uuid.UUID,
    items: Sequence[PlanItem],
    decided_at: datetime,
    stand_in: bool = False,
) -> list[Plan]:
    """Outline items laid around the live day items they overlap, then inserted."""
    start = min([decided_at, *(i.start for i in items)])
    end = max([decided_at, *(i.end for i in items)])
    planned = live_plans(session, agent_id=agent_id, start=start, end=end)
    laid = lay_outline(
        items,
        now=decided_at,
        planned=[to_item(p) for p in planned if p.level == PlanLevel.DAY.value],
    )
    return save_items(
        session,
        agent_id=agent_id,
        items=laid,
        level=PlanLevel.DAY,
        decided_at=decided_at,
        stand_in=stand_in,
    )


def replace_stand_ins(
    session: Session, *, agent_id: uuid.UUID, at: datetime, parent_id: int | None = None
) -> list[int]:
    """Supersede the live stand-in items the model's plan replaces, and return their ids for
    the caller to point at the replacement: the stand-in day items and their steps (`parent_id`
    None, for an outline), or the stand-in steps under `parent_id` and theirs (for a
    decomposition).

    A stand-in stood in from when it was decided until `at`: an item lived wholly in that span
    stays as it is; one lived in part is superseded and its lived part written again (a
    stand-in too, same level, parent and decision time), so the plan keeps what the agent did;
    the rest, which it never did, is superseded. Deeper steps are not written again: their
    time is covered by their parent's lived part."""
    tops, deeper = _live_stand_ins(session, agent_id=agent_id, at=at, parent_id=parent_id)
    top_ids = {row.id for row in tops}
    replaced: list[int] = []
    for row in [*tops, *deeper]:
        decided = (row.decided_at or row.start).replace(second=0, microsecond=0)
        began = max(row.start, decided)
        if began == row.start and row.end <= at:
            continue  # lived whole
        replaced.append(row.id)
        minutes = whole_minutes(min(row.end, at) - began)
        if row.id in top_ids and minutes > 0:
            lived = replace(to_item(row), start=began, duration_min=minutes)
            save_items(
                session,
                agent_id=agent_id,
                items=[lived],
                level=PlanLevel(row.level),
                parent_id=row.parent_id,
                decided_at=row.decided_at,
                stand_in=True,
            )
    supersede(session, plan_ids=replaced, replacement_id=None)
    return replaced


def _live_stand_ins(
    session: Session, *, agent_id: uuid.UUID, at: datetime, parent_id: int | None
) -> tuple[list[Plan], list[Plan]]:
    """The live stand-in day items around `at` (within `PLAN_REACH`), or the live stand-in
    steps under `parent_id`; and, apart, the live stand-in steps under those."""
    live = sa.and_(Plan.agent_id == agent_id, Plan.stand_in, Plan.status != "superseded")
    if parent_id is None:
        top = sa.and_(Plan.level == PlanLevel.DAY.value, Plan.start >= at - PLAN_REACH)
    else:
        top = Plan.parent_id == parent_id
    tops = list(session.scalars(sa.select(Plan).where(live, top).order_by(Plan.start, Plan.id)))
    deeper: list[Plan] = []
    layer = tops
    while layer:
        under = Plan.parent_id.in_([row.id for row in layer])
        layer = list(session.scalars(sa.select(Plan).where(live, under).order_by(Plan.id)))
        deeper += layer
    return tops, deeper


def decomposable(
    session: Session,
    *,
    agent_id: uuid.UUID,
    plan_id: int,
    granularity: Granularity,
    over_stand_ins: bool = False,
) -> Plan | None:
    """The plan to split into `granularity` steps, if it is live, of the level above, and
    has no live children yet (`over_stand_ins`: none but stand-ins, which the model's steps
    replace); else None (done already, superseded, or the wrong level)."""
    parent_level = PlanLevel.DAY if granularity is Granularity.HOUR else PlanLevel.HOUR
    plan = session.get(Plan, plan_id, populate_existing=True)
    if plan is None or plan.agent_id != agent_id or plan.status == "superseded":
        return None
    if plan.level != parent_level.value:
        return None
    if _has_live_children(session, plan_id, but_stand_ins=over_stand_ins):
        return None
    return plan


def save_children(
    session: Session,
    *,
    parent: Plan,
    items: Sequence[PlanItem],
    granularity: Granularity,
    decided_at: datetime,
    stand_in: bool = False,
    lived_until: datetime | None = None,
) -> list[Plan] | None:
    """Steps under `parent`, unless a re-plan superseded it or another job decomposed it
    while the model was thinking (re-checked under the tree lock); then None.

    The model's steps (`stand_in` false) replace the offline mind's stand-in steps there, as
    the outline does (`replace_stand_ins` at `lived_until`, the game time now), laid around
    their lived parts; the stand-in steps are written only where there are no steps yet."""
    lock_tree(session, parent.agent_id)
    found = decomposable(
        session,
        agent_id=parent.agent_id,
        plan_id=parent.id,
        granularity=granularity,
        over_stand_ins=not stand_in,
    )
    if found is None:
        return None
    replaced: list[int] = []
    if not stand_in:
        at = lived_until or decided_at
        replaced = replace_stand_ins(session, agent_id=parent.agent_id, at=at, parent_id=parent.id)
        lived = [to_item(row) for row in _live_children(session, parent.id)]
        items = around(items, lived)
    level = PlanLevel.HOUR if granularity is Granularity.HOUR else PlanLevel.TASK
    rows = save_items(
        session,
        agent_id=parent.agent_id,
        items=items,
        level=level,
        parent_id=parent.id,
        decided_at=decided_at,
        stand_in=stand_in,
    )
    if rows:
        supersede(session, plan_ids=replaced, replacement_id=rows[0].id)
    return rows


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


def _has_live_children(session: Session, plan_id: int, *, but_stand_ins: bool = False) -> bool:
    query = sa.select(Plan.id).where(Plan.parent_id == plan_id, Plan.status != "superseded")
    if but_stand_ins:
        query = query.where(~Plan.stand_in)
    return session.scalar(query.limit(1)) is not None


def _live_children(session: Session, plan_id: int) -> list[Plan]:
    query = sa.select(Plan).where(Plan.parent_id == plan_id, Plan.status != "superseded")
    return list(session.scalars(query.order_by(Plan.start, Plan.id)))


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
