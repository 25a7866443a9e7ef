"""Opaque cursors: the client passes back `next_cursor` unchanged; a tampered one is a 422.

A cursor is base64url of a short JSON list (the last row's sort key). Whatever a client sends
in its place — an empty value (the first page), a huge or deeply nested list, numbers beyond
bigint, text with NUL — is either the first page or a 422 on `query.cursor`, never a 500:
each value is read by a typed reader (`as_int`, `as_time`, `as_uuid`, `as_text`).
"""

from __future__ import annotations

import base64
import json
import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any, TypeVar

from fastapi import Query

from service.errors import ApiError
from service.schemas.common import MAX_CURSOR, MAX_ID

DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 500

Position = TypeVar("Position")

CursorQuery = Annotated[
    str | None,
    Query(
        max_length=MAX_CURSOR,
        pattern=r"^[A-Za-z0-9_=-]*$",
        description="`next_cursor` of the previous page; absent or empty: the first page",
    ),
]
LimitQuery = Annotated[int, Query(ge=1, le=MAX_PAGE_SIZE, description="items per page")]


def encode_cursor(values: list[Any]) -> str:
    raw = json.dumps(values, separators=(",", ":"), default=str).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str | None, parse: Callable[[list[Any]], Position]) -> Position | None:
    """The position a cursor encodes, via `parse`; anything malformed is the caller's 422."""
    if not cursor:
        return None
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        values = json.loads(base64.urlsafe_b64decode(padded.encode()))
        if not isinstance(values, list):
            raise TypeError("a cursor is a list")
        return parse(values)
    except (ValueError, TypeError, IndexError, KeyError, RecursionError, OverflowError):
        raise ApiError(
            422, "validation_error", "not a cursor from this API", field="query.cursor"
        ) from None


def as_int(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_ID:
        raise ValueError("not an id")
    return value


def as_time(value: object) -> datetime:
    """A time written by `datetime.isoformat` (game times naive, wall times with an offset)."""
    if not isinstance(value, str):
        raise TypeError("not a time")
    return datetime.fromisoformat(value)


def as_uuid(value: object) -> uuid.UUID:
    if not isinstance(value, str):
        raise TypeError("not a uuid")
    return uuid.UUID(value)


def as_text(value: object) -> str:
    if not isinstance(value, str) or "\x00" in value:
        raise ValueError("not a name")
    return value


def time_and_uuid(values: list[Any]) -> tuple[datetime, uuid.UUID]:
    """The (created_at, id) position of worlds and agents."""
    created, row_id = values
    return as_time(created), as_uuid(row_id)


def time_and_int(values: list[Any]) -> tuple[datetime, int]:
    """The (time, id) position of memories and conversations."""
    at, row_id = values
    return as_time(at), as_int(row_id)
