"""The paper's recursive planning, just in time on the game clock: a day's outline, and the
decomposition of a day item into hour chunks or of an hour chunk into 5–15 minute tasks.

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

import uuid
from datetime import date, timedelta

from sqlalchemy.orm import Session

from cognition import planning
from cognition.places import KnownPlace
from cognition.types import Granularity, PlanItem
from db import jobs
from db.flows.agent_scope import AgentScope, Outcome, agent_scope, enrich_later
from db.flows.faculties import Faculties
from db.queries.agents import revise_currently
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

DIRECTIVES_LOOKBACK = timedelta(days=1)
"""Inner-voice directives from the last game day condition the outline."""
MAX_DIRECTIVES = 10


def plan_day(session: Session, faculties: Faculties, *, agent_id: uuid.UUID, day: date) -> Outcome:
    """The agent's outline for game day `day`, if that day is today and unplanned."""
    lock = jobs.plan_day(agent_id, day).key
    with agent_scope(session, faculties, agent_id, lock=lock) as scope:
        if scope is None or not _outline_due(scope, day):
            return Outcome({"items": 0})
        agent = scope.agent
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
                lived_day(session, agent_id=agent.id, day=day - timedelta(days=1))
            ),
            directives=_directives(scope),
            now=scope.now,
            known_places=_known_places(scope),
        )
        rows = save_outline(session, agent_id=agent.id, day=day, items=items, decided_at=scope.now)
        if rows is None:
            session.rollback()  # planned by another job meanwhile: keep nothing of this one
            scope.store.discard()
            return Outcome({"items": 0})
        scope.announce(
            "plan_created",
            {
                "agent_id": str(agent_id),
                "level": "day",
                "day": day.isoformat(),
                "plan_ids": [r.id for r in rows],
            },
        )
    return Outcome({"items": len(rows)}, enrich_later(scope.world.id, scope.store.written))


def decompose(
    session: Session,
    faculties: Faculties,
    *,
    agent_id: uuid.UUID,
    plan_id: int,
    granularity: Granularity,
) -> Outcome:
    """Split a day item into hour chunks or an hour chunk into 5–15 minute tasks, once."""
    lock = jobs.decompose(agent_id, plan_id, granularity).key
    with agent_scope(session, faculties, agent_id, lock=lock) as scope:
        if scope is None:
            return Outcome({"steps": 0})
        parent = decomposable(session, agent_id=agent_id, plan_id=plan_id, granularity=granularity)
        if parent is None:
            return Outcome({"steps": 0})
        steps = _steps(scope, to_item(parent), granularity)
        rows = save_children(
            session, parent=parent, items=steps, granularity=granularity, decided_at=scope.now
        )
        if rows:
            scope.announce(
                "plan_created",
                {
                    "agent_id": str(agent_id),
                    "level": rows[0].level,
                    "parent_id": plan_id,
                    "plan_ids": [r.id for r in rows],
                },
            )
    return Outcome({"steps": len(rows or [])})


def _steps(scope: AgentScope, item: PlanItem, granularity: Granularity) -> list[PlanItem]:
    """The Mind's steps for `item`, seeing the day around it and what the item recalls."""
    schedule = day_around(scope.session, agent_id=scope.agent.id, at=item.start)
    memories = planning.recalled_for(scope.store, item, now=scope.now)
    if granularity is Granularity.HOUR:
        return planning.decompose_hours(
            scope.mind,
            item,
            persona=scope.persona,
            summary=scope.summary,
            schedule=schedule,
            memories=memories,
        )
    return planning.decompose_tasks(
        scope.mind,
        item,
        persona=scope.persona,
        summary=scope.summary,
        known_places=_known_places(scope),
        schedule=schedule,
        memories=memories,
    )


def _known_places(scope: AgentScope) -> list[KnownPlace]:
    return known_places(
        scope.session, agent_id=scope.agent.id, world_id=scope.world.id, at=scope.now
    )


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
