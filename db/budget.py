"""A world's model budget, metered in the database for every process that calls a model.

`Budgets.meter(sink, …)` wraps the audit sink of one unit of work (a job, a chat, an enrichment
batch) for one world: the LLM mind asks its `admit` before each call, which counts the call in
each of the world's windows in its own short transaction (`db.queries.budget.admit`: the rows
locked in a fixed order, so any number of API and worker processes never admit more calls
than a limit) or raises `OverBudget`, and the offline mind answers. Each record with a cost is
added to the windows its call was admitted in. A world with no limit is not metered at all.

Cost is known only after a call: a call starts while the window's cost is below its limit, so
the calls in flight when the limit is reached may overshoot it, each by its own cost (at most
the processes' concurrent calls to the model, `HEARTH_LLM_MAX_CONCURRENCY` each). Calls never
overshoot.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal

from sqlalchemy.orm import Session, sessionmaker

from cognition.budget import Budget, Limits, Period, Window, window
from cognition.errors import OverBudget
from cognition.mind import AuditSink, Finish
from cognition.types import CallRecord
from db.models import World
from db.queries import budget as queries
from db.queries.budget import Spent
from db.queries.worlds import game_now, model_budget, wall_now
from db.settings import Settings

WallClock = Callable[[], datetime]
"""The wall time (aware) a process reads its budget windows by; tests move it."""


class MeteredAudit:
    """An audit sink whose `admit` spends the world's budget (see the module docstring)."""

    def __init__(
        self,
        inner: AuditSink,
        *,
        sessions: sessionmaker[Session],
        world_id: uuid.UUID,
        budget: Budget,
        game_time: datetime,
        clock: WallClock,
    ) -> None:
        self._inner = inner
        self._sessions = sessions
        self._world_id = world_id
        self._budget = budget
        self._game_time = game_time
        self._clock = clock
        self._admitted: list[Window] = []

    def admit(self, operation: str) -> None:
        self._inner.admit(operation)
        wall = self._clock()
        with self._sessions.begin() as session:
            limits = [
                (_window(session, self._world_id, p, self._game_time, wall), self._budget.limits(p))
                for p in self._budget.periods
            ]
            full = queries.admit(session, self._world_id, limits, wall=wall)
        if full:
            raise OverBudget(_refusal(self._budget, full))
        self._admitted = [w for w, _ in limits]

    def record(self, call: CallRecord) -> None:
        self._inner.record(call)
        self._spend(call)

    def begin(self, operation: str, model: str, prompt: str | None) -> Finish:
        finish = self._inner.begin(operation, model, prompt)

        def finished(call: CallRecord) -> None:
            finish(call)
            self._spend(call)

        return finished

    def _spend(self, call: CallRecord) -> None:
        if call.cost_usd > 0 and self._admitted:
            cost = Decimal(str(round(call.cost_usd, 6)))
            with self._sessions.begin() as session:
                queries.add_cost(session, self._world_id, self._admitted, cost)


@dataclass(frozen=True)
class Budgets:
    """How a process meters its worlds' budgets: the default for a world without its own
    (HEARTH_MODEL_BUDGET), and the wall clock its windows are read by."""

    settings: Settings
    clock: WallClock = field(default=wall_now)

    def of(self, world: World) -> Budget:
        return model_budget(world, self.settings)

    def meter(
        self,
        sink: AuditSink,
        *,
        sessions: sessionmaker[Session],
        world_id: uuid.UUID,
        budget: Budget,
        game_time: datetime,
    ) -> AuditSink:
        """`sink`, metering the world's budget; `sink` itself when the budget limits nothing."""
        if not budget.periods:
            return sink
        return MeteredAudit(
            sink,
            sessions=sessions,
            world_id=world_id,
            budget=budget,
            game_time=game_time,
            clock=self.clock,
        )


@dataclass(frozen=True)
class WindowStatus:
    """A window under way, its limits and what was spent in it (for `GET …/usage`)."""

    window: Window
    limits: Limits
    spent: Spent

    @property
    def remaining_calls(self) -> int | None:
        limit = self.limits.calls
        return None if limit is None else max(limit - self.spent.calls, 0)

    @property
    def remaining_cost_usd(self) -> Decimal | None:
        limit = self.limits.cost_usd
        return None if limit is None else max(Decimal(str(limit)) - self.spent.cost_usd, Decimal(0))

    @property
    def exhausted(self) -> bool:
        """A limit is reached: the offline mind answers until the window resets."""
        return not self.limits.room(calls=self.spent.calls, cost_usd=float(self.spent.cost_usd))


def status(
    session: Session, world: World, budget: Budget, *, wall_time: datetime
) -> list[WindowStatus]:
    """The world's windows under way now (its game day, the wall hour), one per bounded period."""
    now = game_now(world)
    windows = [_window(session, world.id, p, now, wall_time) for p in budget.periods]
    spent = queries.spent(session, world.id, windows)
    return [WindowStatus(w, budget.limits(w.period), spent[w.period]) for w in windows]


def _window(
    session: Session, world_id: uuid.UUID, period: Period, game_time: datetime, wall: datetime
) -> Window:
    """The window of `period` a call counts in now; a game day's as `queries.game_day` rules."""
    wanted = window(period, game_time=game_time, wall_time=wall)
    if period is Period.GAME_DAY:
        return queries.game_day(session, world_id, wanted, wall)
    return wanted


def _refusal(budget: Budget, full: list[Window]) -> str:
    spent = "; ".join(
        f"{budget.limits(w.period).describe(w.period)} until {w.resets_at.isoformat()}"
        for w in full
    )
    return f"the world's model budget is spent: {spent}"
