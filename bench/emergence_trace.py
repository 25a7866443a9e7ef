"""How news travelled, read from what agents remember, and whether a "yes" rests on it.

The paper verified every yes "by locating the specific dialogue in their memory stream that
provided them with the information" (§7.1.1). Here that check is a rule over stored rows:

- A *transmission* is a memory by which an agent could have learnt the news from another
  agent: a line it heard that mentions the news (an utterance memory whose speaker is someone
  else), or the sight of someone whose action mentions it (an observation of another agent:
  "Walter Brigg is campaigning for the town council").
- An agent *knows* the news from the first transmission whose source knew it by then; the
  originator knows it from the start. Read in game-time order, this is the transmission tree:
  who first heard it, from whom, when.
- A yes is *grounded* when a memory it cites — or a memory that cited memory rests on, through
  a reflection's evidence — mentions the news and was made when the agent already knew it by
  that chain. A yes resting on nothing of the kind (a seed the agent was born with, a memory
  older than its knowledge, a memory about something else) is counted as hallucinated.
- Knowing of a person is grounded when a cited memory names them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from bench.emergence_topics import Topic
from cognition.offline.text import first_name


@dataclass(frozen=True)
class MemoryRow:
    id: int
    agent: str
    kind: str
    description: str
    subject: str | None
    created_at: datetime


@dataclass(frozen=True)
class Transmission:
    """One way `agent` may have learnt the news: from `source`, who said it or was seen."""

    agent: str
    source: str
    how: str
    """ "heard" (a line) or "saw" (an action)."""
    at: datetime
    memory_id: int


@dataclass
class Knowledge:
    """Who knew the news, since when, and how each first learnt it."""

    topic: Topic
    since: dict[str, datetime] = field(default_factory=dict)
    first: dict[str, Transmission] = field(default_factory=dict)

    def knew_at(self, agent: str, at: datetime) -> bool:
        since = self.since.get(agent)
        return since is not None and since <= at

    def count_at(self, at: datetime) -> int:
        return sum(1 for since in self.since.values() if since <= at)


def transmissions(
    memories: Iterable[MemoryRow], topic: Topic, names: set[str]
) -> list[Transmission]:
    """Every memory by which an agent may have learnt the news from another agent."""
    found = []
    for memory in memories:
        source = memory.subject
        if source is None or source == memory.agent or source not in names:
            continue
        if memory.kind not in ("utterance", "observation"):
            continue
        if topic.mentioned_in(memory.description):
            how = "heard" if memory.kind == "utterance" else "saw"
            found.append(Transmission(memory.agent, source, how, memory.created_at, memory.id))
    return sorted(found, key=lambda t: (t.at, t.memory_id))


def trace(
    found: Sequence[Transmission], topic: Topic, *, start: datetime, names: set[str]
) -> Knowledge:
    """Who knew, from the originator outward, in game-time order (module docstring); nobody
    when the originator is not among `names` (a town of the first few agents)."""
    knowledge = Knowledge(
        topic, since={topic.originator: start} if topic.originator in names else {}
    )
    changed = True
    while changed:  # a tie in time may list a transmission before the one its source learnt by
        changed = False
        for step in found:
            if step.agent in knowledge.since and knowledge.since[step.agent] <= step.at:
                continue
            if knowledge.knew_at(step.source, step.at):
                knowledge.since[step.agent] = step.at
                knowledge.first[step.agent] = step
                changed = True
    return knowledge


def grounded(
    cited: Iterable[int],
    *,
    agent: str,
    knowledge: Knowledge,
    memories: Mapping[int, MemoryRow],
    evidence: Mapping[int, Sequence[int]],
) -> bool:
    """Whether a yes of `agent` rests on the news as it reached the agent (module docstring)."""
    since = knowledge.since.get(agent)
    if since is None:
        return False
    for memory_id in cited:
        for rested_on in (memory_id, *evidence.get(memory_id, ())):
            memory = memories.get(rested_on)
            if memory is None or memory.agent != agent or memory.created_at < since:
                continue
            if knowledge.topic.mentioned_in(memory.description):
                return True
    return False


def names_person(text: str, name: str, *, unique_first: bool) -> bool:
    """Whether the text names the person: the full name, or the first name when no one else
    in town has it."""
    candidates = [name, first_name(name)] if unique_first else [name]
    return any(re.search(rf"\b{re.escape(c)}\b", text) for c in candidates)


def knows_person_grounded(
    cited: Iterable[int], *, other: str, unique_first: bool, memories: Mapping[int, MemoryRow]
) -> bool:
    """A yes to "Do you know of <other>?" rests on a cited memory that names them."""
    return any(
        names_person(memories[m].description, other, unique_first=unique_first)
        for m in cited
        if m in memories
    )
