"""Domain values shared by every layer: frozen, typed, free of any framework.

ORM rows (db/models) and API schemas (service/schemas) map to and from these; they are the only
shapes cognition/ functions take and return.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum


class MemoryKind(StrEnum):
    """What a memory is; the paper's stream holds observations, reflections and plans."""

    OBSERVATION = "observation"
    REFLECTION = "reflection"
    PLAN = "plan"
    UTTERANCE = "utterance"
    SEED = "seed"
    DIRECTIVE = "directive"


CALLER_KINDS: frozenset[MemoryKind] = frozenset(
    {MemoryKind.OBSERVATION, MemoryKind.UTTERANCE, MemoryKind.SEED, MemoryKind.DIRECTIVE}
)
"""Kinds a game or admin may write directly; reflections and plans are made only by the system."""


class MemorySource(StrEnum):
    """Who put a memory in the stream (a player's claim is never the agent's own memory)."""

    GAME = "game"
    PLAYER = "player"
    AGENT = "agent"
    ADMIN = "admin"
    SYSTEM = "system"


@dataclass(frozen=True)
class FactRecord:
    """A piece of news as stored: what, who, where, when, for whom, how much it matters.

    The offline mind reads it once, when the memory is written, and everything that later
    retells, answers or plans from the memory reads these fields, never the sentence again
    (`cognition.offline.facts.Fact` adds the behaviour)."""

    kind: str
    """The name of the kind of news that read it (`cognition.offline.news`)."""
    what: str
    """The occasion without article ("farewell bake sale"), the office, or the report's clause
    ("the old mill bridge is cracked and unsafe")."""
    who: str | None = None
    """Who organises it, runs, or whom it concerns."""
    place: str | None = None
    """As said ("the chapel", "The Copper Kettle"); resolved against the map when planned."""
    month: int | None = None
    day: int | None = None
    weekday: int | None = None
    """0 = Monday; known when the text names a weekday and no date could be fixed."""
    start_min: int | None = None
    end_min: int | None = None
    open_to_all: bool = False
    """"Everyone is invited": whoever hears of it may go."""
    weight: int = 5
    """Importance on the paper's 1–10 scale."""
    source: str | None = None
    """Whom the teller heard it from, when the words say ("Tomas told me that …")."""
    purpose: str | None = None
    """What a gathering is for, as said ("to vote on closing the quarry road")."""


@dataclass(frozen=True)
class LineSaid:
    """A line of a conversation: who said it, to whom, the words."""

    speaker: str
    listener: str
    quote: str


@dataclass(frozen=True)
class MemoryDetail:
    """What a memory's text says, as fields (`memories.detail`): the line it records and the
    news it carries (none: read, and it holds no news; a memory not read yet has no detail)."""

    said: LineSaid | None = None
    news: tuple[FactRecord, ...] = ()


class Recalled(str):
    """A memory's text that carries its stored `detail`, as requests show memories to a mind.

    A model reads the text; the offline mind reads the detail (`knowledge.said`,
    `knowledge.news_in`). A plain `str` is a memory with no stored detail."""

    detail: MemoryDetail | None
    at: datetime | None
    """When it happened (game time): who heard news first is known by it, not by the order
    retrieval returns memories in."""

    def __new__(
        cls, text: str, detail: MemoryDetail | None = None, at: datetime | None = None
    ) -> Recalled:
        made = super().__new__(cls, text)
        made.detail = detail
        made.at = at
        return made


@dataclass(frozen=True)
class Memory:
    """One record of an agent's memory stream. Times are game time."""

    id: int
    kind: MemoryKind
    description: str
    created_at: datetime
    last_accessed_at: datetime
    importance: int
    depth: int = 0
    embedding: Sequence[float] | None = None
    subject: str | None = None
    predicate: str | None = None
    object: str | None = None
    source: MemorySource = MemorySource.GAME
    detail: MemoryDetail | None = None
    """Its fields as read when it was written; None until read (enrichment reads it)."""

    def recalled(self) -> Recalled:
        """The text, carrying its detail, as a request shows it to a mind."""
        return Recalled(self.description, self.detail, self.created_at)


@dataclass(frozen=True)
class NewMemory:
    """A memory about to be written: no id yet, importance may be provisional."""

    description: str
    kind: MemoryKind = MemoryKind.OBSERVATION
    created_at: datetime | None = None
    importance: int | None = None
    subject: str | None = None
    predicate: str | None = None
    object: str | None = None
    source: MemorySource = MemorySource.GAME
    evidence_ids: tuple[int, ...] = ()
    depth: int = 0
    """Only for reflections: 1 + the deepest cited memory's depth."""
    detail: MemoryDetail | None = None
    """Its fields, when the writer knows them (a line said); else enrichment reads them."""


DEFAULT_RECENCY_DECAY = 0.995
"""The paper's exponential decay of recency per game hour since last access."""


@dataclass(frozen=True)
class RetrievalWeights:
    """The α weights of the paper's score; all 1 by default, as in the paper."""

    recency: float = 1.0
    importance: float = 1.0
    relevance: float = 1.0


@dataclass(frozen=True)
class Component:
    """One term of a retrieval score, before and after min-max normalisation."""

    raw: float
    normalized: float


@dataclass(frozen=True)
class ScoredMemory:
    """A retrieved memory with its score explained term by term."""

    memory: Memory
    score: float
    recency: Component
    importance: Component
    relevance: Component


@dataclass(frozen=True)
class Persona:
    """The seed of an agent, as the paper's persona fields. Data, not behaviour."""

    name: str
    age: int | None = None
    innate: str = ""
    background: str = ""
    currently: str = ""
    lifestyle: str = ""
    living_area: str = ""
    daily_plan_requirement: str = ""
    speaking_style: str = ""


class PlanLevel(StrEnum):
    """The three levels of the paper's recursive plan."""

    DAY = "day"
    HOUR = "hour"
    TASK = "task"


class Granularity(StrEnum):
    """What a decomposition produces: hour chunks from a day item, or 5–15 minute actions."""

    HOUR = "hour"
    TASK = "task"


def span_end(start: datetime, duration_min: int) -> datetime:
    """When a plan step that starts at `start` and lasts `duration_min` whole minutes ends: the
    one rule of a plan's end, for the domain value (`PlanItem.end`) and the row
    (`db.models.Plan.end`, whose SQL side is the same sum)."""
    return start + timedelta(minutes=duration_min)


@dataclass(frozen=True)
class PlanItem:
    """A plan step: start (game time), duration, what, and where (a place path)."""

    start: datetime
    duration_min: int
    description: str
    location: str | None = None
    emoji: str | None = None
    object_state: str | None = None

    @property
    def end(self) -> datetime:
        return span_end(self.start, self.duration_min)


@dataclass(frozen=True)
class Insight:
    """A reflection with the 1-based indices of the numbered statements it cites."""

    text: str
    cited_indices: tuple[int, ...]


@dataclass(frozen=True)
class Reaction:
    """Whether an observation should interrupt the plan, and how."""

    react: bool
    what: str = ""
    talk_to: str | None = None
    reason: str = ""


@dataclass(frozen=True)
class Utterance:
    """One turn of dialogue; `ends` is the speaker's wish to close the conversation."""

    text: str
    ends: bool = False


@dataclass(frozen=True)
class Answer:
    """An agent's answer to a question, citing the 1-based indices of the memories it used."""

    text: str
    cited: tuple[int, ...] = ()


@dataclass(frozen=True)
class Notes:
    """What one side of a conversation takes away from it; "" when there is nothing."""

    planning: str = ""
    """For the agent's plans: what was agreed, with whom, when and where."""
    memo: str = ""
    """What the agent found notable (news it heard, something it learned)."""
    appointment: PlanItem | None = None
    """A gathering agreed for later today, to put in today's plan at once (the day's outline,
    made this morning, could not hold it); its location is the place as said, if any."""


@dataclass(frozen=True)
class RelationshipUpdate:
    """How one agent now sees another after a conversation (Project Sid's social awareness)."""

    summary: str
    sentiment: int
    evidence: int | None = None
    """How many statements about the other it rests on, where the mind says (the offline
    one does): a view resting on none is no reason to forget one already on record."""


@dataclass(frozen=True)
class CallRecord:
    """One model call (LLM or offline), for the audit table `llm_calls`."""

    operation: str
    model: str
    tokens_in: int
    tokens_out: int
    latency_ms: float
    cost_usd: float = 0.0
    error: str | None = None
    degraded: bool = False
    prompt: str | None = None
    response: str | None = None
    extra: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Decision:
    """A react-or-continue decision with the context it was made from: the game's "why"."""

    react: bool
    what: str
    talk_to: str | None
    reason: str
    context: str


@dataclass(frozen=True)
class Replan:
    """A re-plan as plan arithmetic: what stays, what is superseded (never deleted), what is new."""

    kept: tuple[PlanItem, ...]
    """Items over by the reaction's start."""
    superseded: tuple[PlanItem, ...]
    """Every item not over by then, in time order."""
    reaction: PlanItem
    rewritten: tuple[tuple[PlanItem, ...], ...]
    """For each superseded item (same order), its parts written again as new items."""

    @property
    def added(self) -> tuple[PlanItem, ...]:
        """The new items: the reaction and every rewritten part, in time order."""
        parts = [part for item in self.rewritten for part in item]
        return tuple(sorted((self.reaction, *parts), key=lambda item: item.start))

    @property
    def plan(self) -> tuple[PlanItem, ...]:
        """The live plan after the re-plan, in time order."""
        return tuple(sorted((*self.kept, *self.added), key=lambda item: item.start))


@dataclass(frozen=True)
class DecompositionWindow:
    """The plan items near the game clock that still lack their next level of detail."""

    day_items: tuple[PlanItem, ...]
    """Day items to split into hour chunks."""
    hour_items: tuple[PlanItem, ...]
    """Hour chunks to split into 5–15 minute tasks."""


@dataclass(frozen=True)
class Turn:
    """One line of a conversation, with the memories the speaker retrieved to say it."""

    speaker: str
    text: str
    spoken_at: datetime
    ends: bool = False
    memory_ids: tuple[int, ...] = ()


class ConversationEnd(StrEnum):
    """Why a conversation stopped: a side closed it, or it reached the turn cap."""

    SPEAKER = "speaker"
    CAP = "cap"


@dataclass(frozen=True)
class Conversation:
    """A finished two-agent conversation; `topic` is the intent that opened it."""

    topic: str
    turns: tuple[Turn, ...]
    ended_by: ConversationEnd
