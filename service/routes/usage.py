"""What the world's minds cost: the `/usage` summary (the `llm_usage` view in SQL)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict
from datetime import UTC, datetime, time, timedelta
from typing import Annotated, Literal, TypeVar

from fastapi import APIRouter, Query
from sqlalchemy.orm import Session

from cognition.budget import Period
from db.budget import Budgets, WindowStatus, status
from db.models import World
from db.queries.usage import (
    Bucket,
    UsageRange,
    UsageRow,
    game_time_span,
    usage_by_agent,
    usage_by_focus,
    usage_by_operation,
    usage_over_time,
    usage_total,
)
from db.queries.worlds import wall_now
from service.deps import CurrentWorld, SessionDep, SettingsDep
from service.errors import ERROR_RESPONSES, ApiError
from service.schemas.common import GameTime
from service.schemas.usage import (
    AgentUsage,
    BudgetReport,
    FocusUsage,
    GameDayBudget,
    OperationUsage,
    UsageBucket,
    UsageFigures,
    UsageReport,
    UsageTimeline,
    WallHourBudget,
)
from service.schemas.worlds import ModelBudget

W = TypeVar("W", GameDayBudget, WallHourBudget)

router = APIRouter(prefix="/v1/worlds/{world_id}", tags=["usage"], responses=ERROR_RESPONSES)


def _figures(row: UsageRow) -> dict[str, object]:
    data = asdict(row)
    return {k: data[k] for k in UsageFigures.model_fields}


@router.get("/usage", response_model=UsageReport, summary="Model calls, tokens and cost")
def usage(
    world: CurrentWorld,
    session: SessionDep,
    settings: SettingsDep,
    basis: Literal["game", "wall"] = "game",
    since: GameTime | None = None,
    until: GameTime | None = None,
) -> UsageReport:
    """`basis=game` filters on the world's game time of each call, `wall` on when it was made
    (give wall times with an offset); `since` is inclusive, `until` exclusive. `budget` is the
    world's model budget now, whatever the range."""
    span = UsageRange(basis=basis, since=since, until=until)
    if basis == "wall":
        span = UsageRange(basis=basis, since=_aware(since), until=_aware(until))
    return UsageReport(
        basis=basis,
        since=since,
        until=until,
        total=UsageFigures.model_validate(_figures(usage_total(session, world.id, span))),
        by_agent=[_agent(r) for r in usage_by_agent(session, world.id, span)],
        by_operation=[_operation(r) for r in usage_by_operation(session, world.id, span)],
        by_focus=[_focus(r) for r in usage_by_focus(session, world.id, span)],
        budget=_budget(session, world, Budgets(settings)),
    )


def _budget(session: Session, world: World, budgets: Budgets) -> BudgetReport | None:
    budget = budgets.of(world)
    if not budget.periods:
        return None
    windows = {s.window.period: s for s in status(session, world, budget, wall_time=wall_now())}
    own = "budget" in (world.settings or {})
    return BudgetReport(
        source="world" if own else "default",
        limits=ModelBudget.model_validate(
            (world.settings or {}).get("budget") if own else budgets.settings.model_budget
        ),
        game_day=_window(GameDayBudget, windows.get(Period.GAME_DAY)),
        wall_hour=_window(WallHourBudget, windows.get(Period.WALL_HOUR)),
    )


def _window(kind: type[W], now: WindowStatus | None) -> W | None:
    if now is None:
        return None
    return kind(
        starts_at=now.window.start,
        resets_at=now.window.resets_at,
        limit_calls=now.limits.calls,
        limit_cost_usd=now.limits.cost_usd,
        spent_calls=now.spent.calls,
        spent_cost_usd=now.spent.cost_usd,
        remaining_calls=now.remaining_calls,
        remaining_cost_usd=now.remaining_cost_usd,
        answered_offline=now.spent.answered_offline,
        exhausted=now.exhausted,
    )


MAX_BUCKETS = 2000
"""Buckets one timeline may span: enough for a game month by the hour."""
DEFAULT_BUCKET_MINUTES = 60


@router.get(
    "/usage/timeline",
    response_model=UsageTimeline,
    summary="Model calls, tokens and cost per game-time bucket, by agent and operation",
)
def timeline(
    world: CurrentWorld,
    session: SessionDep,
    bucket_minutes: Annotated[int, Query(ge=1, le=7 * 24 * 60)] = DEFAULT_BUCKET_MINUTES,
    since: GameTime | None = None,
    until: GameTime | None = None,
) -> UsageTimeline:
    """Buckets start at `since` (or the first call's game time, floored to the bucket) and
    hold the calls of that game-time span; empty buckets are left out. Calls made outside any
    game time (none in practice) are not counted. At most MAX_BUCKETS buckets (422)."""
    span = UsageRange(basis="game", since=since, until=until)
    extent = game_time_span(session, world.id, span)
    bucket = timedelta(minutes=bucket_minutes)
    if extent is None:
        return UsageTimeline(bucket_minutes=bucket_minutes, since=since, until=until, buckets=[])
    origin = since or datetime.combine(extent[0].date(), time())
    if (extent[1] - origin) / bucket >= MAX_BUCKETS:
        raise ApiError(
            422,
            "validation_error",
            f"more than {MAX_BUCKETS} buckets: use larger buckets or a shorter range",
            field="query.bucket_minutes",
        )
    by_agent = usage_over_time(session, world.id, span, bucket=bucket, origin=origin, by="agent")
    by_operation = usage_over_time(
        session, world.id, span, bucket=bucket, origin=origin, by="operation"
    )
    return UsageTimeline(
        bucket_minutes=bucket_minutes,
        since=since,
        until=until,
        buckets=_buckets(by_agent, by_operation),
    )


def _buckets(by_agent: list[Bucket], by_operation: list[Bucket]) -> list[UsageBucket]:
    agents: dict[datetime, list[UsageRow]] = defaultdict(list)
    operations: dict[datetime, list[UsageRow]] = defaultdict(list)
    for item in by_agent:
        agents[item.start].append(item.row)
    for item in by_operation:
        operations[item.start].append(item.row)
    return [
        UsageBucket(
            start=start,
            total=_sum(rows),
            by_agent=[_agent(r) for r in agents[start]],
            by_operation=[_operation(r) for r in rows],
        )
        for start, rows in sorted(operations.items())
    ]


def _agent(row: UsageRow) -> AgentUsage:
    return AgentUsage.model_validate({"agent_id": row.key, "agent": row.label, **_figures(row)})


def _operation(row: UsageRow) -> OperationUsage:
    return OperationUsage.model_validate(
        {"operation": row.key, "model": row.label, **_figures(row)}
    )


def _focus(row: UsageRow) -> FocusUsage:
    return FocusUsage.model_validate({"focus": row.key, **_figures(row)})


def _sum(rows: list[UsageRow]) -> UsageFigures:
    totals = {name: sum(getattr(r, name) for r in rows) for name in UsageFigures.model_fields}
    return UsageFigures.model_validate(totals)


def _aware(value: datetime | None) -> datetime | None:
    """GameTime strips offsets into naive UTC; wall-time columns compare in UTC."""
    return value.replace(tzinfo=UTC) if value is not None else None
