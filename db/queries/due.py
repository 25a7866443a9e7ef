"""What has come due on a world's game clock, read in a few batched queries per world.

The beat sweep asks, for every agent of every running (unpaused) world at its game time now:

- a day outline: today is not planned yet and no live day item of an earlier day's plan
  covers now (the night of yesterday's outline runs to the wake-up; an item decided today,
  such as a reaction made before the outline, does not hold the outline back). An agent that
  was never summarised is summarised first, so its first outline reads a summary;
- decomposition: `cognition.schedule.window_to_decompose` over the live items not over yet —
  hour chunks for the current and next day item, tasks for the current and next hour chunk,
  the next once it starts within the lead — leaving out sleep (`cognition.frugal.needs_detail`);
- a summary: `cognition.summary.is_stale` (never made, a game day old, or 50 memories since);
- a reflection: the accumulator is above the world's threshold, so run reflections_done + 1
  (a crossing whose job was lost is found here; the run's claim keeps it to one);
- and it announces `action_changed` for each agent whose current plan leaf is not the one last
  announced (`agents.current_plan_id`), and writes back the object states those actions set
  or release (`db.queries.objects.settle_objects`), perceived by everyone in the area.

Five queries per world whatever its size: worlds, agents with their bounded count of memories
since their summary, live plan rows within a day of now, each agent's current action (the one
rule, `db.queries.plans.current_leaves`), and the marker update.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from cognition.frugal import needs_detail
from cognition.perception import new_observation
from cognition.reflection import should_reflect
from cognition.schedule import window_to_decompose
from cognition.summary import DEFAULT_MAX_NEW_MEMORIES, is_stale
from cognition.types import Granularity, MemorySource, NewMemory, PlanItem
from db.models import Agent, Memory, Plan, World
from db.queries.events import emit_many
from db.queries.memories import add_for_agents
from db.queries.objects import ActionChange, settle_objects
from db.queries.plans import PLAN_REACH, to_item
from db.queries.step import Current, current_actions
from db.queries.worlds import game_now, reflection_threshold
from db.settings import Settings

PlanRow = Any
"""A `plans` row as a Core row (the columns of `Plan` and its `end`, read by attribute)."""
_PLAN_COLUMNS = (*Plan.__table__.c, Plan.end.label("end"))


@dataclass
class AgentDue:
    """The work due for one agent now; empty fields mean nothing is due."""

    agent_id: uuid.UUID
    world_id: uuid.UUID
    plan_day: date | None = None
    decompose: list[tuple[int, Granularity]] = field(default_factory=list)
    summarize: bool = False
    reflect_seq: int | None = None


@dataclass
class WorldDue:
    world: World
    now: datetime
    agents: list[AgentDue]
    actions_changed: int = 0
    observed: list[int] = field(default_factory=list)
    """Memories written by the sweep (agents seeing themselves start a new action)."""
    perceived: list[Memory] = field(default_factory=list)
    """Observations of object states the changed actions wrote to the map."""


def running_worlds(session: Session) -> list[World]:
    """Worlds whose clocks run their schedules: pausing a world pauses every schedule."""
    return list(session.scalars(sa.select(World).where(~World.paused).order_by(World.id)))


def due_in_world(session: Session, world: World, *, settings: Settings) -> WorldDue:
    """Everything due in `world` at its game time now (module docstring); announces changed
    actions as events in the caller's transaction."""
    now = game_now(world)
    agents = _agents_with_backlog(session, world.id)
    ids = [agent.id for agent, _ in agents]
    plans = _live_plans(session, ids, now)
    threshold = reflection_threshold(world, settings)
    due = [_agent_due(agent, since, plans[agent.id], now, threshold) for agent, since in agents]
    current: dict[uuid.UUID, Current | None] = dict.fromkeys(ids)
    current.update(current_actions(session, ids, now))
    changes = claim_actions(session, agents=[a for a, _ in agents], leaves=current)
    objects = settle_objects(session, world_id=world.id, changes=changes, current=current, now=now)
    perceived = [memory for change in objects for _, memory in change.perceived]
    names = {agent.id: agent.name for agent, _ in agents}
    observed = observe_themselves(session, world_id=world.id, changes=changes, names=names, now=now)
    announce_actions(session, world_id=world.id, changes=changes, names=names)
    return WorldDue(
        world=world,
        now=now,
        agents=due,
        actions_changed=len(changes),
        perceived=perceived,
        observed=observed,
    )


def due_for_agent(
    session: Session, agent: Agent, *, now: datetime
) -> list[tuple[int, Granularity]]:
    """The decompositions due for one agent now (after a re-plan, without waiting a sweep)."""
    plans = _live_plans(session, [agent.id], now)[agent.id]
    return _decompositions(plans, now)


def claim_actions(
    session: Session, *, agents: Sequence[Agent], leaves: Mapping[uuid.UUID, Current | None]
) -> list[ActionChange]:
    """The agents whose current leaf changed, their markers moved in one conditional UPDATE
    (rows locked in id order). Conditional, so two overlapping sweeps claim a change once."""
    changed = {
        agent.id: agent for agent in agents if _leaf_id(leaves[agent.id]) != agent.current_plan_id
    }
    if not changed:
        return []
    claimed = sorted(
        session.scalars(
            _CLAIM_LEAVES,
            {"ids": list(changed), "leaves": [_leaf_id(leaves[i]) for i in changed]},
        ).all()
    )
    return [ActionChange(i, changed[i].current_plan_id, leaves[i]) for i in claimed]


def announce_actions(
    session: Session,
    *,
    world_id: uuid.UUID,
    changes: Sequence[ActionChange],
    names: Mapping[uuid.UUID, str],
) -> None:
    """`action_changed` for each claimed change, in one insert; the world's event lock is
    taken here, after the sweep's agent and place locks (every writer takes it last)."""
    emit_many(
        session,
        world_id=world_id,
        type="action_changed",
        payloads=[action_payload(c.agent_id, names[c.agent_id], c.current) for c in changes],
    )


def observe_themselves(
    session: Session,
    *,
    world_id: uuid.UUID,
    changes: Sequence[ActionChange],
    names: Mapping[uuid.UUID, str],
    now: datetime,
) -> list[int]:
    """Each agent whose action changed observes itself doing it ("Junie Halvorsen is brewing
    coffee"), as the paper's agents perceive their own behaviour; one insert, the ids written."""
    seen = [
        (change.agent_id, self_observation(names[change.agent_id], change.current.description, now))
        for change in changes
        if change.current is not None and change.agent_id in names
    ]
    stored = add_for_agents(session, world_id=world_id, items=seen, now=now, dedupe=True)
    return [m.id for m in stored]


def self_observation(name: str, action: str, now: datetime) -> NewMemory:
    """ "<name> is <action, in the progressive>": what an agent perceives of itself."""
    return new_observation(name, action, now=now, doing=True, source=MemorySource.AGENT)


_CLAIM_LEAVES = sa.text("""
WITH v AS (SELECT * FROM unnest(CAST(:ids AS uuid[]), CAST(:leaves AS bigint[])) AS v(id, leaf)),
     claimed AS (
       SELECT a.id FROM agents AS a JOIN v ON v.id = a.id
        WHERE a.current_plan_id IS DISTINCT FROM v.leaf
        ORDER BY a.id
          FOR NO KEY UPDATE OF a
     )
UPDATE agents AS a SET current_plan_id = v.leaf
  FROM v JOIN claimed ON claimed.id = v.id
 WHERE a.id = v.id AND a.current_plan_id IS DISTINCT FROM v.leaf
RETURNING a.id
""")
"""Rows locked in id order first (as the step's moves and enrichment's accumulator do), so
writers of many agents wait for each other instead of deadlocking."""


def _leaf_id(leaf: Current | None) -> int | None:
    return leaf.id if leaf is not None else None


def action_payload(agent_id: uuid.UUID, name: str, leaf: Current | None) -> dict[str, object]:
    action = leaf.as_json() if leaf is not None else {"plan_id": None}
    return {"agent_id": str(agent_id), "name": name, **action}


def _agent_due(
    agent: Agent, memories_since: int, plans: list[PlanRow], now: datetime, threshold: int
) -> AgentDue:
    due = AgentDue(agent_id=agent.id, world_id=agent.world_id)
    due.summarize = is_stale(summary_at=agent.summary_at, memories_since=memories_since, now=now)
    night = any(_of_an_earlier_day(p, now) and p.start <= now < p.end for p in plans)
    planned = agent.planned_day is not None and agent.planned_day >= now.date()
    if not night and not planned and agent.summary_at is not None:
        due.plan_day = now.date()
    due.decompose = _decompositions(plans, now)
    if should_reflect(agent.importance_since_reflection, threshold):
        due.reflect_seq = agent.reflections_done + 1
    return due


def _of_an_earlier_day(plan: PlanRow, now: datetime) -> bool:
    """A day item decided before today (a row of unknown origin counts as one)."""
    decided = plan.decided_at
    return plan.level == "day" and (decided is None or decided.date() < now.date())


def _decompositions(plans: Sequence[PlanRow], now: datetime) -> list[tuple[int, Granularity]]:
    """`window_to_decompose` over the live rows, mapped back to plan ids."""
    ids: dict[int, int] = {}
    levels: dict[str, list[PlanItem]] = defaultdict(list)
    for row in plans:
        item = to_item(row)
        ids[id(item)] = row.id
        levels[row.level].append(item)
    window = window_to_decompose(
        [d for d in levels["day"] if needs_detail(d)],
        now,
        hour_items=levels["hour"],
        task_items=levels["task"],
    )
    return [(ids[id(i)], Granularity.HOUR) for i in window.day_items] + [
        (ids[id(i)], Granularity.TASK) for i in window.hour_items
    ]


def _agents_with_backlog(session: Session, world_id: uuid.UUID) -> list[tuple[Agent, int]]:
    """The world's agents, each with its memories since its summary (up to the bound)."""
    count: sa.ColumnElement[int] = sa.literal_column(
        "(SELECT count(*) FROM (SELECT 1 FROM memories AS m WHERE m.agent_id = agents.id"
        " AND (agents.summary_at IS NULL OR m.created_at > agents.summary_at)"
        f" LIMIT {int(DEFAULT_MAX_NEW_MEMORIES)}) AS recent)"
    )
    query = sa.select(Agent, count).where(Agent.world_id == world_id).order_by(Agent.id)
    return [(agent, int(n)) for agent, n in session.execute(query)]


def _live_plans(
    session: Session, agent_ids: Sequence[uuid.UUID], now: datetime
) -> dict[uuid.UUID, list[PlanRow]]:
    """Live plan rows not over at `now`, per agent, in start order (Core rows: a sweep of a
    thousand agents reads tens of thousands, and an ORM object each cost a second)."""
    found: dict[uuid.UUID, list[PlanRow]] = {agent_id: [] for agent_id in agent_ids}
    if not agent_ids:
        return found
    query = (
        sa.select(*_PLAN_COLUMNS)
        .where(Plan.agent_id.in_(list(agent_ids)), Plan.status != "superseded")
        .where(Plan.start >= now - PLAN_REACH, Plan.start < now + PLAN_REACH, Plan.end > now)
        .order_by(Plan.agent_id, Plan.start, Plan.id)
    )
    for plan in session.execute(query):
        found[plan.agent_id].append(plan)
    return found
