"""The world's events (`GET …/events`, Server-Sent Events): one payload schema per type.

Each SSE message is `id:` the event's id, `event:` its type (a key of `EVENT_PAYLOADS`) and
`data:` the payload as JSON. The OpenAPI document carries these as components (`WorldEvent`,
one variant per type), so SDKs type them; a test checks every emitted payload against them.
"""

from __future__ import annotations

import uuid
from datetime import date
from typing import Literal

from pydantic import BaseModel, Field

from service.schemas.common import GameTimeRead


class AgentCreatedEvent(BaseModel):
    agent_id: uuid.UUID
    name: str


class AgentUpdatedEvent(BaseModel):
    agent_id: uuid.UUID
    name: str
    changed: list[str] = Field(description="the fields that changed (`place`, `known_places`…)")


class AgentDeletedEvent(AgentCreatedEvent):
    pass


class Moved(BaseModel):
    agent_id: uuid.UUID
    name: str
    place: str | None
    previous: str | None


class AgentsMovedEvent(BaseModel):
    moves: list[Moved]


class MapUpdatedEvent(BaseModel):
    places: int
    created: int
    updated: int
    removed: int


class ActionChangedEvent(BaseModel):
    """An agent's current action changed (`plan_id` null: it has none now)."""

    agent_id: uuid.UUID
    name: str
    plan_id: int | None
    level: Literal["day", "hour", "task"] | None = None
    description: str | None = None
    location: str | None = None
    emoji: str | None = None
    object_state: str | None = None
    start: GameTimeRead | None = None
    end: GameTimeRead | None = None


class InnerVoiceEvent(BaseModel):
    agent_id: uuid.UUID
    name: str
    memory_id: int
    text: str


class ObjectStateChangedEvent(BaseModel):
    place: str
    state: str
    previous_state: str
    perceived_by: list[uuid.UUID]


class ReactionEvent(BaseModel):
    agent_id: uuid.UUID
    name: str
    memory_id: int = Field(description="the observation reacted to")
    react: bool
    what: str
    talk_to: str | None
    reason: str
    plan_id: int | None = Field(description="the reaction's plan item, if it re-planned")


class PlanCreatedEvent(BaseModel):
    """A day outline (`day`) or the steps of a plan item (`parent_id`)."""

    agent_id: uuid.UUID
    level: Literal["day", "hour", "task"]
    plan_ids: list[int]
    day: date | None = None
    parent_id: int | None = None


class UtteranceEvent(BaseModel):
    conversation_id: int
    seq: int
    agent_id: uuid.UUID
    name: str
    listener_id: uuid.UUID
    text: str
    ends: bool
    spoken_at: GameTimeRead


class ConversationEndedEvent(BaseModel):
    conversation_id: int
    topic: str
    agent_ids: list[uuid.UUID]
    turns: int


class ReflectionEvent(BaseModel):
    agent_id: uuid.UUID
    memory_id: int
    description: str
    seq: int


EVENT_PAYLOADS: dict[str, type[BaseModel]] = {
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
"""Every event type a world's stream carries, with its payload."""
