"""Model calls → `llm_calls` rows, written in their own transaction.

A task that fails and rolls back still spent the tokens, so its calls are recorded apart from
its work: the sink buffers records, and `recorded_calls` writes them on the way out, success
or failure, and counts them in the process's metrics (`db.metrics`).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from decimal import Decimal

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from cognition.mind import ListAudit
from cognition.types import CallRecord
from db.metrics import metrics
from db.models import LlmCall


def call_row(
    call: CallRecord,
    *,
    world_id: uuid.UUID | None,
    agent_id: uuid.UUID | None,
    game_time: datetime | None,
) -> dict[str, object]:
    return {
        "world_id": world_id,
        "agent_id": agent_id,
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
        "game_time": game_time,
    }


@contextmanager
def recorded_calls(
    sessions: sessionmaker[Session],
    *,
    world_id: uuid.UUID | None,
    agent_id: uuid.UUID | None,
    game_time: datetime | None,
) -> Iterator[ListAudit]:
    """Yield a sink for a unit of work; its calls are committed when the block exits."""
    sink = ListAudit()
    try:
        yield sink
    finally:
        count_calls(sink.calls)
        if sink.calls:
            rows = [
                call_row(c, world_id=world_id, agent_id=agent_id, game_time=game_time)
                for c in sink.calls
            ]
            with sessions.begin() as session:
                session.execute(sa.insert(LlmCall), rows)


def count_calls(calls: Sequence[CallRecord]) -> None:
    """Model calls, tokens, cost and fallbacks by operation, for `/metrics`."""
    m = metrics()
    for call in calls:
        m.model_calls.labels(call.operation, call.model, "error" if call.error else "ok").inc()
        if call.tokens_in:
            m.model_tokens.labels(call.operation, "in").inc(call.tokens_in)
        if call.tokens_out:
            m.model_tokens.labels(call.operation, "out").inc(call.tokens_out)
        if call.cost_usd:
            m.model_cost.labels(call.operation).inc(call.cost_usd)
        if call.degraded:
            m.model_fallbacks.labels(call.operation).inc()
