"""The paper's summary description (Appendix A): who the agent is, from three retrievals.

Every prompt about an agent starts with a short description of them, cached and refreshed
when stale. The paper builds it from three retrievals, each summarised:

    "[name]'s core characteristics"
    "[name]'s current daily occupation"
    "[name]'s feeling about his recent progress in life"   (here: "their", for everyone)

`summarize_agent` runs the three (reflections included, DEFAULT_SUMMARY_K memories each) and
hands them to `mind.summarize_agent` under the keys "core", "occupation" and "feeling".
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import datetime, timedelta

from cognition.mind import Mind
from cognition.requests import SummarizeAgent
from cognition.store import MemoryStore
from cognition.types import MemoryKind, Persona

SUMMARY_QUERIES: Mapping[str, str] = {
    "core": "{name}'s core characteristics",
    "occupation": "{name}'s current daily occupation",
    "feeling": "{name}'s feeling about their recent progress in life",
}
"""The paper's three queries, by the key the Mind's `retrieved` mapping expects."""
DEFAULT_SUMMARY_K = 10
"""Statements per query: a summary characterises, it does not list the stream."""
DEFAULT_MAX_AGE_HOURS = 24.0
"""The paper refreshes identity once a game day, when the agent plans its day."""
DEFAULT_MAX_NEW_MEMORIES = 50
"""Or sooner, when this many memories arrived since: a busy day changes who one is."""
HOUR = timedelta(hours=1)


def summarize_agent(
    store: MemoryStore,
    mind: Mind,
    *,
    persona: Persona,
    now: datetime,
    k: int = DEFAULT_SUMMARY_K,
    kinds: Collection[MemoryKind] | None = None,
    touch: bool = True,
) -> str:
    """The agent's summary description from the three retrievals (module docstring), over
    memories of `kinds` only when given (an interview's ablation must not see the others)."""
    retrieved = {
        key: [
            scored.memory.description
            for scored in store.retrieve(
                query.format(name=persona.name), k=k, now=now, kinds=kinds, touch=touch
            )
        ]
        for key, query in SUMMARY_QUERIES.items()
    }
    return mind.think(SummarizeAgent(persona=persona, retrieved=retrieved))


def is_stale(
    *,
    summary_at: datetime | None,
    memories_since: int,
    now: datetime,
    max_age_hours: float = DEFAULT_MAX_AGE_HOURS,
    max_new_memories: int = DEFAULT_MAX_NEW_MEMORIES,
) -> bool:
    """Whether a cached summary should be made again: never made, at least `max_age_hours`
    old in game time, or at least `max_new_memories` written since it was made.

    A summary dated after `now` (a rewound game clock) is not stale by age.
    """
    if summary_at is None:
        return True
    return now - summary_at >= max_age_hours * HOUR or memories_since >= max_new_memories
