"""Model usage: calls, tokens and cost, in total and per agent and per operation."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, Field

from service.schemas.common import GameTimeRead
from service.schemas.worlds import ModelBudget


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


class FocusUsage(UsageFigures):
    focus: Literal["focused", "unfocused", "none"] = Field(
        description="calls for agents the game marked in focus, out of it, or for none (calls "
        "made before focus was recorded); a player's chat and an interview count as focused"
    )


class BudgetWindow(BaseModel):
    """One budget window under way: its limits, what was spent, what is left."""

    limit_calls: int | None = Field(description="null: no limit on calls")
    limit_cost_usd: Decimal | None = Field(description="null: no limit on cost")
    spent_calls: int = Field(description="calls admitted to the model in this window")
    spent_cost_usd: Decimal
    remaining_calls: int | None
    remaining_cost_usd: Decimal | None
    answered_offline: int = Field(
        description="calls the offline mind answered because this window's limit was reached"
    )
    exhausted: bool = Field(
        description="a limit is reached: the offline mind answers until `resets_at`"
    )


class GameDayBudget(BudgetWindow):
    starts_at: GameTimeRead = Field(description="midnight of the world's game day")
    resets_at: GameTimeRead = Field(description="the next game midnight")


class WallHourBudget(BudgetWindow):
    starts_at: datetime = Field(description="the wall-clock hour under way (UTC)")
    resets_at: datetime


class BudgetReport(BaseModel):
    """The world's model budget now: its limits and the windows under way."""

    source: Literal["world", "default"] = Field(
        description="the world's own budget, or HEARTH_MODEL_BUDGET (it set none)"
    )
    limits: ModelBudget
    game_day: GameDayBudget | None = Field(description="null: no limit per game day")
    wall_hour: WallHourBudget | None = Field(description="null: no limit per wall hour")


class UsageReport(BaseModel):
    basis: Literal["game", "wall"]
    since: GameTimeRead | None = Field(description="as asked (an offset folded into UTC)")
    until: GameTimeRead | None
    total: UsageFigures
    by_agent: list[AgentUsage]
    by_operation: list[OperationUsage]
    by_focus: list[FocusUsage] = Field(
        description="the same calls by focus (`in_focus`, `settings.mind_focus`): under "
        "`focused`, the unfocused agents' calls are the offline mind's"
    )
    budget: BudgetReport | None = Field(
        description="null: the world's model calls are not limited (`settings.budget`)"
    )


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
