"""The values of an imported row, typed and bounded as the API bounds what it writes.

An export file is input like any request: a row whose value does not fit its column (an
object for a description, a list for an id, a year 9999, a number past its integer type, a
name longer than its `String(n)`, NaN) is refused with `BadValue` naming the table and column
before anything is written, instead of surfacing as a driver error (a 500) or as a value the
API itself refuses (a clock at year 9999 overflows the planner's arithmetic).
"""

from __future__ import annotations

import math
import uuid
from datetime import UTC, date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

import sqlalchemy as sa
from pgvector.sqlalchemy import Vector
from sqlalchemy.dialects.postgresql import JSONB

from cognition import game_time

INTEGER_RANGE = {
    sa.SmallInteger: 2**15 - 1,
    sa.BigInteger: 2**63 - 1,
    sa.Integer: 2**31 - 1,
}
"""Largest magnitude per integer type, most specific first (BigInteger is an Integer)."""
MAX_JSON_DEPTH = 16
"""As deep as free-form JSON the API accepts (`service.schemas.common.MAX_JSON_DEPTH`)."""
MAX_VECTOR = 16_000
"""pgvector's largest dimension."""


class BadValue(ValueError):
    """A row's value that its column cannot take; `column` is `table.column`."""

    def __init__(self, column: sa.Column[Any], reason: str) -> None:
        self.column = f"{column.table.name}.{column.name}"
        super().__init__(f"{self.column}: {reason}")


def typed(column: sa.Column[Any], value: Any) -> Any:
    """`value` as the column takes it, or BadValue."""
    if value is None:
        return None
    try:
        return _typed(column.type, value)
    except (ValueError, TypeError, InvalidOperation, OverflowError) as exc:
        raise BadValue(column, str(exc) or type(exc).__name__) from None


def _typed(kind: sa.types.TypeEngine[Any], value: Any) -> Any:
    if isinstance(kind, sa.Uuid):
        return uuid.UUID(_text(value))
    if isinstance(kind, sa.DateTime):
        return _moment(datetime.fromisoformat(_text(value)))
    if isinstance(kind, sa.Date):
        day = date.fromisoformat(_text(value))
        _moment(datetime.combine(day, datetime.min.time()))
        return day
    if isinstance(kind, sa.Boolean):
        if not isinstance(value, bool):
            raise TypeError("a JSON boolean")
        return value
    if isinstance(kind, sa.Integer):
        return _integer(kind, value)
    if isinstance(kind, sa.Numeric) and not isinstance(kind, sa.Float):
        return _decimal(value)
    if isinstance(kind, sa.Float):
        return _number(value)
    if isinstance(kind, sa.String):
        text = _text(value)
        if kind.length is not None and len(text) > kind.length:
            raise ValueError(f"at most {kind.length} characters")
        return text
    if isinstance(kind, JSONB | sa.JSON):
        return _json(value)
    if isinstance(kind, Vector):
        return _vector(value)
    raise TypeError(f"no import rule for {kind!r}")


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError("a JSON string")
    if "\x00" in value:
        raise ValueError("no NUL character")
    return value


def _moment(moment: datetime) -> datetime:
    naive = moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment
    if not game_time.within(naive):
        raise ValueError(f"must lie in {game_time.SPAN_TEXT}")
    return moment


def _integer(kind: sa.Integer, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("a JSON integer")
    bound = next(b for t, b in INTEGER_RANGE.items() if isinstance(kind, t))
    if abs(value) > bound:
        raise ValueError(f"out of range (±{bound})")
    return value


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError("a JSON number")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError("a finite number")
    return number


def _decimal(value: Any) -> Decimal:
    """An exact amount: exported as a string of digits ("0.001250"), or a number."""
    amount = Decimal(_text(value)) if isinstance(value, str) else Decimal(str(_number(value)))
    if not amount.is_finite():
        raise ValueError("a finite amount")
    return amount


def _json(value: Any) -> Any:
    """Free-form JSON as the API takes it: no NUL anywhere, at most MAX_JSON_DEPTH deep."""
    pending = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if depth > MAX_JSON_DEPTH:
            raise ValueError(f"nested deeper than {MAX_JSON_DEPTH} levels")
        if isinstance(item, str) and "\x00" in item:
            raise ValueError("no NUL character inside")
        if isinstance(item, float) and not math.isfinite(item):
            raise ValueError("finite numbers inside")
        if isinstance(item, dict):
            pending += [(k, depth + 1) for k in item] + [(v, depth + 1) for v in item.values()]
        elif isinstance(item, list):
            pending += [(v, depth + 1) for v in item]
    return value


def _vector(value: Any) -> list[float]:
    if not isinstance(value, list) or not 0 < len(value) <= MAX_VECTOR:
        raise TypeError(f"a list of 1 to {MAX_VECTOR} numbers")
    return [_number(x) for x in value]
