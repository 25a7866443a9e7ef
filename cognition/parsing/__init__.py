"""From a model's raw text to domain values: one parser per Mind operation.

`extract` finds the JSON (tolerating fences, prose and trailing commas) and spots refusals;
`schemas` holds the Pydantic shape asked of the model per operation, and `shapes` narrows it
per request (as many ratings as memories, places from the known ones); the parsers in `memory`,
`plans`, `social` and `judging` validate, clamp (through `cognition.clamps`) and build domain
values, mending near-misses they can read unambiguously (`repairs`); `plan_checks` reads a
model's plan as a careful reader would.
Every parser raises `InvalidOutput` (the adapter re-asks once) or `Refused`.
"""

from cognition.parsing.judging import parse_judge_answer, parse_rank_answers
from cognition.parsing.memory import (
    parse_answer,
    parse_insights,
    parse_rate_importance,
    parse_reflection_questions,
    parse_summarize_agent,
)
from cognition.parsing.plans import (
    parse_choose_location,
    parse_decompose,
    parse_emoji,
    parse_object_state,
    parse_plan_day,
)
from cognition.parsing.social import (
    parse_conversation_notes,
    parse_next_utterance,
    parse_react,
    parse_relationship,
    parse_revise_currently,
)

__all__ = [
    "parse_answer",
    "parse_choose_location",
    "parse_conversation_notes",
    "parse_decompose",
    "parse_emoji",
    "parse_insights",
    "parse_judge_answer",
    "parse_next_utterance",
    "parse_object_state",
    "parse_plan_day",
    "parse_rank_answers",
    "parse_rate_importance",
    "parse_react",
    "parse_reflection_questions",
    "parse_relationship",
    "parse_revise_currently",
    "parse_summarize_agent",
]
