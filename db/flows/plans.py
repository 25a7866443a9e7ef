"""The paper's recursive planning, just in time on the game clock: a day's outline, and the
decomposition of a day item into hour chunks or of an hour chunk into 5–15 minute tasks.

Before a day's outline the agent recalls "<name>'s plan for <date>" and "important recent
events" (`planning.day_context`), revises its `currently` from them (the old one kept in
`agents.currently_history`) and plans with both: an invitation accepted yesterday is in today's
outline at its time and place.

A model on a CPU takes minutes a call, so with a model configured (`Faculties.stands_in`) each
job first stores the offline mind's outline or steps at once, in a transaction of its own, as a
*stand-in* (`plans.stand_in`): the agent acts while the model thinks. The model's plan then
supersedes what of the stand-in was not lived yet (`db.queries.plan_writes.replace_stand_ins`). A
stand-in day item is decomposed by the offline mind only: the model's outline replaces it.

Result keys: a day is planned once (`agents.planned_day`, claimed with the outline); a plan item
is decomposed once (its live children). Both are checked before the model is asked, under an
advisory lock on the job's key so a duplicate delivery waits and then finds the work done;
the write re-checks under the agent's plan-tree lock, because a reaction may have superseded
the item while the model was thinking (the steps are then dropped, never attached to a
superseded item).
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session

from cognition import planning
from cognition.frugal import fits_one_step
from cognition.places import KnownPlace
from cognition.types import Granularity, PlanItem
from db import jobs
from db.flows.agent_scope import AgentScope, Outcome, agent_scope, enrich_later
from db.flows.faculties import Faculties
from db.models import Plan
from db.queries.agents import revise_currently
from db.queries.memories import list_memories
from db.queries.memory_rows import gatherings_on
from db.queries.places import known_places
from db.queries.plan_writes import (
    decomposable,
    save_children,
    save_outline,
    save_stand_in_outline,
    stand_in_due,
)
from db.queries.plans import day_around, lived_day, to_item
from db.queries.worlds import game_now

DIRECTIVES_LOOKBACK = timedelta(days=1)
"""Inner-voice directives from the last game day condition the outline."""
MAX_DIRECTIVES = 10


CALENDAR_K = 10
"""Memories of gatherings on the day looked up by their fields (`planning.DayContext`), and
half as many on the next day (a host goes out the evening before to invite people)."""


def _day_context(scope: AgentScope, day: date) -> planning.DayContext:
    """The day's retrievals, and the memories whose stored news is on that day."""
    recalled = planning.day_context(scope.store, name=scope.agent.name, now=scope.now)
    on_day = gatherings_on(scope.session, scope.agent.id, day, limit=CALENDAR_K)
    next_day = gatherings_on(
        scope.session, scope.agent.id, day + timedelta(days=1), limit=CALENDAR_K // 2
    )
    return replace(recalled, calendar=tuple(m.recalled() for m in (*on_day, *next_day)))


def stand_in_day(
    session: Session, faculties: Faculties, *, agent_id: uuid.UUID, day: date
) -> Outcome:
    """The offline mind's outline for `day`, stored at once while the model plans it (module
    docstring): only with a model configured, and once a day (`stand_in_due`)."""
    if not faculties.stands_in:
        return Outcome({})  # the offline mind is the mind: its plan is the plan
    with agent_scope(session, faculties.standing_in(), agent_id) as scope:
        if scope is None or scope.offline or not _outline_due(scope, day):
            return Outcome({"stand_in": 0})  # offline (out of focus): its plan is the plan
        if not stand_in_due(session, agent_id=agent_id, day=day):
            return Outcome({"stand_in": 0})
        recalled = _day_context(scope, day)
        items = planning.draft_day(scope.mind, **_outline_inputs(scope, day, recalled))
        rows = save_stand_in_outline(
            session, agent_id=agent_id, day=day, items=items, decided_at=scope.now
        )
        if rows:
            scope.announce("plan_created", _created(agent_id, rows, day=day))
    return Outcome({"stand_in": len(rows or [])})


def plan_day(session: Session, faculties: Faculties, *, agent_id: uuid.UUID, day: date) -> Outcome:
    """The agent's outline for game day `day`, if that day is today and unplanned."""
    lock = jobs.plan_day(agent_id, day).key
    with agent_scope(session, faculties, agent_id, lock=lock) as scope:
        if scope is None or not _outline_due(scope, day):
            return Outcome({"items": 0})
        agent = scope.agent
        recalled = _day_context(scope, day)
        currently = planning.revise_currently(
            scope.mind, persona=scope.persona, context=recalled, now=scope.now
        )
        scope.store.finish()  # memory rows before the agent row: enrichment's lock order
        revise_currently(session, agent, currently=currently, at=scope.now)
        items = planning.plan_day(scope.store, scope.mind, **_outline_inputs(scope, day, recalled))
        rows = save_outline(
            session,
            agent_id=agent.id,
            day=day,
            items=items,
            decided_at=scope.now,
            lived_until=_game_now(scope),
        )
        if rows is None:
            session.rollback()  # planned by another job meanwhile: keep nothing of this one
            scope.store.discard()
            return Outcome({"items": 0})
        scope.announce("plan_created", _created(agent_id, rows, day=day))
    return Outcome({"items": len(rows)}, enrich_later(scope.world.id, scope.store.written))


def _outline_inputs(scope: AgentScope, day: date, recalled: planning.DayContext) -> dict[str, Any]:
    """What an outline is planned from, the model's and its stand-in alike."""
    return {
        "persona": scope.persona,
        "summary": scope.summary,
        "notes": recalled.notes,
        "previous_day": planning.previous_day_summary(
            lived_day(scope.session, agent_id=scope.agent.id, day=day - timedelta(days=1))
        ),
        "directives": _directives(scope),
        "now": scope.now,
        "known_places": _known_places(scope),
    }


def _created(
    agent_id: uuid.UUID, rows: list[Plan], *, day: date | None = None, parent_id: int | None = None
) -> dict[str, Any]:
    """The `plan_created` event's payload: an outline (`day`) or steps (`parent_id`)."""
    where: dict[str, Any] = {"day": day.isoformat()} if day else {"parent_id": parent_id}
    return {
        "agent_id": str(agent_id),
        "level": rows[0].level,
        **where,
        "plan_ids": [r.id for r in rows],
    }


def _game_now(scope: AgentScope) -> datetime:
    """The world's game time now, read again: the clock moved while the model thought."""
    scope.session.refresh(scope.world)
    return game_now(scope.world)


def stand_in_steps(
    session: Session,
    faculties: Faculties,
    *,
    agent_id: uuid.UUID,
    plan_id: int,
    granularity: Granularity,
) -> Outcome:
    """The offline mind's steps for a plan item that has none, stored at once while the model
    decomposes it (module docstring); nothing for an item the frugal mind keeps whole."""
    if not faculties.stands_in:
        return Outcome({})  # the offline mind is the mind: its plan is the plan
    with agent_scope(session, faculties.standing_in(), agent_id) as scope:
        if scope is None or scope.offline:
            return Outcome({"stand_in": 0})  # offline (out of focus): its plan is the plan
        parent = decomposable(session, agent_id=agent_id, plan_id=plan_id, granularity=granularity)
        if parent is None:
            return Outcome({"stand_in": 0})
        item = to_item(parent)
        if not scope.paper and fits_one_step(item, granularity):
            return Outcome({"stand_in": 0})  # the model's answer needs no call
        rows = save_children(
            session,
            parent=parent,
            items=_steps(scope, item, granularity),
            granularity=granularity,
            decided_at=scope.now,
            stand_in=True,
        )
        if rows:
            scope.announce("plan_created", _created(agent_id, rows, parent_id=plan_id))
    return Outcome({"stand_in": len(rows or [])})


def decompose(
    session: Session,
    faculties: Faculties,
    *,
    agent_id: uuid.UUID,
    plan_id: int,
    granularity: Granularity,
) -> Outcome:
    """Split a day item into hour chunks or an hour chunk into 5–15 minute tasks, once (a
    stand-in item is the offline mind's to split: `stand_in_steps`)."""
    lock = jobs.decompose(agent_id, plan_id, granularity).key
    with agent_scope(session, faculties, agent_id, lock=lock) as scope:
        if scope is None:
            return Outcome({"steps": 0})
        over = faculties.stands_in
        parent = decomposable(
            session,
            agent_id=agent_id,
            plan_id=plan_id,
            granularity=granularity,
            over_stand_ins=over,
        )
        if parent is None or (over and parent.stand_in):
            return Outcome({"steps": 0})
        steps = _steps(scope, to_item(parent), granularity)
        rows = save_children(
            session,
            parent=parent,
            items=steps,
            granularity=granularity,
            decided_at=scope.now,
            lived_until=_game_now(scope),
        )
        if rows:
            scope.announce("plan_created", _created(agent_id, rows, parent_id=plan_id))
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
            known_places=_known_places(scope),
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
