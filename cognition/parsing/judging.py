"""Parsers for the evaluation's judge: a yes/no label of an interview answer, and a ranking of
candidate answers (the paper's §6 and §7.1, with a model in the evaluators' place)."""

from __future__ import annotations

from cognition.errors import InvalidOutput
from cognition.parsing import repairs
from cognition.parsing.extract import load
from cognition.parsing.schemas import JudgeOut, RankingOut


def parse_judge_answer(raw: str) -> bool:
    """Whether the answer was labelled as knowing the subject."""
    return load(raw, JudgeOut).knows


def parse_rank_answers(raw: str, *, count: int) -> list[int]:
    """A permutation of 1..count, most believable first. Numbers outside the range and repeats
    are dropped; answers the ranking leaves out follow, in their own order (tied last). An
    answer that ranks none of them is unusable."""
    ranked: list[int] = []
    numbers = load(raw, RankingOut).ranking
    for number in numbers:
        if 1 <= number <= count and number not in ranked:
            ranked.append(number)
    if not ranked:
        raise InvalidOutput("the ranking names none of the answers", raw=raw)
    if len(ranked) < count:
        repairs.note(f"ranking {numbers} completed with the answers it left out")
    return ranked + [n for n in range(1, count + 1) if n not in ranked]
