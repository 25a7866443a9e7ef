"""An agent's plan for a day: the outline, its hour chunks and tasks, and the current action."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Query

from db.models import Plan
from db.queries.plans import PlanNode, current_action, day_tree, status_at
from db.queries.worlds import game_now
from service.deps import CurrentAgent, CurrentWorld, SessionDep
from service.errors import ERROR_RESPONSES
from service.schemas.common import GameDay
from service.schemas.plans import PlanDay, PlanNodeRead

router = APIRouter(
    prefix="/v1/worlds/{world_id}/agents/{agent_id}", tags=["plans"], responses=ERROR_RESPONSES
)


PLAN_FIELDS = (
    "id",
    "level",
    "start",
    "duration_min",
    "location",
    "description",
    "emoji",
    "object_state",
    "superseded_by",
    "stand_in",
)


def node_read(plan: Plan, now: datetime, children: list[PlanNodeRead]) -> PlanNodeRead:
    fields = {name: getattr(plan, name) for name in PLAN_FIELDS}
    return PlanNodeRead.model_validate(
        {**fields, "status": status_at(plan, now), "children": children}
    )


def tree_read(node: PlanNode, now: datetime) -> PlanNodeRead:
    return node_read(node.plan, now, [tree_read(child, now) for child in node.children])


@router.get("/plans", response_model=PlanDay, summary="The plan tree of a game day")
def plans(
    world: CurrentWorld,
    agent: CurrentAgent,
    session: SessionDep,
    day: Annotated[GameDay | None, Query(description="default: the world's game day")] = None,
) -> PlanDay:
    """`day` defaults to the world's current game day; superseded plans are kept and shown."""
    now = game_now(world)
    roots = day_tree(session, agent_id=agent.id, day=day or now.date())
    current = current_action(session, agent_id=agent.id, at=now)
    return PlanDay(
        day=day or now.date(),
        now=now,
        items=[tree_read(r, now) for r in roots],
        current_action=node_read(current, now, []) if current is not None else None,
    )
