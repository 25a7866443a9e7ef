"""The spend of a world's budget windows: admit one call, add its cost, read the windows.

`admit` is the check before every model call, so it is three short statements on the primary
key: make sure each window's row exists, lock the rows in a fixed order, then count the call in
every window (or, when one is full, count an offline answer in the full ones). Under the row
locks two processes take turns, so no window ever admits more calls than its limit.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from cognition.budget import Limits, Period, Window, next_game_day
from db.models import BudgetSpend


@dataclass(frozen=True)
class Spent:
    """One window's figures."""

    calls: int = 0
    cost_usd: Decimal = Decimal(0)
    answered_offline: int = 0


def stored_start(window: Window) -> datetime:
    """The column holds both kinds of start without a zone: an hour's in UTC."""
    if window.start.tzinfo is None:
        return window.start
    return window.start.astimezone(UTC).replace(tzinfo=None)


def _keys(world_id: uuid.UUID, windows: Sequence[Window]) -> sa.ColumnElement[bool]:
    pairs = [(w.period.value, stored_start(w)) for w in windows]
    return sa.and_(
        BudgetSpend.world_id == world_id,
        sa.tuple_(BudgetSpend.period, BudgetSpend.window_start).in_(pairs),
    )


def game_day(session: Session, world_id: uuid.UUID, wanted: Window, wall: datetime) -> Window:
    """The game-day window a call at `wanted` counts in (`cognition.budget.next_game_day`):
    never one before the world's latest, and a later one only an hour after it opened."""
    latest = session.execute(
        sa.select(BudgetSpend.window_start, BudgetSpend.opened_at)
        .where(BudgetSpend.world_id == world_id, BudgetSpend.period == Period.GAME_DAY.value)
        .order_by(BudgetSpend.window_start.desc())
        .limit(1)
    ).first()
    if latest is None:
        return wanted
    return next_game_day(
        wanted,
        Window(Period.GAME_DAY, latest.window_start),
        opened_at=latest.opened_at,
        wall_time=wall,
    )


def admit(
    session: Session,
    world_id: uuid.UUID,
    limits: Sequence[tuple[Window, Limits]],
    *,
    wall: datetime | None = None,
) -> list[Window]:
    """Count one call in every window if each has room; else count an offline answer in the
    full ones and return them (nothing else changes)."""
    windows = sorted((w for w, _ in limits), key=lambda w: w.period.value)
    opened = {"opened_at": wall} if wall is not None else {}
    rows = [
        {"world_id": world_id, "period": w.period.value, "window_start": stored_start(w), **opened}
        for w in windows
    ]
    session.execute(insert(BudgetSpend).values(rows).on_conflict_do_nothing())
    locked = session.execute(
        sa.select(BudgetSpend.period, BudgetSpend.calls, BudgetSpend.cost_usd)
        .where(_keys(world_id, windows))
        .order_by(BudgetSpend.period)
        .with_for_update()
    ).all()
    spent = {Period(r.period): r for r in locked}
    full = [
        w
        for w, limit in limits
        if not limit.room(calls=spent[w.period].calls, cost_usd=float(spent[w.period].cost_usd))
    ]
    if full:
        counted = {BudgetSpend.answered_offline: BudgetSpend.answered_offline + 1}
        session.execute(sa.update(BudgetSpend).where(_keys(world_id, full)).values(counted))
        return full
    calls = {BudgetSpend.calls: BudgetSpend.calls + 1}
    session.execute(sa.update(BudgetSpend).where(_keys(world_id, windows)).values(calls))
    return []


def add_cost(
    session: Session, world_id: uuid.UUID, windows: Sequence[Window], cost_usd: Decimal
) -> None:
    """What an admitted call cost, added to the windows it was admitted in."""
    added = {BudgetSpend.cost_usd: BudgetSpend.cost_usd + cost_usd}
    session.execute(sa.update(BudgetSpend).where(_keys(world_id, windows)).values(added))


def spent(session: Session, world_id: uuid.UUID, windows: Sequence[Window]) -> dict[Period, Spent]:
    """The figures of these windows (a window nothing was spent in is all zeros)."""
    if not windows:
        return {}
    rows = session.execute(sa.select(BudgetSpend).where(_keys(world_id, windows))).scalars()
    found = {
        Period(r.period): Spent(r.calls, Decimal(r.cost_usd), r.answered_offline) for r in rows
    }
    return {w.period: found.get(w.period, Spent()) for w in windows}
