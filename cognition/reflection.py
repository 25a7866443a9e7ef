"""The paper's reflection (Park et al. 2023, §4.2): questions, evidence, cited insights.

When the importance of what an agent perceived since its last reflection exceeds a threshold
(150 in the paper), it reflects:

1. the 100 most recent records of its stream are shown to the Mind, which asks the 3 most
   salient high-level questions about them;
2. each question retrieves evidence with the shared retrieval (`store.retrieve`, reflections
   included, DEFAULT_EVIDENCE_K memories), numbered 1..k in ranked order;
3. the Mind infers up to 5 insights per question, each citing statements by number;
4. cited numbers map back to memory ids. A number that was not in the prompt is dropped (a
   hallucinated citation is not evidence); an insight left with no valid citation is dropped;
5. the insights are written in one `store.add` as reflections citing their evidence, with
   depth = 1 + the deepest cited memory's depth (a reflection on reflections is deeper).

All questions retrieve before any insight is written, so one run reflects on the stream as it
stood when it began and its insights never cite each other; writing them in one call lets the
edge make the run atomic. An insight repeated word for word under two questions is kept once,
and one the agent already holds — the text of a memory the run read — is not written again
(a town reflecting on the same party all day would otherwise say so hourly).
Pure orchestration: given the store's contents and the Mind's answers, the result is fixed.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from cognition.clamps import valid_citations
from cognition.errors import InvalidInput
from cognition.mind import Mind
from cognition.requests import Insights, ReflectionQuestions
from cognition.store import MemoryStore
from cognition.types import Insight, Memory, MemoryKind, MemorySource, NewMemory

DEFAULT_REFLECTION_THRESHOLD = 150
"""The paper's trigger: summed importance of new memories since the last reflection."""
DEFAULT_RECENT_RECORDS = 100
"""The paper shows the Mind the 100 most recent records to find salient questions."""
DEFAULT_QUESTIONS = 3
"""The paper's "3 most salient high-level questions"."""
DEFAULT_INSIGHTS = 5
"""The paper's "5 high-level insights" per question."""
DEFAULT_EVIDENCE_K = 30
"""Memories retrieved per question: enough evidence for five insights, yet a prompt that
fits a small model's context (30 statements ≈ 1–2k tokens)."""


def should_reflect(accumulated: int, threshold: int) -> bool:
    """Whether the importance accumulated since the last reflection crosses the threshold.

    Strictly greater, as the paper's "exceeds": exactly the threshold does not fire yet.
    """
    return accumulated > threshold


def reflect(
    store: MemoryStore,
    mind: Mind,
    *,
    now: datetime,
    subject_name: str,
    records: int = DEFAULT_RECENT_RECORDS,
    questions: int = DEFAULT_QUESTIONS,
    insights: int = DEFAULT_INSIGHTS,
    evidence_k: int = DEFAULT_EVIDENCE_K,
) -> list[Memory]:
    """Reflect once (see the module docstring) and return the reflections written.

    `subject_name` is the reflecting agent: the subject of each reflection it writes.
    """
    recent = store.recent(records)
    if not recent:
        return []
    seen = [m.recalled() for m in recent]
    asked = mind.think(ReflectionQuestions(seen, n=questions, name=subject_name))
    evidence = [(q, _retrieve(store, q, k=evidence_k, now=now)) for q in asked if q.strip()]
    held = seen + [m.recalled() for _, memories in evidence for m in memories]
    drafts: list[NewMemory] = []
    for question, memories in evidence:
        statements = [m.recalled() for m in memories]
        found = mind.think(Insights(question, statements, n=insights, name=subject_name))
        drafts += [
            reflection_memory(insight.text, cited, subject_name=subject_name, now=now)
            for insight, cited in _with_evidence(found, memories)
        ]
    unique = _first_of_each_text(drafts, held=held)
    return store.add(unique, now=now) if unique else []


def cited_memories(insight: Insight, numbered: Sequence[Memory]) -> list[Memory]:
    """The memories an insight cites by 1-based number; numbers outside the list are dropped."""
    return [numbered[i - 1] for i in valid_citations(insight.cited_indices, len(numbered))]


def reflection_memory(
    text: str, evidence: Sequence[Memory], *, subject_name: str, now: datetime
) -> NewMemory:
    """A reflection citing `evidence`, one level deeper than the deepest memory it cites."""
    if not evidence:
        raise InvalidInput("a reflection must cite at least one memory", field="evidence")
    return NewMemory(
        description=text.strip(),
        kind=MemoryKind.REFLECTION,
        created_at=now,
        subject=subject_name,
        source=MemorySource.AGENT,
        evidence_ids=tuple(m.id for m in evidence),
        depth=1 + max(m.depth for m in evidence),
    )


def _retrieve(store: MemoryStore, question: str, *, k: int, now: datetime) -> list[Memory]:
    return [scored.memory for scored in store.retrieve(question, k=k, now=now)]


def _with_evidence(
    found: Sequence[Insight], numbered: Sequence[Memory]
) -> list[tuple[Insight, list[Memory]]]:
    """Insights with text and at least one valid citation, paired with the memories cited."""
    paired = [(insight, cited_memories(insight, numbered)) for insight in found]
    return [(insight, cited) for insight, cited in paired if cited and insight.text.strip()]


def _first_of_each_text(drafts: Sequence[NewMemory], *, held: Sequence[str]) -> list[NewMemory]:
    """Drop an insight whose text (case and spacing aside) was already drafted in this run or
    is `held` already (a memory the run read)."""
    seen = {" ".join(text.casefold().split()) for text in held}
    kept: list[NewMemory] = []
    for draft in drafts:
        key = " ".join(draft.description.casefold().split())
        if key not in seen:
            seen.add(key)
            kept.append(draft)
    return kept
