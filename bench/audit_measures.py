"""The audit's measures: pure functions from the rows a run left (memories, plans, dialogue,
where the game saw each agent) to per-agent `Share`s. `bench.audit_data` reads the rows;
`bench.audit` prints them."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from itertools import pairwise

from bench.audit_grammar import RULES, Kind, Names, Text, check
from bench.audit_routine import Routine

DUPLICATE_WINDOW = timedelta(minutes=10)
"""The same description stored twice for one agent within this much game time is a
duplicate (a repeated line is one memory, not six)."""
MEAL_WINDOWS = {
    "breakfast": (6 * 60, 10 * 60),
    "lunch": (11 * 60, 14 * 60 + 30),
    "dinner": (17 * 60, 21 * 60 + 30),
}
"""When a plan item naming a meal may start (minutes after midnight, end exclusive)."""
MEAL_WORDS = {"breakfast": "breakfast", "lunch": "lunch", "dinner": "dinner", "supper": "dinner"}
CONVERSATION_SPAN = timedelta(minutes=1)


@dataclass(frozen=True)
class Share:
    """`hits` of `total`; the rate is None when there was nothing to count."""

    hits: int = 0
    total: int = 0

    @property
    def rate(self) -> float | None:
        return self.hits / self.total if self.total else None

    def __add__(self, other: Share) -> Share:
        return Share(self.hits + other.hits, self.total + other.total)


def town(shares: Mapping[str, Share]) -> Share:
    return sum(shares.values(), Share())


@dataclass(frozen=True)
class MemoryRow:
    agent: str
    kind: str
    description: str
    created_at: datetime


@dataclass(frozen=True)
class PlanRow:
    id: int
    parent_id: int | None
    agent: str
    level: str
    start: datetime
    location: str | None
    description: str
    status: str


@dataclass(frozen=True)
class LineRow:
    conversation_id: int
    speaker: str
    listener: str
    text: str
    spoken_at: datetime


@dataclass(frozen=True)
class Sample:
    """Where the game saw an agent at one step."""

    agent: str
    at: datetime
    area: str


def area(place: str | None) -> str:
    return place.split(":")[0].strip() if place else ""


def duplicate_memories(rows: Iterable[MemoryRow]) -> dict[str, Share]:
    """Per agent: memories whose description the agent already stored within
    DUPLICATE_WINDOW of game time before, of all its memories."""
    by_text: dict[tuple[str, str], list[datetime]] = defaultdict(list)
    totals: Counter[str] = Counter()
    for row in rows:
        by_text[(row.agent, row.description)].append(row.created_at)
        totals[row.agent] += 1
    hits: Counter[str] = Counter()
    for (agent, _), times in by_text.items():
        times.sort()
        hits[agent] += sum(1 for a, b in pairwise(times) if b - a <= DUPLICATE_WINDOW)
    return {agent: Share(hits[agent], total) for agent, total in totals.items()}


def nested_quotes(rows: Iterable[MemoryRow], names: Names) -> dict[str, Share]:
    """Per agent: utterance memories quoting a quotation, of all its utterance memories."""
    rule = next(r for r in RULES if r.name == "nested_quote")
    shares: dict[str, Share] = defaultdict(Share)
    for row in rows:
        if row.kind == "utterance":
            hit = bool(rule.hits(Text(Kind.OBSERVATION, row.description), names))
            shares[row.agent] += Share(int(hit), 1)
    return dict(shares)


def tasks_in_chunk_area(plans: Sequence[PlanRow]) -> dict[str, Share]:
    """Per agent: live tasks whose area (first path segment) is their hour chunk's area."""
    hours = {p.id: p for p in plans if p.level == "hour"}
    shares: dict[str, Share] = defaultdict(Share)
    for task in plans:
        if task.level != "task" or task.status == "superseded" or task.parent_id not in hours:
            continue
        chunk = hours[task.parent_id]
        shares[task.agent] += Share(int(area(task.location) == area(chunk.location)), 1)
    return dict(shares)


def at_workplace(samples: Iterable[Sample], routines: Mapping[str, Routine]) -> dict[str, Share]:
    """Per agent with work hours: steps inside a shift where the game saw it in the shift's
    area, of all its steps inside a shift."""
    shares: dict[str, Share] = defaultdict(Share)
    for sample in samples:
        routine = routines.get(sample.agent)
        shift = routine.shift_at(_minute(sample.at)) if routine else None
        if shift is not None:
            shares[sample.agent] += Share(int(sample.area == shift.area), 1)
    return dict(shares)


def meals_on_time(plans: Iterable[PlanRow]) -> dict[str, Share]:
    """Per agent: live day and hour items naming a meal that start inside MEAL_WINDOWS, of all
    of them (an item counted once per agent, meal and start)."""
    seen: set[tuple[str, str, datetime]] = set()
    shares: dict[str, Share] = defaultdict(Share)
    for plan in plans:
        if plan.level == "task" or plan.status == "superseded":
            continue
        for word in re.findall(r"\b(breakfast|lunch|dinner|supper)\b", plan.description.lower()):
            meal = MEAL_WORDS[word]
            if (plan.agent, meal, plan.start) in seen:
                continue
            seen.add((plan.agent, meal, plan.start))
            first, last = MEAL_WINDOWS[meal]
            shares[plan.agent] += Share(int(first <= _minute(plan.start) < last), 1)
    return dict(shares)


def long_conversations(lines: Iterable[LineRow]) -> dict[str, Share]:
    """Per agent: its conversations of two lines or more whose lines span more than a game
    minute, of all such conversations."""
    talks: dict[int, list[LineRow]] = defaultdict(list)
    for line in lines:
        talks[line.conversation_id].append(line)
    shares: dict[str, Share] = defaultdict(Share)
    for said in talks.values():
        if len(said) < 2:
            continue
        times = [line.spoken_at for line in said]
        spans = max(times) - min(times) > CONVERSATION_SPAN
        for agent in {said[0].speaker, said[0].listener}:
            shares[agent] += Share(int(spans), 1)
    return dict(shares)


@dataclass
class GrammarFindings:
    """Per agent: texts flagged by any rule, of its distinct texts; per rule: texts flagged,
    by kind, and a first example."""

    shares: dict[str, Share] = field(default_factory=dict)
    by_rule: Counter[str] = field(default_factory=Counter)
    by_kind: dict[str, Share] = field(default_factory=dict)
    examples: dict[str, str] = field(default_factory=dict)


def grammar(texts: Iterable[tuple[str, Text]], names: Names) -> GrammarFindings:
    """Each distinct (agent, text) is judged once: a plan item re-planned ten times weighs as
    much as one said once."""
    found = GrammarFindings()
    shares: dict[str, Share] = defaultdict(Share)
    kinds: dict[str, Share] = defaultdict(Share)
    for agent, text in dict.fromkeys(texts):
        flagged = check(text, names)
        shares[agent] += Share(int(bool(flagged)), 1)
        kinds[text.kind.value] += Share(int(bool(flagged)), 1)
        for rule, hits in flagged.items():
            found.by_rule[rule] += 1
            found.examples.setdefault(rule, f"{hits[0]!r} in {text.text[:120]!r}")
    found.shares, found.by_kind = dict(shares), dict(kinds)
    return found


def _minute(moment: datetime) -> int:
    return moment.hour * 60 + moment.minute
