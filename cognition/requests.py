"""What a cognitive function asks of the Mind: one frozen request type per operation.

A request is data: the inputs of one question, typed, with the answer type as its parameter
(`PlanDay` is a `Request[list[PlanItem]]`). Every Mind has one entry point, `think(request)`,
and each implementation keys its work by request type: the LLM mind's prompt and parser
(`cognition.asks`), the offline mind's heuristic (`cognition.offline.mind`), the scripted
mind's answers (`cognition.testing`). Adding an operation is one request type here, one prompt
with its parser, and one offline answer — nothing else spells the operation out.

`operation` names the request in the audit (`llm_calls.operation`), in
`HEARTH_LLM_CHEAP_OPERATIONS` and in scripted tests.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any, ClassVar, Generic, TypeVar

from cognition.places import PlaceOption
from cognition.types import (
    Answer,
    Granularity,
    Insight,
    Notes,
    Persona,
    PlanItem,
    Reaction,
    RelationshipUpdate,
    Utterance,
)

T = TypeVar("T")


@dataclass(frozen=True)
class Request(Generic[T]):
    """One question to the Mind whose answer is a `T`."""

    operation: ClassVar[str] = ""

    def inputs(self) -> dict[str, Any]:
        """The request's fields by name (what a scripted test or the audit sees)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class RateImportance(Request[list[int]]):
    """Poignancy 1–10 of each memory, in order, on the paper's scale."""

    operation: ClassVar[str] = "rate_importance"
    memories: Sequence[str]
    personas: Sequence[Persona] = ()
    """Whose memories they are: poignancy depends on who lives them."""


@dataclass(frozen=True)
class ReflectionQuestions(Request[list[str]]):
    """The n most salient high-level questions about the subjects of the records."""

    operation: ClassVar[str] = "reflection_questions"
    records: Sequence[str]
    n: int = 3
    name: str = ""
    """The reflecting agent, whom the questions are about."""


@dataclass(frozen=True)
class Insights(Request[list[Insight]]):
    """Up to n insights from the numbered statements, citing them by 1-based index."""

    operation: ClassVar[str] = "insights"
    question: str
    statements: Sequence[str]
    n: int = 5
    name: str = ""
    """The reflecting agent, whom the insights are about."""


@dataclass(frozen=True)
class PlanDay(Request[list[PlanItem]]):
    """The day outline: 5–8 items in time order starting at the agent's wake-up."""

    operation: ClassVar[str] = "plan_day"
    persona: Persona
    summary: str
    previous_day: str
    directives: Sequence[str]
    now: datetime
    notes: Sequence[str] = ()
    """What the agent retrieved for today: "<name>'s plan for <date>" (planning notes made
    after conversations) and "important recent events"."""
    known_places: Sequence[str] = ()
    """The agent's known place paths, with their opening hours where the map gives them."""


@dataclass(frozen=True)
class Decompose(Request[list[PlanItem]]):
    """Split a plan item into hour chunks or 5–15 minute actions covering its span."""

    operation: ClassVar[str] = "decompose"
    item: PlanItem
    granularity: Granularity
    persona: Persona
    summary: str
    schedule: Sequence[PlanItem] = ()
    """The day around the item (what comes before and after), for a model's context."""
    memories: Sequence[str] = ()
    """Memories retrieved for the item, for a model's context."""


@dataclass(frozen=True)
class ChooseLocation(Request[str]):
    """One level of the paper's descent: which of `options` — the known places directly inside
    `within` ("" for the areas) — hosts the action, as the option's name; "" when `within` is
    set and none suits the action better than `within` itself (`cognition.locating`).

    `current` is where the agent is (for a task, its hour chunk's place), `home` its living
    area, both paths ("" unknown); the action runs from `at` until `until` (None: a moment),
    for opening hours.
    """

    operation: ClassVar[str] = "choose_location"
    action: str
    options: Sequence[PlaceOption]
    at: datetime
    until: datetime | None = None
    within: str = ""
    current: str = ""
    home: str = ""
    name: str = ""


@dataclass(frozen=True)
class React(Request[Reaction]):
    """Whether to react to an observation, and if so what to do or whom to talk to."""

    operation: ClassVar[str] = "react"
    persona: Persona
    summary: str
    status: str
    observation: str
    context: str
    now: datetime
    recalled: Sequence[str] = ()
    """The context's statements as memories (`Recalled`, with their stored detail)."""
    observed_person: str | None = None
    """The agent the observation is of; "" when it is of something else (an object, a place);
    None when unknown (an observation a game wrote with no subject)."""


@dataclass(frozen=True)
class SummarizeRelationship(Request[RelationshipUpdate]):
    """How `name` sees `other` (summary and sentiment 0–10) from retrieved statements."""

    operation: ClassVar[str] = "relationship"
    name: str
    other: str
    statements: Sequence[str]


@dataclass(frozen=True)
class NextUtterance(Request[Utterance]):
    """The speaker's next line given who they talk to, why, and what was said so far."""

    operation: ClassVar[str] = "next_utterance"
    speaker: Persona
    listener: str
    summary: str
    relationship: str
    intent: str
    memories: Sequence[str]
    history: Sequence[tuple[str, str]]
    now: datetime
    place: str = ""
    """Where the two are talking."""
    listener_status: str = ""
    """What the listener is doing."""
    speaker_status: str = ""
    """What the speaker was doing before the conversation began."""
    known_by_world: bool = False
    """The world's records say the two know each other (an earlier conversation, or the
    listener's relationship or persona names the speaker), whatever the speaker recalls."""


@dataclass(frozen=True)
class SummarizeAgent(Request[str]):
    """The paper's summary description from three retrievals: core, occupation, feeling."""

    operation: ClassVar[str] = "summarize_agent"
    persona: Persona
    retrieved: Mapping[str, Sequence[str]] = field(default_factory=dict)


@dataclass(frozen=True)
class ObjectState(Request[str | None]):
    """The state an object takes while the action uses it, or None if it is unaffected."""

    operation: ClassVar[str] = "object_state"
    action: str
    obj: str


@dataclass(frozen=True)
class Emoji(Request[str]):
    """One or two emoji that show the action in a game's speech bubble."""

    operation: ClassVar[str] = "emoji"
    action: str


@dataclass(frozen=True)
class AnswerQuestion(Request[Answer]):
    """The agent's in-character answer, citing the 1-based indices of memories it used."""

    operation: ClassVar[str] = "answer"
    question: str
    persona: Persona
    summary: str
    asker: str
    memories: Sequence[str]
    now: datetime | None = None
    """The game time of the interview, so "today" and "tomorrow" mean something."""
    known_places: Sequence[str] = ()
    """The paths of the places the agent knows: a question may name a place by what is in it
    ("Nia's workshop" is Gweithdy Llechi, whose room is the workshop). The model reads the
    memories for that; the offline mind looks the place up here."""


@dataclass(frozen=True)
class ConversationNotes(Request[Notes]):
    """What one side takes away from a finished conversation (the reference code's planning
    thought and memo): what it must remember for its plans, and what it found notable."""

    operation: ClassVar[str] = "conversation_notes"
    name: str
    other: str
    lines: Sequence[tuple[str, str]]
    now: datetime


@dataclass(frozen=True)
class ReviseCurrently(Request[str]):
    """The agent's `currently` for a new day, from its plans and recent events."""

    operation: ClassVar[str] = "revise_currently"
    persona: Persona
    plan_notes: Sequence[str]
    events: Sequence[str]
    now: datetime


@dataclass(frozen=True)
class JudgeAnswer(Request[bool]):
    """Whether an interview answer says the speaker knows of `subject`, as the paper's
    annotators labelled answers yes or no (§7.1)."""

    operation: ClassVar[str] = "judge_answer"
    question: str
    answer: str
    subject: str
    """What knowing means here: "Junie Halvorsen's Valentine's Day party", "Tomas Ferreira"."""
    cues: Sequence[str] = ()
    """Words that name the subject ("party", "Walter"): what a rule without a model looks for."""
    cited: Sequence[str] = ()
    """The memories the answer rests on: a bare "Yes, I did." is about what they name."""


@dataclass(frozen=True)
class RankAnswers(Request[list[int]]):
    """The answers (1-based) from most to least believable as the character's, as the paper's
    evaluators ranked its conditions (§6)."""

    operation: ClassVar[str] = "rank_answers"
    name: str
    summary: str
    question: str
    answers: Sequence[str]
    memories: Sequence[str] = ()
    """What the judge may consult of the character's memory stream (the evaluators saw it)."""


ALL_REQUESTS: tuple[type[Request[Any]], ...] = (
    RateImportance,
    ReflectionQuestions,
    Insights,
    PlanDay,
    Decompose,
    ChooseLocation,
    React,
    SummarizeRelationship,
    NextUtterance,
    SummarizeAgent,
    ObjectState,
    Emoji,
    AnswerQuestion,
    ConversationNotes,
    ReviseCurrently,
    JudgeAnswer,
    RankAnswers,
)
"""Every operation, so each Mind implementation can be checked to answer them all."""
OPERATIONS: frozenset[str] = frozenset(r.operation for r in ALL_REQUESTS)
