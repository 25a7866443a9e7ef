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
