"""Prompt budgets: how many tokens each operation's prompt may hold, and how a request is cut
to fit one.

On a CPU, reading the prompt dominates a call: the issue measured about 9 prompt tokens a
second against 4.3 generated, so a 1,000-token prompt is two minutes before the first word.
`PROMPT_BUDGETS` holds each operation's budget in tokens as `cognition.tokens.estimate_tokens`
counts them (the rendered prompt, the fixed system prompt aside), set from
`python -m bench.prompt_sizes` with room above what a realistic agent's prompts hold; that
bench also counts them with the served model's own tokenizer.

When a rendered prompt is over its budget, `fit` drops the least relevant entries of the
request's lists, one at a time and from the longest list first, until it fits or nothing is
left to drop: the end of a retrieval (ranked best first) or of the recent records (newest
first), the oldest lines of a dialogue, the schedule items farthest from the item planned.
What the answer is read against — the memories to rate, the answers to rank, the persona,
the item — is never dropped, and a list is only ever cut at its least relevant end, so the
numbers a model cites still name the same statements. A list joined from several retrievals
(a turn's memories, then the news; a reaction's context) loses the tail of the last one
first: at the defaults none is cut (`docs/benchmarks.md`, "Prompt sizes").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, TypeVar

from cognition import requests as rq
from cognition.tokens import estimate_tokens

R = TypeVar("R", bound=rq.Request[Any])

PROMPT_BUDGETS: Mapping[str, int] = {
    "rate_importance": 1200,
    "reflection_questions": 1800,
    "insights": 1000,
    "plan_day": 1200,
    "decompose": 900,
    "choose_location": 800,
    "react": 1100,
    "relationship": 900,
    "next_utterance": 1400,
    "summarize_agent": 900,
    "object_state": 200,
    "emoji": 150,
    "answer": 1500,
    "conversation_notes": 900,
    "revise_currently": 800,
    "judge_answer": 700,
    "rank_answers": 1600,
}
"""Tokens (`estimate_tokens`) each operation's rendered prompt may hold: what its requests
hold at Hearth's defaults (retrievals of k = 5 to 50, a hundred recent records, eight lines of
talk, answers of up to 400 tokens) with room to spare, so only a long-memoried agent's or a
verbose game's prompts are cut."""

End = Literal["last", "first", "far"]


@dataclass(frozen=True)
class Trim:
    """A list field of a request that may lose entries, and which end is least relevant:
    `last` (a ranking or newest-first records), `first` (a dialogue's oldest lines) or `far`
    (the schedule items farthest in time from the item being planned)."""

    field: str
    end: End = "last"

    def size(self, request: rq.Request[Any]) -> int:
        return len(getattr(request, self.field))

    def drop(self, request: R) -> R:
        entries = list(getattr(request, self.field))
        if self.end == "first":
            del entries[0]
        elif self.end == "last":
            del entries[-1]
        else:
            at = request.item.start  # type: ignore[attr-defined]
            entries.remove(max(entries, key=lambda i: abs(i.start - at)))
        return replace(request, **{self.field: tuple(entries)})


@dataclass(frozen=True)
class TrimLines(Trim):
    """A text field of one statement per line (a reaction's context): its last line goes."""

    def size(self, request: rq.Request[Any]) -> int:
        return len(str(getattr(request, self.field)).splitlines())

    def drop(self, request: R) -> R:
        lines = str(getattr(request, self.field)).splitlines()[:-1]
        return replace(request, **{self.field: "\n".join(lines)})


@dataclass(frozen=True)
class TrimSections(Trim):
    """Sections of retrieved statements (a summary's): the longest loses its last."""

    def size(self, request: rq.Request[Any]) -> int:
        sections: Mapping[str, Sequence[str]] = getattr(request, self.field)
        return max((len(items) for items in sections.values()), default=0)

    def drop(self, request: R) -> R:
        sections = dict(getattr(request, self.field))
        longest = max(sections, key=lambda name: len(sections[name]))
        sections[longest] = tuple(sections[longest])[:-1]
        return replace(request, **{self.field: sections})


TRIMS: Mapping[type[rq.Request[Any]], tuple[Trim, ...]] = {
    rq.ReflectionQuestions: (Trim("records"),),
    rq.Insights: (Trim("statements"),),
    rq.PlanDay: (Trim("notes"), Trim("directives"), Trim("known_places")),
    rq.Decompose: (Trim("memories"), Trim("schedule", "far")),
    rq.React: (TrimLines("context"),),
    rq.SummarizeRelationship: (Trim("statements"),),
    rq.NextUtterance: (Trim("memories"), Trim("history", "first")),
    rq.SummarizeAgent: (TrimSections("retrieved"),),
    rq.AnswerQuestion: (Trim("memories"),),
    rq.ConversationNotes: (Trim("lines", "first"),),
    rq.ReviseCurrently: (Trim("events"), Trim("plan_notes")),
    rq.RankAnswers: (Trim("memories"),),
}
"""What each request may lose to fit its budget. Not here: what the answer is read against
(`RateImportance.memories`: a rating each, so callers send batches that fit; a place's
options; the answers to rank or judge)."""


def fit(
    request: R,
    render: Callable[[R], str],
    *,
    budgets: Mapping[str, int] = PROMPT_BUDGETS,
    count: Callable[[str], int] = estimate_tokens,
) -> R:
    """`request`, cut (module docstring) until `render(request)` is within its operation's
    budget or nothing is left to cut."""
    budget = budgets.get(request.operation)
    trims = TRIMS.get(type(request), ())
    if budget is None or not trims:
        return request
    while count(render(request)) > budget:
        sizes = [(trim.size(request), -n, trim) for n, trim in enumerate(trims)]
        size, _, longest = max(sizes, key=lambda s: (s[0], s[1]))
        if size == 0:
            return request
        request = longest.drop(request)
    return request


def batches(
    items: Sequence[str], render: Callable[[Sequence[str]], str], *, budget: int, most: int
) -> list[list[str]]:
    """`items` in order, in batches of at most `most` whose `render`ed prompt is within
    `budget` (a lone item over it still goes alone): what a request that must answer every
    item it shows (`rate_importance`) is asked in, instead of being cut."""
    found: list[list[str]] = []
    batch: list[str] = []
    for item in items:
        wider = [*batch, item]
        if batch and (len(wider) > most or estimate_tokens(render(wider)) > budget):
            found.append(batch)
            wider = [item]
        batch = wider
    return [*found, batch] if batch else found
