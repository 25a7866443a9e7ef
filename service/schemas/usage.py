"""Model usage: calls, tokens and cost, in total and per agent and per operation."""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, Field

from service.schemas.common import GameTimeRead


class UsageFigures(BaseModel):
    calls: int
    tokens_in: int
    tokens_out: int
    cost_usd: Decimal = Field(description="from HEARTH_LLM_PRICES; 0 for the offline mind")
    errors: int
    degraded: int = Field(description="calls answered by the offline fallback")


class AgentUsage(UsageFigures):
    agent_id: str = Field(description="empty for world-level calls")
    agent: str


class OperationUsage(UsageFigures):
    operation: str
    model: str


class UsageReport(BaseModel):
    basis: Literal["game", "wall"]
    since: GameTimeRead | None = Field(description="as asked (an offset folded into UTC)")
    until: GameTimeRead | None
    total: UsageFigures
    by_agent: list[AgentUsage]
    by_operation: list[OperationUsage]


class UsageBucket(BaseModel):
    start: GameTimeRead = Field(description="game time the bucket starts (it lasts bucket_minutes)")
    total: UsageFigures
    by_agent: list[AgentUsage]
    by_operation: list[OperationUsage]


class UsageTimeline(BaseModel):
    """Usage per game-time bucket; buckets without calls are left out."""

    bucket_minutes: int
    since: GameTimeRead | None
    until: GameTimeRead | None
    buckets: list[UsageBucket]
