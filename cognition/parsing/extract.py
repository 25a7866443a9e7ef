"""Tolerant extraction of a JSON value from whatever a model wrote around it.

Models wrap JSON in code fences, prose, or leave trailing commas; some refuse. Extraction tries,
in order: the whole text, each fenced block, then each balanced `{...}` / `[...]` found in the
text, each also with trailing commas removed. Text with no JSON that reads like a refusal
raises `Refused`; anything else raises `InvalidOutput`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any, NoReturn, TypeVar

from pydantic import BaseModel, ValidationError

from cognition.errors import InvalidOutput, Refused

ModelT = TypeVar("ModelT", bound=BaseModel)

_FENCED = re.compile(r"```[a-zA-Z0-9_-]*[ \t]*\n?(.*?)```", re.DOTALL)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_OPENERS = {"{": "}", "[": "]"}

REFUSAL_WINDOW_CHARS = 200
"""Refusals say so up front; looking further would catch in-character lines that mention 'can't'."""

_REFUSAL = re.compile(
    r"^\W*(?:i'm sorry|i am sorry|sorry, (?:but )?i|i apologi[sz]e|"
    r"i can(?:no|')t (?:help|assist|comply|do that|provide|answer|fulfil)|"
    r"i(?: am|'m) (?:not able|unable) to|i won't|i will not|as an ai)",
    re.IGNORECASE,
)


def extract_json(raw: str) -> Any:
    """The first JSON value found in `raw`; `Refused` or `InvalidOutput` when there is none."""
    for candidate in _candidates(raw):
        for text in (candidate, _TRAILING_COMMA.sub(r"\1", candidate)):
            try:
                return json.loads(text)
            except ValueError:
                continue
    raise_unusable(raw, "no JSON value found")


def raise_unusable(raw: str, problem: str) -> NoReturn:
    """Raise `Refused` when `raw` reads like a refusal, else `InvalidOutput(problem)`."""
    if is_refusal(raw):
        raise Refused(f"the model declined: {raw.strip()[:REFUSAL_WINDOW_CHARS]}")
    raise InvalidOutput(problem, raw=raw)


def is_refusal(raw: str) -> bool:
    """Whether `raw` opens like a model's refusal ("I'm sorry, but I can't help with that")."""
    head = raw.strip()[:REFUSAL_WINDOW_CHARS].replace("\u2019", "'")
    return bool(_REFUSAL.match(head))


def _candidates(raw: str) -> Iterator[str]:
    yield raw.strip()
    for match in _FENCED.finditer(raw):
        yield match.group(1).strip()
    yield from _balanced_spans(raw)


def _balanced_spans(text: str) -> Iterator[str]:
    """Every balanced `{...}` or `[...]` span, outermost first, skipping brackets in strings."""
    for start, char in enumerate(text):
        if char in _OPENERS:
            end = _closing_index(text, start)
            if end is not None:
                yield text[start : end + 1]


def _closing_index(text: str, start: int) -> int | None:
    stack: list[str] = []
    in_string = escaped = False
    for index in range(start, len(text)):
        char = text[index]
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            continue
        if char == '"':
            in_string = True
        elif char in _OPENERS:
            stack.append(_OPENERS[char])
        elif stack and char == stack[-1]:
            stack.pop()
            if not stack:
                return index
        elif char in "}]":
            return None
    return None


MAX_REPORTED_ERRORS = 3
"""Schema errors quoted back to the model in the correction message; more only adds noise."""


def load(raw: str, schema: type[ModelT], *, list_key: str | None = None) -> ModelT:
    """`raw`'s JSON validated as `schema`; a bare list is accepted as the value of `list_key`."""
    return validate(raw, extract_json(raw), schema, list_key=list_key)


def validate(raw: str, value: Any, schema: type[ModelT], *, list_key: str | None = None) -> ModelT:
    """`value` (extracted from `raw`) validated as `schema`, or `InvalidOutput` saying why."""
    if list_key is not None and isinstance(value, list):
        value = {list_key: value}
    try:
        return schema.model_validate(value)
    except ValidationError as exc:
        problems = [
            f"{'.'.join(str(part) for part in error['loc']) or 'answer'}: {error['msg']}"
            for error in exc.errors()[:MAX_REPORTED_ERRORS]
        ]
        raise InvalidOutput("the JSON does not match: " + "; ".join(problems), raw=raw) from exc
