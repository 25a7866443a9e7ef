"""The paper's three emergent outcomes (§7.1) from judged interviews and the run's rows.

- Diffusion: the share of agents whose answer a judge labels yes; each yes checked against
  the memories it cites (`emergence_trace.grounded`), the rest counted as hallucinated.
- Relationships: an undirected edge where both agents say they know of each other; density
  η = 2|E| / (|V|(|V| − 1)); a yes citing no memory that names the other is hallucinated.
- Coordination: invited = heard a line mentioning the party before it ended; attended = the
  game put them under the party's place during its hours.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from hearth_client.demo.drive import Snapshot

from bench.emergence_data import Line, RunRows
from bench.emergence_interviews import Judged
from bench.emergence_topics import Gathering, Topic
from bench.emergence_trace import Knowledge, grounded, knows_person_grounded
from cognition.offline.text import first_name

Edge = frozenset[str]


@dataclass(frozen=True)
class Diffusion:
    topic: Topic
    agents: int
    knew: tuple[str, ...]
    """Agents whose answer the judge labelled yes."""
    hallucinated: tuple[str, ...]
    """Of those, the ones whose yes rests on no memory of the news as it reached them."""

    @property
    def share(self) -> float:
        return len(self.knew) / self.agents if self.agents else 0.0


def diffusion(
    answers: Sequence[Judged], *, judge: str, knowledge: Knowledge, rows: RunRows
) -> Diffusion:
    knew = [j for j in answers if j.labels[judge]]
    false = [
        j.reply.question.agent
        for j in knew
        if not grounded(
            j.reply.memory_ids,
            agent=j.reply.question.agent,
            knowledge=knowledge,
            memories=rows.memories,
            evidence=rows.evidence,
        )
    ]
    return Diffusion(
        knowledge.topic, len(answers), tuple(j.reply.question.agent for j in knew), tuple(false)
    )


@dataclass(frozen=True)
class Network:
    agents: tuple[str, ...]
    edges: frozenset[Edge]
    answers: int
    yes: int
    hallucinated: int

    @property
    def density(self) -> float:
        n = len(self.agents)
        return 2 * len(self.edges) / (n * (n - 1)) if n > 1 else 0.0


def network(
    answers: Sequence[Judged], *, judge: str, agents: Sequence[str], rows: RunRows
) -> Network:
    firsts = [first_name(name) for name in agents]
    unique = {name: firsts.count(first_name(name)) == 1 for name in agents}
    said_yes: set[tuple[str, str]] = set()
    hallucinated = 0
    for judged in answers:
        if not judged.labels[judge]:
            continue
        asked = judged.reply.question
        said_yes.add((asked.agent, asked.about))
        if not knows_person_grounded(
            judged.reply.memory_ids,
            other=asked.about,
            unique_first=unique[asked.about],
            memories=rows.memories,
        ):
            hallucinated += 1
    edges = frozenset(frozenset(pair) for pair in said_yes if (pair[1], pair[0]) in said_yes)
    return Network(tuple(agents), edges, len(answers), len(said_yes), hallucinated)


def relationship_edges(rows: RunRows, *, at: datetime | None = None) -> frozenset[Edge]:
    """The `relationship_pairs` view as edges, those formed by `at` (all when None)."""
    return frozenset(
        frozenset((a, b))
        for a, b, since in rows.pairs
        if at is None or (since is not None and since <= at)
    )


@dataclass(frozen=True)
class Attendance:
    invited: tuple[str, ...]
    present: tuple[str, ...]
    """Everyone the game put at the party (the host included)."""

    @property
    def attended(self) -> tuple[str, ...]:
        return tuple(name for name in self.invited if name in self.present)

    @property
    def no_shows(self) -> tuple[str, ...]:
        return tuple(name for name in self.invited if name not in self.present)


def attendance(
    heard: Iterable[Line],
    snapshots: Iterable[Snapshot],
    *,
    names: Mapping[str, str],
    topic: Topic,
    gathering: Gathering,
) -> Attendance:
    """`names` maps agent ids to names (snapshots are by id)."""
    invited: list[str] = []
    for line in heard:
        if (
            line.spoken_at < gathering.end
            and line.listener != topic.originator
            and line.listener not in invited
            and topic.mentioned_in(line.text)
        ):
            invited.append(line.listener)
    present: list[str] = []
    for seen in snapshots:
        if not gathering.start <= datetime.fromisoformat(seen.now) < gathering.end:
            continue
        for agent_id, place in seen.places.items():
            there = (place or "").split(":")[0].strip() == gathering.place
            if there and names[agent_id] not in present:
                present.append(names[agent_id])
    order = list(names.values())
    return Attendance(
        tuple(sorted(invited, key=order.index)), tuple(sorted(present, key=order.index))
    )
