"""What the game loop reads and writes: memories, retrieval, steps, chat, plans and usage.

Re-exported by `hearth_client.types`; import from there.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

__all__ = [
    "Action",
    "AgentDoing",
    "AgentNow",
    "AgentStep",
    "ChatReply",
    "Component",
    "Components",
    "Conversation",
    "EarlierView",
    "InterviewAnswer",
    "InterviewMode",
    "Line",
    "Memory",
    "MemoryDetail",
    "MemoryKind",
    "NewMemory",
    "Perceived",
    "PlanDay",
    "PlanNode",
    "Relationship",
    "SearchResponse",
    "SearchResult",
    "Speech",
    "StepResult",
    "Usage",
    "UsageBucket",
    "UsageTimeline",
    "UsedMemory",
    "Weights",
]


class Weights(TypedDict, total=False):
    recency: float
    importance: float
    relevance: float


# --- memories -------------------------------------------------------------------------------

MemoryKind = Literal["observation", "reflection", "plan", "utterance", "seed", "directive"]


class NewMemory(TypedDict):
    description: str
    kind: NotRequired[Literal["observation", "utterance", "seed", "directive"]]
    created_at: NotRequired[str]
    source: NotRequired[Literal["game", "player", "admin"]]
    subject: NotRequired[str]
    predicate: NotRequired[str]
    object: NotRequired[str]


class Memory(TypedDict):
    id: int
    kind: MemoryKind
    description: str
    created_at: str
    last_accessed_at: str
    importance: int
    importance_scored: bool
    depth: int
    source: str
    embedded: bool
    subject: str | None
    predicate: str | None
    object: str | None


class MemoryDetail(Memory):
    evidence: list[MemoryDetail]


class Component(TypedDict):
    raw: float
    normalized: float


class Components(TypedDict):
    recency: Component
    importance: Component
    relevance: Component


class SearchResult(TypedDict):
    id: int
    description: str
    kind: MemoryKind
    created_at: str
    importance: int
    score: float
    components: Components


class SearchResponse(TypedDict):
    results: list[SearchResult]
    weights: Weights
    at: str


# --- the game loop, plans, usage, health ---------------------------------------------------


class Perceived(TypedDict, total=False):
    kind: Literal["agent", "object", "event"]
    subject: str
    state: str
    description: str


class AgentStep(TypedDict):
    agent_id: str
    place: NotRequired[str]
    position: NotRequired[dict[str, Any]]
    perceived: NotRequired[list[Perceived]]
    in_focus: NotRequired[bool]


class Action(TypedDict):
    plan_id: int
    level: str
    description: str
    location: str | None
    emoji: str | None
    object_state: str | None
    start: str
    end: str


class Speech(TypedDict):
    conversation_id: int
    speaker: str
    text: str
    spoken_at: str


class AgentNow(TypedDict):
    agent_id: str
    action: Action | None
    utterance: Speech | None
    stored: int


class StepResult(TypedDict):
    now: str
    agents: list[AgentNow]


class UsedMemory(TypedDict):
    id: int
    kind: str
    description: str


class ChatReply(TypedDict):
    conversation_id: int
    reply: str
    ends: bool
    memories: list[UsedMemory]
    player_memory_id: int
    reply_memory_id: int


InterviewMode = Literal[
    "full", "no_reflection", "no_planning", "no_reflection_no_planning", "no_memory"
]


class InterviewAnswer(TypedDict):
    answer: str
    mode: str
    memories: list[UsedMemory]


class PlanNode(TypedDict):
    id: int
    level: Literal["day", "hour", "task"]
    start: str
    duration_min: int
    location: str | None
    description: str
    emoji: str | None
    object_state: str | None
    status: Literal["planned", "active", "done", "superseded"]
    superseded_by: int | None
    children: list[PlanNode]


class PlanDay(TypedDict):
    day: str
    now: str
    current_action: PlanNode | None
    items: list[PlanNode]


class BudgetWindow(TypedDict):
    """One budget window under way (`starts_at`/`resets_at`: game time for a game day, wall
    time with an offset for an hour); amounts in USD are decimal strings."""

    starts_at: str
    resets_at: str
    limit_calls: int | None
    limit_cost_usd: str | None
    spent_calls: int
    spent_cost_usd: str
    remaining_calls: int | None
    remaining_cost_usd: str | None
    answered_offline: int
    exhausted: bool


class BudgetReport(TypedDict):
    source: Literal["world", "default"]
    limits: dict[str, Any]
    game_day: BudgetWindow | None
    wall_hour: BudgetWindow | None


class Usage(TypedDict):
    basis: Literal["game", "wall"]
    since: str | None
    until: str | None
    total: dict[str, Any]
    by_agent: list[dict[str, Any]]
    by_operation: list[dict[str, Any]]
    by_focus: list[dict[str, Any]]
    budget: BudgetReport | None


class UsageBucket(TypedDict):
    start: str
    total: dict[str, Any]
    by_agent: list[dict[str, Any]]
    by_operation: list[dict[str, Any]]


class UsageTimeline(TypedDict):
    bucket_minutes: int
    since: str | None
    until: str | None
    buckets: list[UsageBucket]


class AgentDoing(TypedDict):
    """One agent in the town view (`Hearth.actions`)."""

    agent_id: str
    name: str
    place: str | None
    action: Action | None
    utterance: Speech | None


class Line(TypedDict):
    seq: int
    speaker: str
    speaker_agent_id: str | None
    text: str
    spoken_at: str


class Conversation(TypedDict):
    id: int
    initiator_id: str
    initiator: str
    partner_agent_id: str | None
    partner: str
    topic: str
    status: Literal["open", "ended"]
    started_at: str
    ended_at: str | None
    lines: list[Line]


class EarlierView(TypedDict):
    summary: str
    sentiment: int
    until: str


class Relationship(TypedDict):
    other_name: str
    other_agent_id: str | None
    summary: str
    sentiment: int
    updated_at: str
    history: list[EarlierView]
