"""Interviewing an agent, with the paper's ablations (§6 evaluation).

The cached summary is made from every kind of memory, so an ablated mode builds its own from
the kinds it allows (no reflection leaks into `no_reflection` through the summary); the
answer knows the game time of the interview.

An interview happens outside the world: it reads memory without touching it (recency is not
disturbed) and is not remembered. `mode` removes kinds of memory from what the agent can
recall, the paper's conditions: no reflection; no reflection and no planning; no memory at all
(the agent answers from its persona alone).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from cognition.mind import Mind
from cognition.requests import AnswerQuestion
from cognition.store import MemoryStore
from cognition.summary import summarize_agent
from cognition.types import Answer, Component, Memory, MemoryKind, Persona, ScoredMemory

DEFAULT_INTERVIEW_K = 50
"""Memories put before the agent for one question, as the paper's reference code retrieves for
an interview (`new_retrieve(persona, [line], 50)`): whether an agent "knows of" someone it met
once two days ago should not hang on a dozen slots its busiest hours fill."""


_ASKING = re.compile(
    r"^\s*(?:(?:so|and|tell me|please),?\s+)?(?:(?:did|have|do|are|were|would)\s+you\s+"
    r"(?:ever\s+)?(?:hear(?:d)?|know|knew|aware|happen\s+to\s+know)|what\s+do\s+you\s+know|"
    r"is\s+there\s+any\s+news)\b(?:\s+(?:anything|something|much|any\s+news|of|about|"
    r"regarding|that|if|whether))*\s*",
    re.I,
)


def retrieval_query(question: str) -> str:
    """What a question asks about, as the query its memories are retrieved by: "Have you heard
    anything about the aqueduct?" → "the aqueduct". The asking words are the same in every
    question about news, and in every line of gossip the agent heard ("Have you heard? …"),
    so left in they rank the talk about the loudest news above the memory asked about."""
    asking = _ASKING.match(question)
    subject = question[asking.end() :].strip().rstrip("?").strip() if asking else ""
    return subject or question


_NOT_SCORED = Component(0.0, 0.0)
"""The score terms of a memory looked up rather than retrieved."""


class InterviewMode(StrEnum):
    FULL = "full"
    NO_REFLECTION = "no_reflection"
    NO_PLANNING = "no_planning"
    NO_REFLECTION_NO_PLANNING = "no_reflection_no_planning"
    NO_MEMORY = "no_memory"


ABLATED: dict[InterviewMode, frozenset[MemoryKind]] = {
    InterviewMode.FULL: frozenset(),
    InterviewMode.NO_REFLECTION: frozenset({MemoryKind.REFLECTION}),
    InterviewMode.NO_PLANNING: frozenset({MemoryKind.PLAN}),
    InterviewMode.NO_REFLECTION_NO_PLANNING: frozenset({MemoryKind.REFLECTION, MemoryKind.PLAN}),
    InterviewMode.NO_MEMORY: frozenset(MemoryKind),
}


@dataclass(frozen=True)
class InterviewAnswer:
    answer: Answer
    used: tuple[ScoredMemory, ...]
    """The retrieved memories the answer cites (all retrieved ones if it cites none)."""


def persona_summary(persona: Persona) -> str:
    """Identity without memory, for the no-memory condition."""
    age = f" (age: {persona.age})" if persona.age is not None else ""
    return f"Name: {persona.name}{age}\nInnate traits: {persona.innate}".strip()


def interview(
    store: MemoryStore,
    mind: Mind,
    *,
    persona: Persona,
    summary: str,
    question: str,
    interviewer: str,
    mode: InterviewMode,
    now: datetime,
    k: int = DEFAULT_INTERVIEW_K,
    looked_up: Sequence[Memory] = (),
    known_places: Sequence[str] = (),
) -> InterviewAnswer:
    """Ask `question` as `interviewer`; the answer cites the memories it used.

    `looked_up`: memories found by their stored fields (the news of the last days), put before
    the agent after the retrieved ones: asked on Thursday night about "the pub tonight", the
    goat roast of Wednesday evening was news the agent knew, but fifty memories of Thursday
    outranked it. `known_places`: the paths the agent knows, for a question that names a place
    by what is in it."""
    allowed = frozenset(MemoryKind) - ABLATED[mode]
    query = retrieval_query(question)
    retrieved = store.retrieve(query, k=k, now=now, kinds=allowed, touch=False) if allowed else []
    seen = {s.memory.id for s in retrieved}
    retrieved += [
        ScoredMemory(memory, 0.0, _NOT_SCORED, _NOT_SCORED, _NOT_SCORED)
        for memory in dict((m.id, m) for m in looked_up).values()
        if memory.id not in seen and memory.kind in allowed
    ]
    if mode is InterviewMode.NO_MEMORY:
        summary = persona_summary(persona)
    elif mode is not InterviewMode.FULL:
        summary = summarize_agent(store, mind, persona=persona, now=now, kinds=allowed, touch=False)
    answer = mind.think(
        AnswerQuestion(
            question=question,
            persona=persona,
            summary=summary,
            asker=interviewer,
            memories=[s.memory.recalled() for s in retrieved],
            now=now,
            known_places=known_places,
        )
    )
    cited = [retrieved[i - 1] for i in answer.cited if 1 <= i <= len(retrieved)]
    return InterviewAnswer(answer=answer, used=tuple(cited or retrieved))
