"""Parsers for the memory operations: importance, reflection, answers and summaries.

Each takes the model's raw text (and what the prompt numbered) and returns domain values,
or raises `InvalidOutput` / `Refused`. Reflection parsers also read the paper's plain-text
formats, because many models answer the paper's prompts in the paper's style.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from cognition.clamps import clamp_importance, valid_citations
from cognition.errors import InvalidOutput
from cognition.parsing import repairs
from cognition.parsing.extract import extract_json, load, raise_unusable, validate
from cognition.parsing.schemas import (
    AnswerOut,
    ImportanceOut,
    InsightsOut,
    QuestionsOut,
    RatingOut,
    SummaryOut,
)
from cognition.types import Answer, Insight

_BECAUSE = re.compile(r"^(?P<text>.*?)\s*\(\s*because of\s+(?P<ids>[\d,\s and]*)\)\s*\.?\s*$", re.I)
_RATING = re.compile(r"^\s*rating\s*:\s*(?P<value>\d+(?:\.\d+)?)\s*\.?\s*$", re.I)
_LIST_MARKER = re.compile(r"^\s*(?:\d+\s*[.):]|[-*•])\s*")
_NUMBER = re.compile(r"\d+")


def parse_rate_importance(raw: str, *, count: int) -> list[int | None]:
    """One 1–10 rating per memory, in order; a memory the answer does not rate is None (the
    caller rates it another way: a count mismatch loses one item, not the batch).

    Ratings come numbered (`{"memory": 2, "rating": 7}`, matched by number), or as a plain
    list when it has exactly `count` numbers; a single memory may also be rated in the paper's
    own `Rating: 4` format. A complete list numbered wrongly (one number repeated) is read in
    order, and of two ratings of one memory the first counts (both noted as repairs).
    """
    paper_style = _RATING.match(raw)
    value = float(paper_style["value"]) if paper_style and count == 1 else extract_json(raw)
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = [value]
    ratings = validate(raw, value, ImportanceOut, list_key="ratings").ratings
    found: list[int | None] = [None] * count
    plain = [r for r in ratings if not isinstance(r, RatingOut)]
    if plain and len(plain) == len(ratings):
        if len(plain) != count:  # unnumbered: which memory a rating is for cannot be told
            raise InvalidOutput(f"expected {count} ratings, got {len(plain)}", raw=raw)
        return [clamp_importance(float(r)) for r in plain]
    numbered = [r for r in ratings if isinstance(r, RatingOut)]
    numbers = [r.memory for r in numbered]
    if len(numbered) == count and sorted(numbers) != list(range(1, count + 1)):
        # every memory rated, but numbered wrongly ("memory": 1 three times): read in order
        repairs.note(f"memory numbers {numbers} read as 1..{count} in order")
        return [clamp_importance(r.rating) for r in numbered]
    for rating in numbered:
        if 1 <= rating.memory <= count and found[rating.memory - 1] is None:
            found[rating.memory - 1] = clamp_importance(rating.rating)
        elif 1 <= rating.memory <= count:
            repairs.note(f"memory {rating.memory} rated twice: the first rating kept")
    if all(r is None for r in found):
        raise InvalidOutput(f"no usable rating of the {count} memories", raw=raw)
    return found


def parse_reflection_questions(raw: str, *, n: int) -> list[str]:
    """Up to n distinct questions, from JSON or from a numbered list."""
    try:
        found = load(raw, QuestionsOut, list_key="questions").questions
    except InvalidOutput:
        found = _listed_lines(raw)
    questions = _distinct(question.strip() for question in found)
    if not questions:
        raise_unusable(raw, "no questions found")
    return questions[:n]


def parse_insights(raw: str, *, n: int, statement_count: int) -> list[Insight]:
    """Up to n insights whose citations are restricted to the numbered statements.

    Accepts JSON or the paper's `insight (because of 1, 5, 3)` lines.
    """
    try:
        items = [(i.text, i.because) for i in load(raw, InsightsOut, list_key="insights").insights]
    except InvalidOutput:
        items = [_because(line) for line in _listed_lines(raw)]
    insights = [_insight(text, cited, statement_count) for text, cited in items]
    kept = [insight for insight in insights if insight.text]
    if not kept:
        raise_unusable(raw, "no insights found")
    return kept[:n]


def parse_answer(raw: str, *, memory_count: int) -> Answer:
    """The in-character answer, citing only memories that were numbered in the prompt."""
    out = load(raw, AnswerOut)
    text = out.answer.strip()
    if not text:
        raise InvalidOutput("the answer is empty", raw=raw)
    cited = valid_citations(out.cited, memory_count)
    if len(cited) > MAX_ANSWER_CITATIONS:
        repairs.note(f"cited {len(cited)} memories: kept the first {MAX_ANSWER_CITATIONS}")
        cited = cited[:MAX_ANSWER_CITATIONS]
    return Answer(text=text, cited=cited)


MAX_ANSWER_CITATIONS = 5
"""An answer rests on a few memories; a small model asked which cited all 48 it was shown
(numbered by relevance, so the first are the likeliest)."""


def parse_summarize_agent(raw: str) -> str:
    """The summary paragraph."""
    summary = load(raw, SummaryOut).summary.strip()
    if not summary:
        raise InvalidOutput("the summary is empty", raw=raw)
    return summary


def _insight(text: str, cited: list[int], statement_count: int) -> Insight:
    """An insight whose text may still carry the paper's `(because of …)` suffix."""
    inline_text, inline_ids = _because(text)
    return Insight(
        text=inline_text.strip(),
        cited_indices=valid_citations(cited or inline_ids, statement_count),
    )


def _because(line: str) -> tuple[str, list[int]]:
    match = _BECAUSE.match(line.strip())
    if match is None:
        return line.strip(), []
    return match["text"], [int(number) for number in _NUMBER.findall(match["ids"])]


def _listed_lines(raw: str) -> list[str]:
    """The items of a numbered or bulleted list in prose; nothing when there is no list."""
    return [_LIST_MARKER.sub("", line) for line in raw.splitlines() if _LIST_MARKER.match(line)]


def _distinct(items: Iterable[str]) -> list[str]:
    seen: list[str] = []
    for item in items:
        if item and item not in seen:
            seen.append(item)
    return seen
