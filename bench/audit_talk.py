"""What a player would notice in any town's talk and plans (`bench.audit --scenario FILE`).

opening      the share of lines holding the most common three-word sentence opening
             ("these days i'm" in a quarter of all lines reads as a script)
repeats      the share of lines a speaker already said in the same conversation or within
             the game hour before
introduced   self-introductions ("I don't think we've met. I'm Pell.") to someone the
             speaker knew: a relationship in the pack either way, or an earlier talk
borrowed     plan tasks that are a step of another occupation's template (a fisherman
             "checking the taps and glasses") — the agent's own background and duties name
             none of that template's words
longest      the longest memory the town wrote, in characters (a memory that quotes itself
             grows; a seed, the admin's own text, is not counted)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from bench.audit_measures import LineRow, MemoryRow, PlanRow
from cognition.offline.activities import OCCUPATIONS, TEMPLATES
from cognition.offline.facts import sentences
from cognition.offline.text import stems

OPENING_WORDS = 3
REPEAT_WINDOW = timedelta(hours=1)
INTRODUCTION = re.compile(
    r"\b(?:have we met|don't think we've (?:met|been introduced)|do not think we have met|"
    r"nice to meet you|lovely to meet you)\b",
    re.I,
)
MAX_OPENING = 0.10
MAX_REPEATS = 0.10
MAX_MEMORY = 600


@dataclass(frozen=True)
class TalkAudit:
    lines: int
    opening: tuple[str, int]
    """The most common opening and how many lines hold it."""
    repeats: int
    introduced: tuple[str, ...]
    """"speaker → listener: line" for each introduction to someone known."""
    tasks: int
    borrowed: tuple[str, ...]
    """"agent: task" for each borrowed task."""
    longest: tuple[int, str]
    """(characters, "agent (kind): first words …")."""

    def targets(self) -> dict[str, bool]:
        share = self.opening[1] / self.lines if self.lines else 0.0
        return {
            f"no opening in more than {MAX_OPENING:.0%} of lines": share <= MAX_OPENING,
            f"repeats ≤ {MAX_REPEATS:.0%}": self.repeats <= MAX_REPEATS * max(1, self.lines),
            "no self-introduction to someone known": not self.introduced,
            "no borrowed tasks": not self.borrowed,
            f"no memory over {MAX_MEMORY} characters": self.longest[0] <= MAX_MEMORY,
        }


def openings(text: str) -> set[str]:
    """The first three words of each sentence of a line, lower-cased, punctuation dropped
    ("St. Brannoc's chapel" is one sentence, not two)."""
    found = set()
    for sentence in sentences(text):
        words = re.findall(r"[a-z']+", sentence.lower())
        if len(words) >= OPENING_WORDS:
            found.add(" ".join(words[:OPENING_WORDS]))
    return found


def most_common_opening(lines: Sequence[LineRow]) -> tuple[str, int]:
    counts: Counter[str] = Counter()
    for line in lines:
        counts.update(openings(line.text))
    return counts.most_common(1)[0] if counts else ("", 0)


def repeats(lines: Sequence[LineRow]) -> int:
    """Lines their speaker said before in the same conversation or within the hour."""
    said: dict[tuple[str, str], list[LineRow]] = {}
    count = 0
    for line in sorted(lines, key=lambda row: row.spoken_at):
        earlier = said.setdefault((line.speaker, line.text), [])
        if any(
            e.conversation_id == line.conversation_id
            or line.spoken_at - e.spoken_at <= REPEAT_WINDOW
            for e in earlier
        ):
            count += 1
        earlier.append(line)
    return count


def introductions_to_known(
    lines: Sequence[LineRow], relationships: Mapping[str, set[str]]
) -> list[str]:
    """Self-introductions to someone the speaker knew (module docstring)."""
    began: dict[int, tuple[datetime, frozenset[str]]] = {}
    for line in lines:
        pair = frozenset((line.speaker, line.listener))
        if line.conversation_id not in began or line.spoken_at < began[line.conversation_id][0]:
            began[line.conversation_id] = (line.spoken_at, pair)
    found = []
    for line in lines:
        at, pair = began[line.conversation_id]
        talked = any(p == pair and t < at for t, p in began.values())
        knew = (
            talked
            or line.listener in relationships.get(line.speaker, set())
            or line.speaker in relationships.get(line.listener, set())
        )
        if knew and INTRODUCTION.search(line.text):
            found.append(f"{line.speaker} → {line.listener}: {line.text}")
    return found


def borrowed_tasks(plans: Sequence[PlanRow], jobs: Mapping[str, str]) -> tuple[int, list[str]]:
    """(tasks, the borrowed ones): a task that is a step of an occupation template none of
    whose words the agent's own background and duties (`jobs`) name. A step several
    templates share ("restocking the shelves": the shop's and the pharmacy's) is borrowed
    only when the agent's words name none of them."""
    steps: dict[str, set[str]] = {}
    for template in TEMPLATES:
        if template.name in OCCUPATIONS:
            for step in template.steps:
                if "{task}" not in step.description:
                    steps.setdefault(step.description, set()).update(template.keywords)
    tasks = [p for p in plans if p.level == "task"]
    borrowed = [
        f"{p.agent}: {p.description}"
        for p in tasks
        if p.description in steps and not steps[p.description] & stems(jobs.get(p.agent, ""))
    ]
    return len(tasks), sorted(set(borrowed))


SEED = "seed"
"""The kind of memory an admin seeds: its length is the admin's."""


def longest_memory(memories: Sequence[MemoryRow]) -> tuple[int, str]:
    """The longest memory the town wrote; a seed is the admin's own text, kept as given."""
    written = [m for m in memories if m.kind != SEED]
    if not written:
        return 0, ""
    memory = max(written, key=lambda m: len(m.description))
    return len(memory.description), f"{memory.agent} ({memory.kind}): {memory.description[:80]}…"


def audit_talk(
    *,
    lines: Sequence[LineRow],
    plans: Sequence[PlanRow],
    memories: Sequence[MemoryRow],
    relationships: Mapping[str, set[str]],
    jobs: Mapping[str, str],
) -> TalkAudit:
    tasks, borrowed = borrowed_tasks(plans, jobs)
    return TalkAudit(
        lines=len(lines),
        opening=most_common_opening(lines),
        repeats=repeats(lines),
        introduced=tuple(introductions_to_known(lines, relationships)),
        tasks=tasks,
        borrowed=tuple(borrowed),
        longest=longest_memory(memories),
    )


def report(audit: TalkAudit) -> str:
    n = max(1, audit.lines)
    rows = [
        "| measure | result |",
        "|---|---|",
        f'| most common opening | "{audit.opening[0]}" in {audit.opening[1]} of {audit.lines} '
        f"lines ({audit.opening[1] / n:.1%}) |",
        f"| repeated lines | {audit.repeats} of {audit.lines} ({audit.repeats / n:.1%}) |",
        f"| self-introductions to someone known | {len(audit.introduced)} |",
        f"| borrowed tasks | {len(audit.borrowed)} of {audit.tasks} tasks |",
        f"| longest memory | {audit.longest[0]} characters |",
    ]
    examples = [*audit.introduced[:3], *audit.borrowed[:3]]
    verdicts = [f"- {k}: {'met' if ok else 'NOT met'}" for k, ok in audit.targets().items()]
    return "\n".join([*rows, "", *(f"  e.g. {e}" for e in examples), *verdicts])
