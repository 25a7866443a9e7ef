"""The JSON each Mind operation asks the model for, as Pydantic models.

They describe the wire shape only; the parsers turn them into domain values and the clamps
bound them. Fields are lenient where models are sloppy (numbers may arrive as strings, extra
keys are ignored) and every root is an object, because OpenAI's strict structured outputs
and `json_object` mode both require one. `strict_schema` renders a model as the JSON Schema
the `json_schema` response format wants.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, FiniteFloat


class Output(BaseModel):
    """Base of every output schema: tolerant of extra keys a model adds."""

    model_config = ConfigDict(extra="ignore")


class RatingOut(Output):
    memory: int
    rating: FiniteFloat


class ImportanceOut(Output):
    ratings: list[RatingOut | FiniteFloat]


class QuestionsOut(Output):
    questions: list[str]


class InsightOut(Output):
    text: str
    because: list[int] = Field(default_factory=list)


class InsightsOut(Output):
    insights: list[InsightOut]


class DayItemOut(Output):
    """An outline item: by part of day (what Hearth asks for) or at a clock time (older
    answers and models that write times; still read)."""

    start: str = ""
    part: str = ""
    duration_min: int = 0
    description: str
    location: str | None = None


class DayPlanOut(Output):
    items: list[DayItemOut]


class StepOut(Output):
    description: str
    duration_min: int


class StepsOut(Output):
    steps: list[StepOut]


class LocationOut(Output):
    location: str | None = None


class ReactionOut(Output):
    react: bool
    what: str = ""
    talk_to: str | None = None
    reason: str = ""


class RelationshipOut(Output):
    summary: str
    sentiment: FiniteFloat


class UtteranceOut(Output):
    text: str
    ends: bool = False


class SummaryOut(Output):
    summary: str


class ObjectStateOut(Output):
    state: str | None = None


class EmojiOut(Output):
    emoji: str


class AnswerOut(Output):
    answer: str
    cited: list[int] = Field(default_factory=list)


class NotesOut(Output):
    planning: str = ""
    memo: str = ""


class CurrentlyOut(Output):
    currently: str


class JudgeOut(Output):
    knows: bool


class RankingOut(Output):
    ranking: list[int]


def strict_schema(model: type[BaseModel]) -> dict[str, Any]:
    """`model` as a strict structured-output schema: every key required, no extra keys.

    Strict mode rejects optional keys and `default`; leniency lives in the parser instead.
    """
    schema: dict[str, Any] = _strictify(model.model_json_schema())
    return schema


_DROPPED_KEYWORDS = frozenset({"default", "title"})
_NAME_MAPS = frozenset({"properties", "$defs"})
"""Keywords whose value maps names to schemas: their keys are names, never keywords to drop."""


def _strictify(node: Any) -> Any:
    if isinstance(node, list):
        return [_strictify(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {
        key: _names(value) if key in _NAME_MAPS else _strictify(value)
        for key, value in node.items()
        if key not in _DROPPED_KEYWORDS
    }
    if out.get("type") == "object" and "properties" in out:
        out["required"] = list(out["properties"])
        out["additionalProperties"] = False
    return out


def _names(mapping: dict[str, Any]) -> dict[str, Any]:
    return {name: _strictify(schema) for name, schema in mapping.items()}
