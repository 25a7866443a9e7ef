"""What the world's minds cost: the `/usage` summary (the `llm_usage` view in SQL)."""

from __future__ import annotations

from dataclasses import asdict
from datetime import UTC, datetime
from typing import Literal

from fastapi import APIRouter

from db.queries.usage import (
    UsageRange,
    UsageRow,
    usage_by_agent,
    usage_by_operation,
    usage_total,
)
from service.deps import CurrentWorld, SessionDep
from service.errors import ERROR_RESPONSES
from service.schemas.common import GameTime
from service.schemas.usage import AgentUsage, OperationUsage, UsageFigures, UsageReport

router = APIRouter(prefix="/v1/worlds/{world_id}", tags=["usage"], responses=ERROR_RESPONSES)


def _figures(row: UsageRow) -> dict[str, object]:
    data = asdict(row)
    return {k: data[k] for k in UsageFigures.model_fields}


@router.get("/usage", response_model=UsageReport, summary="Model calls, tokens and cost")
def usage(
    world: CurrentWorld,
    session: SessionDep,
    basis: Literal["game", "wall"] = "game",
    since: GameTime | None = None,
    until: GameTime | None = None,
) -> UsageReport:
    """`basis=game` filters on the world's game time of each call, `wall` on when it was made
    (give wall times with an offset); `since` is inclusive, `until` exclusive."""
    span = UsageRange(basis=basis, since=since, until=until)
    if basis == "wall":
        span = UsageRange(basis=basis, since=_aware(since), until=_aware(until))
    return UsageReport(
        basis=basis, since=since, until=until,
        total=UsageFigures.model_validate(_figures(usage_total(session, world.id, span))),
        by_agent=[AgentUsage.model_validate({"agent_id": r.key, "agent": r.label, **_figures(r)})
                  for r in usage_by_agent(session, world.id, span)],
        by_operation=[
            OperationUsage.model_validate({"operation": r.key, "model": r.label, **_figures(r)})
            for r in usage_by_operation(session, world.id, span)
        ],
    )  # fmt: skip


def _aware(value: datetime | None) -> datetime | None:
    """GameTime strips offsets into naive UTC; wall-time columns compare in UTC."""
    return value.replace(tzinfo=UTC) if value is not None else None
