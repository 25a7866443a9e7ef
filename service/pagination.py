"""Opaque cursors: the client passes back `next_cursor` unchanged; a tampered one is a 422."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from typing import Any, TypeVar

from service.errors import ApiError

DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 500

Position = TypeVar("Position")


def encode_cursor(values: list[Any]) -> str:
    raw = json.dumps(values, separators=(",", ":"), default=str).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str | None, parse: Callable[[list[Any]], Position]) -> Position | None:
    """The position a cursor encodes, via `parse`; anything malformed is the caller's 422."""
    if cursor is None:
        return None
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        values = json.loads(base64.urlsafe_b64decode(padded.encode()))
        if not isinstance(values, list):
            raise TypeError("a cursor is a list")
        return parse(values)
    except (ValueError, TypeError, IndexError, KeyError, UnicodeDecodeError):
        raise ApiError(
            422, "validation_error", "not a cursor from this API", field="query.cursor"
        ) from None
