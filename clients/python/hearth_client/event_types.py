"""The payloads of a world's events (`Hearth.events`), one TypedDict per event type, as the
OpenAPI document declares them (`WorldEvent`). `Event.type` names one of `EventType`, and
`EVENT_TYPES[event.type]` is the shape of `event.data`. Times are strings as the server sends
them (game times carry no offset)."""

from __future__ import annotations

from typing import Literal, TypedDict

EventType = Literal[
    "agent_created",
    "agent_updated",
    "agent_deleted",
    "agents_moved",
    "map_updated",
    "action_changed",
    "inner_voice",
    "object_state_changed",
    "reaction",
    "plan_created",
    "utterance",
    "conversation_ended",
    "reflection",
]


class AgentCreatedEvent(TypedDict):
    agent_id: str
    name: str


class AgentUpdatedEvent(TypedDict):
    agent_id: str
    name: str
    changed: list[str]


class AgentDeletedEvent(TypedDict):
    agent_id: str
    name: str


class Moved(TypedDict):
    agent_id: str
    name: str
    place: str | None
    previous: str | None


class AgentsMovedEvent(TypedDict):
    moves: list[Moved]


class MapUpdatedEvent(TypedDict):
    places: int
    created: int
    updated: int
    removed: int


class ActionChangedEvent(TypedDict, total=False):
    agent_id: str
    name: str
    plan_id: int | None
    level: Literal["day", "hour", "task"] | None
    description: str | None
    location: str | None
    emoji: str | None
    object_state: str | None
    start: str | None
    end: str | None


class InnerVoiceEvent(TypedDict):
    agent_id: str
    name: str
    memory_id: int
    text: str


class ObjectStateChangedEvent(TypedDict):
    place: str
    state: str
    previous_state: str
    perceived_by: list[str]


class ReactionEvent(TypedDict):
    agent_id: str
    name: str
    memory_id: int
    react: bool
    what: str
    talk_to: str | None
    reason: str
    plan_id: int | None


class PlanCreatedEvent(TypedDict, total=False):
    agent_id: str
    level: Literal["day", "hour", "task"]
    plan_ids: list[int]
    day: str | None
    parent_id: int | None


class UtteranceEvent(TypedDict):
    conversation_id: int
    seq: int
    agent_id: str
    name: str
    listener_id: str
    text: str
    ends: bool
    spoken_at: str


class ConversationEndedEvent(TypedDict):
    conversation_id: int
    topic: str
    agent_ids: list[str]
    turns: int


class ReflectionEvent(TypedDict):
    agent_id: str
    memory_id: int
    description: str
    seq: int


EventPayload = (
    AgentCreatedEvent
    | AgentUpdatedEvent
    | AgentDeletedEvent
    | AgentsMovedEvent
    | MapUpdatedEvent
    | ActionChangedEvent
    | InnerVoiceEvent
    | ObjectStateChangedEvent
    | ReactionEvent
    | PlanCreatedEvent
    | UtteranceEvent
    | ConversationEndedEvent
    | ReflectionEvent
)

EVENT_TYPES: dict[str, type] = {
    "agent_created": AgentCreatedEvent,
    "agent_updated": AgentUpdatedEvent,
    "agent_deleted": AgentDeletedEvent,
    "agents_moved": AgentsMovedEvent,
    "map_updated": MapUpdatedEvent,
    "action_changed": ActionChangedEvent,
    "inner_voice": InnerVoiceEvent,
    "object_state_changed": ObjectStateChangedEvent,
    "reaction": ReactionEvent,
    "plan_created": PlanCreatedEvent,
    "utterance": UtteranceEvent,
    "conversation_ended": ConversationEndedEvent,
    "reflection": ReflectionEvent,
}
"""The payload's shape for each event type."""
