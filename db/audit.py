"""Model calls → `llm_calls` rows, written in their own transactions.

A task that fails and rolls back still spent the tokens, so its calls are recorded apart from
its work. A call to a model endpoint is written before it is made and finished after (a job
killed during it leaves the row, `finished_at` NULL); offline answers and fallbacks are
buffered and written as the unit of work ends, success or failure (`recorded_calls`). Every
call is counted in the process's metrics (`db.metrics`).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from cognition.focus import Focus
from cognition.mind import Finish
from cognition.types import CallRecord
from db.metrics import metrics
from db.models import LlmCall


@dataclass(frozen=True)
class CallContext:
    """Where a unit of work's calls belong: its world, its agent, the game time, and whether
    it was for agents in focus (`cognition.focus`)."""

    world_id: uuid.UUID | None
    agent_id: uuid.UUID | None
    game_time: datetime | None
    focus: Focus = Focus.NONE

    @property
    def focus_column(self) -> str | None:
        return None if self.focus is Focus.NONE else self.focus.value

    def row(self, call: CallRecord) -> dict[str, object]:
        """The `llm_calls` row of a call that came back."""
        return {
            "world_id": self.world_id,
            "agent_id": self.agent_id,
            "game_time": self.game_time,
            "focus": self.focus_column,
            "operation": call.operation,
            "model": call.model,
            "tokens_in": call.tokens_in,
            "tokens_out": call.tokens_out,
            "latency_ms": call.latency_ms,
            "cost_usd": Decimal(str(round(call.cost_usd, 6))),
            "error": call.error,
            "degraded": call.degraded,
            "prompt": call.prompt,
            "response": call.response,
        }


class DatabaseAudit:
    """The audit sink of one unit of work. A call to a model endpoint is written before it is
    made (`begin`: its own transaction, `finished_at` NULL) and finished when it comes back, so
    a job killed during the call leaves a row that says it never came back. Calls reported
    whole (offline answers, fallbacks) are kept and written together by `flush`."""

    def __init__(self, sessions: sessionmaker[Session], context: CallContext) -> None:
        self.sessions = sessions
        self.context = context
        self.calls: list[CallRecord] = []
        self._unwritten: list[CallRecord] = []

    def record(self, call: CallRecord) -> None:
        self.calls.append(call)
        self._unwritten.append(call)

    def begin(self, operation: str, model: str, prompt: str | None) -> Finish:
        c = self.context
        announced = sa.insert(LlmCall).values(
            world_id=c.world_id,
            agent_id=c.agent_id,
            game_time=c.game_time,
            focus=c.focus_column,
            operation=operation,
            model=model,
            prompt=prompt,
        )
        with self.sessions.begin() as session:
            row_id = session.scalar(announced.returning(LlmCall.id))

        def finish(call: CallRecord) -> None:
            self.calls.append(call)
            with self.sessions.begin() as session:
                update = sa.update(LlmCall).where(LlmCall.id == row_id)
                session.execute(update.values(finished_at=sa.func.now(), **self.context.row(call)))

        return finish

    def admit(self, operation: str) -> None:
        """Every call is admitted here; a world's budget wraps this sink (`db.budget`)."""
        return None

    def flush(self) -> None:
        """Write the calls reported whole, and count every call in the process's metrics."""
        count_calls(self.calls, focus=self.context.focus)
        if self._unwritten:
            rows = [self.context.row(call) for call in self._unwritten]
            with self.sessions.begin() as session:
                session.execute(sa.insert(LlmCall).values(finished_at=sa.func.now()), rows)
        self.calls, self._unwritten = [], []


@contextmanager
def recorded_calls(
    sessions: sessionmaker[Session],
    *,
    world_id: uuid.UUID | None,
    agent_id: uuid.UUID | None,
    game_time: datetime | None,
    focus: Focus = Focus.NONE,
) -> Iterator[DatabaseAudit]:
    """Yield the sink of a unit of work; what it has not written yet is written when the block
    exits, success or failure."""
    context = CallContext(world_id=world_id, agent_id=agent_id, game_time=game_time, focus=focus)
    sink = DatabaseAudit(sessions, context)
    try:
        yield sink
    finally:
        sink.flush()


def count_calls(calls: Sequence[CallRecord], *, focus: Focus = Focus.NONE) -> None:
    """Model calls, tokens, cost and fallbacks by operation, for `/metrics`; calls also by
    focus (`cognition.focus`)."""
    m = metrics()
    for call in calls:
        outcome = "error" if call.error else "ok"
        m.model_calls.labels(call.operation, call.model, outcome, focus.value).inc()
        if call.tokens_in:
            m.model_tokens.labels(call.operation, "in").inc(call.tokens_in)
        if call.tokens_out:
            m.model_tokens.labels(call.operation, "out").inc(call.tokens_out)
        if call.cost_usd:
            m.model_cost.labels(call.operation).inc(call.cost_usd)
        if call.degraded:
            m.model_fallbacks.labels(call.operation).inc()
