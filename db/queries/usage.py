"""Model usage summaries for a world: calls, tokens and cost per agent and per operation.

Reads the same `llm_calls` rows the analyst view `llm_usage` shows, so the API and SQL agree.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from db.models import Agent, LlmCall


@dataclass(frozen=True)
class UsageRow:
    key: str
    label: str
    calls: int
    tokens_in: int
    tokens_out: int
    cost_usd: Decimal
    errors: int
    degraded: int


@dataclass(frozen=True)
class UsageRange:
    """Bounds on game time (`game_time`) or wall time (`created_at`), each optional."""

    basis: str = "game"
    since: datetime | None = None
    until: datetime | None = None


def _totals() -> list[Any]:
    return [
        sa.func.count().label("calls"),
        sa.func.coalesce(sa.func.sum(LlmCall.tokens_in), 0).label("tokens_in"),
        sa.func.coalesce(sa.func.sum(LlmCall.tokens_out), 0).label("tokens_out"),
        sa.func.coalesce(sa.func.sum(LlmCall.cost_usd), 0).label("cost_usd"),
        sa.func.count().filter(LlmCall.error.is_not(None)).label("errors"),
        sa.func.count().filter(LlmCall.degraded).label("degraded"),
    ]


def _where(world_id: uuid.UUID, span: UsageRange) -> list[Any]:
    column = LlmCall.game_time if span.basis == "game" else LlmCall.created_at
    clauses: list[Any] = [LlmCall.world_id == world_id]
    if span.since is not None:
        clauses.append(column >= span.since)
    if span.until is not None:
        clauses.append(column < span.until)
    return clauses


def _row(key: str, label: str, r: Any) -> UsageRow:
    return UsageRow(
        key=key,
        label=label,
        calls=r.calls,
        tokens_in=r.tokens_in,
        tokens_out=r.tokens_out,
        cost_usd=Decimal(r.cost_usd),
        errors=r.errors,
        degraded=r.degraded,
    )


def usage_by_agent(session: Session, world_id: uuid.UUID, span: UsageRange) -> list[UsageRow]:
    query = (
        sa.select(LlmCall.agent_id, Agent.name, *_totals())
        .outerjoin(Agent, Agent.id == LlmCall.agent_id)
        .where(*_where(world_id, span))
        .group_by(LlmCall.agent_id, Agent.name)
        .order_by(sa.desc("calls"), Agent.name)
    )
    return [_row(str(r.agent_id or ""), r.name or "(world)", r) for r in session.execute(query)]


def usage_by_operation(session: Session, world_id: uuid.UUID, span: UsageRange) -> list[UsageRow]:
    query = (
        sa.select(LlmCall.operation, LlmCall.model, *_totals())
        .where(*_where(world_id, span))
        .group_by(LlmCall.operation, LlmCall.model)
        .order_by(sa.desc("calls"), LlmCall.operation)
    )
    return [_row(r.operation, r.model, r) for r in session.execute(query)]


NO_FOCUS = "none"
"""The focus of calls made for no agent's focus (and of every call made before issue 22)."""


def usage_by_focus(session: Session, world_id: uuid.UUID, span: UsageRange) -> list[UsageRow]:
    """Calls for agents in focus, out of it, and for none (`cognition.focus`), in that order."""
    focus = sa.func.coalesce(LlmCall.focus, NO_FOCUS)
    query = (
        sa.select(focus.label("focus"), *_totals())
        .where(*_where(world_id, span))
        .group_by(focus)
        .order_by(focus)
    )
    return [_row(r.focus, r.focus, r) for r in session.execute(query)]


def usage_total(session: Session, world_id: uuid.UUID, span: UsageRange) -> UsageRow:
    row = session.execute(sa.select(*_totals()).where(*_where(world_id, span))).one()
    return _row("total", "total", row)


@dataclass(frozen=True)
class Bucket:
    """The calls of one game-time bucket for one key (an operation, or an agent)."""

    start: datetime
    row: UsageRow


def game_time_span(
    session: Session, world_id: uuid.UUID, span: UsageRange
) -> tuple[datetime, datetime] | None:
    """The first and last game time of the world's calls in `span` (None when there are none)."""
    query = sa.select(sa.func.min(LlmCall.game_time), sa.func.max(LlmCall.game_time)).where(
        *_where(world_id, span), LlmCall.game_time.is_not(None)
    )
    first, last = session.execute(query).one()
    return (first, last) if first is not None and last is not None else None


def usage_over_time(
    session: Session,
    world_id: uuid.UUID,
    span: UsageRange,
    *,
    bucket: timedelta,
    origin: datetime,
    by: str,
) -> list[Bucket]:
    """Figures per game-time bucket (`date_bin` from `origin`) and per operation or agent
    (`by`), in bucket order; calls with no game time are not in any bucket."""
    start = sa.func.date_bin(sa.literal(bucket, sa.Interval), LlmCall.game_time, origin)
    key: list[Any] = [LlmCall.operation, LlmCall.model]
    query = sa.select(start.label("start"), *key, *_totals())
    if by == "agent":
        key = [LlmCall.agent_id, Agent.name]
        query = sa.select(start.label("start"), *key, *_totals()).outerjoin(
            Agent, Agent.id == LlmCall.agent_id
        )
    query = (
        query.where(*_where(world_id, span), LlmCall.game_time.is_not(None))
        .group_by(start, *key)
        .order_by(start, *key)
    )
    rows = session.execute(query)
    if by == "agent":
        return [Bucket(r.start, _row(str(r.agent_id or ""), r.name or "(world)", r)) for r in rows]
    return [Bucket(r.start, _row(r.operation, r.model, r)) for r in rows]
