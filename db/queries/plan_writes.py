"""Writing into the plan tree: a day's outline and an item's steps, the model's and the
offline mind's stand-in while the model thinks, each under the agent's plan-tree lock and
re-checked there (a reaction, another job or the model's plan may have come first).

A stand-in (`plans.stand_in`, issue 24) is written at once when a slow model is asked to plan;
the model's plan replaces what of it was not lived (`replace_stand_ins`), and keeps what was.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import replace
from datetime import date, datetime, time, timedelta

import sqlalchemy as sa
from sqlalchemy.orm import Session

from cognition.planning import lay_outline
from cognition.schedule import around, whole_minutes
from cognition.types import Granularity, PlanItem, PlanLevel
from db.models import Agent, Plan
from db.queries.plans import (
    PLAN_REACH,
    live_plans,
    lock_tree,
    save_items,
    supersede,
    to_item,
)


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


def _has_live_children(session: Session, plan_id: int, *, but_stand_ins: bool = False) -> bool:
    query = sa.select(Plan.id).where(Plan.parent_id == plan_id, Plan.status != "superseded")
    if but_stand_ins:
        query = query.where(~Plan.stand_in)
    return session.scalar(query.limit(1)) is not None


def _live_children(session: Session, plan_id: int) -> list[Plan]:
    query = sa.select(Plan).where(Plan.parent_id == plan_id, Plan.status != "superseded")
    return list(session.scalars(query.order_by(Plan.start, Plan.id)))
