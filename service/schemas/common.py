"""Types shared by every schema: game time, bounded text, pages, the strict request base.

Every rule a request must follow is in the schema itself, so the OpenAPI document tells the
truth and a fuzzer's "valid" request is one the API accepts:

- **Text never holds a NUL** (`\\u0000`): PostgreSQL cannot store it, so it is refused (422
  naming the field), never stripped. Each string type carries the pattern that says so.
- **A required name or text has a visible character**: the pattern asks for one, so "   "
  fails the schema instead of being refused after stripping. Surrounding whitespace is then
  stripped (Python's `str.strip`, which never empties a value that passed the pattern).
- **Game times are naive ISO 8601** (`2023-02-13T07:00:00`, no offset: a world's calendar is
  its own) within `cognition.game_time`'s span; an offset, if a client sends one, is folded
  into UTC and dropped. Wall times (`created_at` of rows) are RFC 3339 with an offset.
- **Unknown fields are refused** (`RequestModel`, `extra="forbid"`): a misspelt field is a 422,
  not a silent no-op.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from typing import Annotated, Any, Generic, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    Strict,
    StringConstraints,
    WithJsonSchema,
)

from cognition import game_time

MAX_TEXT = 4000
"""Longest free text accepted in one field (a memory, a persona field, an utterance)."""
MAX_NAME = 200
MAX_ID = 2**63 - 1
"""Largest id a client may name (PostgreSQL's bigint)."""
MAX_CURSOR = 1000
"""Longest cursor accepted; ours are well under 200 characters."""

NO_NUL = r"^[^\x00]*$"
"""Any text without a NUL character."""
_VISIBLE = r"[^\s\x00-\x1f\x7f-\x9f\uFEFF]"
"""A character that is neither whitespace nor a control: what makes a value non-blank."""
NON_BLANK = rf"^[^\x00]*{_VISIBLE}[^\x00]*$"
"""Text without NUL holding at least one visible character."""


def _strip(value: str) -> str:
    return value.strip()


def non_blank_pattern(forbidden: str = "") -> str:
    """NON_BLANK, with the characters of `forbidden` (regex class syntax) refused too."""
    return rf"^[^\x00{forbidden}]*[^\s\x00-\x1f\x7f-\x9f\uFEFF{forbidden}][^\x00{forbidden}]*$"


Name = Annotated[
    str,
    StringConstraints(min_length=1, max_length=MAX_NAME, pattern=NON_BLANK),
    AfterValidator(_strip),
]
"""A required name: no NUL, a visible character, stripped."""
Text = Annotated[str, StringConstraints(max_length=MAX_TEXT, pattern=NO_NUL)]
"""Free text, possibly empty, without NUL."""
RequiredText = Annotated[
    str,
    StringConstraints(min_length=1, max_length=MAX_TEXT, pattern=NON_BLANK),
    AfterValidator(_strip),
]
"""Required free text: no NUL, a visible character, stripped."""
Strip = AfterValidator(_strip)


Flag = Annotated[bool, Strict()]
"""A JSON boolean: `0`, `1` or `"true"` are not one (pydantic would coerce them)."""
Integer = Annotated[int, Strict()]
"""A JSON integer, not a string of digits."""
Number = Annotated[float, Strict()]
"""A JSON number (an integer is one), not a string of digits."""


class RequestModel(BaseModel):
    """Base of every request body: a field the schema does not name is a 422."""

    model_config = ConfigDict(extra="forbid")


# --- free-form JSON (game coordinates, norms) -----------------------------------------------


MAX_JSON_DEPTH = 16
"""Deepest nesting of free-form JSON (game coordinates are flat; a deep one only costs)."""


def _no_nul_anywhere(value: Any) -> Any:
    """Free-form JSON is stored as JSONB, which refuses NUL in any key or string; it is walked
    without recursion, and nesting deeper than MAX_JSON_DEPTH is refused."""
    pending = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if depth > MAX_JSON_DEPTH:
            raise ValueError(f"nested deeper than {MAX_JSON_DEPTH} levels")
        if isinstance(item, str) and "\x00" in item:
            raise ValueError("no key or text inside may contain a NUL character")
        if isinstance(item, dict):
            pending += [(k, depth + 1) for k in item] + [(v, depth + 1) for v in item.values()]
        elif isinstance(item, list):
            pending += [(v, depth + 1) for v in item]
    return value


FreeJson = AfterValidator(_no_nul_anywhere)
"""Annotate a free-form JSON field with this: NUL anywhere inside is a 422."""


# --- game time --------------------------------------------------------------------------------

_DATE = r"(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])"
_TIME = r"([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]{1,6})?"
_OFFSET = r"(Z|z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])"
GAME_TIME_IN = rf"^(19|2[0-9])[0-9]{{2}}-{_DATE}[Tt]{_TIME}{_OFFSET}?$"
"""A game time a client may send: years 1900–2999, an optional offset (folded into UTC)."""
GAME_TIME_OUT = rf"^[0-9]{{4}}-{_DATE}T{_TIME}$"
"""A game time the API answers: naive ISO 8601, never an offset."""
GAME_DAY = rf"^(19|2[0-9])[0-9]{{2}}-{_DATE}$"
_GAME_TIME_IN_RE = re.compile(GAME_TIME_IN)
_GAME_DAY_RE = re.compile(GAME_DAY)

GAME_TIME_DOC = (
    "game time: naive ISO 8601 `YYYY-MM-DDThh:mm:ss[.ffffff]` (a world's calendar is its own; an "
    f"offset, if sent, is folded into UTC and dropped), from {game_time.SPAN_TEXT}"
)


def _game_time(value: Any) -> datetime:
    if isinstance(value, datetime):  # built in Python, not parsed from a request
        moment = value
    elif isinstance(value, str) and _GAME_TIME_IN_RE.fullmatch(value):
        moment = datetime.fromisoformat(value.upper())
    else:
        raise ValueError(f"a game time is a string like 2023-02-13T07:00:00 ({GAME_TIME_DOC})")
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    if not game_time.within(moment):
        raise ValueError(f"game time must lie in {game_time.SPAN_TEXT}")
    return moment


def _game_day(value: Any) -> date:
    if isinstance(value, date) and not isinstance(value, datetime):
        day = value
    elif isinstance(value, str) and _GAME_DAY_RE.fullmatch(value):
        day = date.fromisoformat(value)
    else:
        raise ValueError("a game day is a string like 2023-02-13, years 1900–2999")
    return day


GameTime = Annotated[
    datetime,
    BeforeValidator(_game_time),
    WithJsonSchema(
        {
            "type": "string",
            "pattern": GAME_TIME_IN,
            "description": GAME_TIME_DOC,
            "examples": ["2023-02-13T07:00:00"],
        }
    ),
]
"""A game time a client sends."""
GameTimeRead = Annotated[
    datetime,
    WithJsonSchema(
        {
            "type": "string",
            "pattern": GAME_TIME_OUT,
            "description": "game time: naive ISO 8601, no offset (the world's calendar)",
            "examples": ["2023-02-13T07:00:00"],
        }
    ),
]
"""A game time the API answers (naive: pydantic writes it without an offset)."""
GameDay = Annotated[
    date,
    BeforeValidator(_game_day),
    WithJsonSchema(
        {
            "type": "string",
            "pattern": GAME_DAY,
            "description": "a game day, YYYY-MM-DD, years 1900–2999",
        }
    ),
]

# --- pages ------------------------------------------------------------------------------------

Item = TypeVar("Item")


class Page(BaseModel, Generic[Item]):
    """A cursor page: pass `next_cursor` back as `cursor`; null means this was the last page."""

    items: list[Item]
    next_cursor: str | None = Field(None, description="opaque; null on the last page")
