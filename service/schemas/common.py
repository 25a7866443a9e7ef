"""Types shared by every schema: game time, bounded text, pages."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Generic, TypeVar

from pydantic import AfterValidator, BaseModel, Field, StringConstraints

MAX_TEXT = 4000
"""Longest free text accepted in one field (a memory, a persona field, an utterance)."""
MAX_NAME = 200


def _naive_game_time(value: datetime) -> datetime:
    """Game time is a world's own calendar: an offset, if given, is folded into UTC and dropped."""
    if value.tzinfo is not None:
        return value.astimezone(UTC).replace(tzinfo=None)
    return value


GameTime = Annotated[datetime, AfterValidator(_naive_game_time)]
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_NAME)]
Text = Annotated[str, StringConstraints(max_length=MAX_TEXT)]
RequiredText = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_TEXT)
]

Item = TypeVar("Item")


class Page(BaseModel, Generic[Item]):
    """A cursor page: pass `next_cursor` back as `cursor`; null means this was the last page."""

    items: list[Item]
    next_cursor: str | None = Field(None, description="opaque; null on the last page")
