"""The JSON Schema sent with one request: the operation's schema, tightened by what it asks.

Grammar-constrained decoding (llama.cpp, vLLM, Ollama, OpenAI's strict mode) produces whatever
the schema allows, and a loose schema lets a small model satisfy it degenerately: `{"ratings":
[]}`, every location null, a memory number that was never shown. So each request's schema says
what its prompt says: as many ratings as memories, each naming a shown memory and a rating on
the scale; locations required and chosen from the known places; numbers that cite from the
numbers shown; enums wherever the answer is a choice. The keywords used (`enum`, `minItems`,
`maxItems`) are the ones OpenAI's strict mode and llama.cpp's grammar both accept.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from cognition.clamps import IMPORTANCE_MAX, IMPORTANCE_MIN
from cognition.parsing.day_parts import PARTS
from cognition.parsing.memory import MAX_ANSWER_CITATIONS
from cognition.parsing.schemas import (
    AnswerOut,
    InsightsOut,
    LocationOut,
    QuestionsOut,
    RankingOut,
    StepsOut,
    strict_schema,
)

Schema = dict[str, Any]

MIN_DAY_ITEMS = 3
MAX_DAY_ITEMS = 6
"""The items between the wake-up and the bedtime Hearth places: with them, 5 to 8."""
MIN_STEPS = 2
"""A decomposition of one step repeats its parent instead of breaking it down."""


def of(model: type[BaseModel]) -> Schema:
    """The operation's schema as it stands, its `$ref`s inlined (simpler for grammars)."""
    schema = strict_schema(model)
    defs = schema.pop("$defs", {})
    inlined: Schema = _inline(schema, defs)
    return inlined


def ratings(count: int) -> Schema:
    """Exactly `count` ratings, each of a shown memory (1..count), on the 1–10 scale."""
    rating = _object(
        memory={"type": "integer", "enum": list(range(1, count + 1))},
        rating={"type": "integer", "enum": list(range(IMPORTANCE_MIN, IMPORTANCE_MAX + 1))},
    )
    return _object(ratings=_array(rating, low=count, high=count))


def questions(n: int) -> Schema:
    return _with_array(of(QuestionsOut), "questions", low=n, high=n)


def insights(n: int, statement_count: int) -> Schema:
    """1 to n insights, citing only statements that were shown."""
    schema = _with_array(of(InsightsOut), "insights", low=1, high=n)
    schema["properties"]["insights"]["items"]["properties"]["because"] = _citations(statement_count)
    return schema


def day_plan(places: Sequence[str]) -> Schema:
    """3 to 6 items by part of day, no clock times (Hearth places them: `day_parts`), each
    at one of the known places (when the agent knows any)."""
    location: Schema = {"type": "string", "enum": list(places)} if places else {"type": "string"}
    item = _object(
        part={"type": "string", "enum": list(PARTS)},
        description={"type": "string"},
        location=location,
    )
    return _object(items=_array(item, low=MIN_DAY_ITEMS, high=MAX_DAY_ITEMS))


def steps(max_steps: int) -> Schema:
    """At least two steps (one would repeat the parent), at most what fits the span."""
    return _with_array(of(StepsOut), "steps", low=MIN_STEPS, high=max(MIN_STEPS, max_steps))


def location(options: Sequence[str], *, may_stay: bool) -> Schema:
    """One of the listed places by name ("" too where staying put is allowed)."""
    names = [*options, ""] if may_stay else list(options)
    schema = of(LocationOut)
    schema["properties"]["location"] = {"type": "string", "enum": names}
    return schema


def answer(memory_count: int) -> Schema:
    """The answer and the few memories it rests on (`memory.MAX_ANSWER_CITATIONS`)."""
    schema = of(AnswerOut)
    schema["properties"]["cited"] = _citations(memory_count, most=MAX_ANSWER_CITATIONS)
    return schema


def ranking(count: int) -> Schema:
    """Every answer's number, once each (the length is fixed; a repeat is repaired)."""
    schema = of(RankingOut)
    number = {"type": "integer", "enum": list(range(1, count + 1))}
    schema["properties"]["ranking"] = _array(number, low=count, high=count)
    return schema


def _citations(count: int, *, most: int | None = None) -> Schema:
    if count < 1:
        return _array({"type": "integer"}, low=0, high=0)
    high = count if most is None else min(count, most)
    return _array({"type": "integer", "enum": list(range(1, count + 1))}, low=0, high=high)


def _object(**properties: Schema) -> Schema:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def _array(items: Schema, *, low: int, high: int) -> Schema:
    return {"type": "array", "items": items, "minItems": low, "maxItems": high}


def _with_array(schema: Schema, key: str, *, low: int, high: int) -> Schema:
    schema["properties"][key] |= {"minItems": low, "maxItems": high}
    return schema


def _inline(node: Any, defs: Schema) -> Any:
    """`node` with every `{"$ref": "#/$defs/X"}` replaced by a copy of X."""
    if isinstance(node, list):
        return [_inline(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        return _inline(defs[node["$ref"].rsplit("/", 1)[-1]], defs)
    return {key: _inline(value, defs) for key, value in node.items()}
