"""`hearth.plan_day` and `hearth.decompose` (slow queue): the paper's recursive planning, just
in time on the game clock.

Before a day's outline the agent recalls "<name>'s plan for <date>" and "important recent
events" (`planning.day_context`), revises its `currently` from them (the old one kept in
`agents.currently_history`) and plans with both: an invitation accepted yesterday is in today's
outline at its time and place.

Result keys: a day is planned once (`agents.planned_day`, claimed with the outline); a plan item
is decomposed once (its live children). Both are checked before the model is asked, under an
advisory lock on the job's key so a duplicate delivery waits and then finds the work done;
the write re-checks under the agent's plan-tree lock, because a reaction may have superseded
the item while the model was thinking (the steps are then dropped, never attached to a
superseded item).
"""

from __future__ import annotations

from datetime import date, timedelta

from celery import shared_task

from cognition import planning
from cognition.types import Granularity
from db import jobs
from db.queries.agents import revise_currently
from db.queries.events import emit
from db.queries.memories import list_memories
from db.queries.places import known_places
from db.queries.plans import (
    day_around,
    decomposable,
    lived_day,
    save_children,
    save_outline,
    to_item,
)
from workers.tasks.base import RETRY_POLICY
from workers.tasks.scope import AgentScope, agent_scope, enrich_later

DIRECTIVES_LOOKBACK = timedelta(days=1)
"""Inner-voice directives from the last game day condition the outline."""
MAX_DIRECTIVES = 10


@shared_task(name=jobs.PLAN_DAY.name, **RETRY_POLICY)
def plan_day(agent_id: str, day: str) -> dict[str, object]:
    """The agent's outline for game day `day` (ISO date), if that day is today and unplanned."""
    wanted = date.fromisoformat(day)
    with agent_scope(agent_id, lock=jobs.plan_day(agent_id, wanted).key) as scope:
        if scope is None or not _outline_due(scope, wanted):
            return {"items": 0}
        agent, session = scope.agent, scope.session
        recalled = planning.day_context(scope.store, name=agent.name, now=scope.now)
        currently = planning.revise_currently(
            scope.mind, persona=scope.persona, context=recalled, now=scope.now
        )
        scope.store.finish()  # memory rows before the agent row: enrichment's lock order
        revise_currently(session, agent, currently=currently, at=scope.now)
        items = planning.plan_day(
            scope.store,
            scope.mind,
            persona=scope.persona,
            summary=scope.summary,
            notes=recalled.notes,
            previous_day=planning.previous_day_summary(
                lived_day(session, agent_id=agent.id, day=wanted - timedelta(days=1))
            ),
            directives=_directives(scope),
            now=scope.now,
            known_places=known_places(
                session, agent_id=agent.id, world_id=scope.world.id, at=scope.now
            ),
        )
        rows = save_outline(
            session, agent_id=agent.id, day=wanted, items=items, decided_at=scope.now
        )
        if rows is None:
            session.rollback()  # planned by another job meanwhile: keep nothing of this one
            scope.store.discard()
            return {"items": 0}
        emit(
            session,
            world_id=scope.world.id,
            type="plan_created",
            payload={
                "agent_id": agent_id,
                "level": "day",
                "day": day,
                "plan_ids": [r.id for r in rows],
            },
        )
    enrich_later(scope.runtime, scope.world.id, scope.store.written)
    return {"items": len(rows)}


@shared_task(name=jobs.DECOMPOSE.name, **RETRY_POLICY)
def decompose(agent_id: str, plan_id: int, granularity: str) -> dict[str, object]:
    """Split a day item into hour chunks ("hour") or an hour chunk into 5–15 minute tasks
    ("task"), once."""
    level = Granularity(granularity)
    with agent_scope(agent_id, lock=jobs.decompose(agent_id, plan_id, level).key) as scope:
        if scope is None:
            return {"steps": 0}
        session, agent = scope.session, scope.agent
        parent = decomposable(session, agent_id=agent.id, plan_id=plan_id, granularity=level)
        if parent is None:
            return {"steps": 0}
        item = to_item(parent)
        schedule = day_around(session, agent_id=agent.id, at=item.start)
        memories = planning.recalled_for(scope.store, item, now=scope.now)
        if level is Granularity.HOUR:
            steps = planning.decompose_hours(
                scope.mind,
                item,
                persona=scope.persona,
                summary=scope.summary,
                schedule=schedule,
                memories=memories,
            )
        else:
            steps = planning.decompose_tasks(
                scope.mind,
                item,
                persona=scope.persona,
                summary=scope.summary,
                known_places=known_places(
                    session, agent_id=agent.id, world_id=scope.world.id, at=scope.now
                ),
                schedule=schedule,
                memories=memories,
            )
        rows = save_children(
            session, parent=parent, items=steps, granularity=level, decided_at=scope.now
        )
        if rows:
            emit(
                session,
                world_id=scope.world.id,
                type="plan_created",
                payload={
                    "agent_id": agent_id,
                    "level": rows[0].level,
                    "parent_id": plan_id,
                    "plan_ids": [r.id for r in rows],
                },
            )
    return {"steps": len(rows or [])}


def _outline_due(scope: AgentScope, day: date) -> bool:
    """Only today's outline is made (a late job for a past day does nothing), and only once."""
    planned = scope.agent.planned_day
    return day == scope.now.date() and (planned is None or planned < day)


def _directives(scope: AgentScope) -> list[str]:
    rows = list_memories(
        scope.session,
        agent_id=scope.agent.id,
        limit=MAX_DIRECTIVES,
        kinds=["directive"],
        since=scope.now - DIRECTIVES_LOOKBACK,
    )
    return [row.description for row in reversed(rows)]
