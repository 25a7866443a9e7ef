"""The step protocol: what the game reports for many agents, and what each is doing now."""

from __future__ import annotations

import uuid
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, model_validator

from service.schemas.agents import CREATE_PLACES_DOC, IN_FOCUS_DOC
from service.schemas.common import Flag, FreeJson, GameTimeRead, Page, RequestModel, Text
from service.schemas.places import PlacePath

MAX_STEP_AGENTS = 2000
MAX_PERCEIVED = 100


class Perceived(RequestModel):
    """Something an agent perceives: another agent's activity, an object's state, or an event."""

    kind: Literal["agent", "object", "event"] = "event"
    subject: Text | None = Field(None, description="agent name or place path (agent, object)")
    state: Text | None = Field(None, description="what the subject is doing / its state")
    description: Text | None = Field(None, description="free text (event)")

    @model_validator(mode="after")
    def _complete(self) -> Perceived:
        if self.kind == "event" and not self.description:
            raise ValueError("an event needs a description")
        if self.kind != "event" and not (self.subject and self.state):
            raise ValueError(f"a perceived {self.kind} needs subject and state")
        return self


class AgentStep(RequestModel):
    agent_id: uuid.UUID
    position: Annotated[dict[str, Any], FreeJson] | None = Field(
        None, description="game coordinates, stored as is"
    )
    place: PlacePath | None = Field(
        None, description="place path the agent is in (in the world's map, or `create_places`)"
    )
    perceived: list[Perceived] = Field(default_factory=list, max_length=MAX_PERCEIVED)
    in_focus: Flag | None = Field(None, description=IN_FOCUS_DOC + "; left out: unchanged")


class StepRequest(RequestModel):
    agents: list[AgentStep] = Field(min_length=1, max_length=MAX_STEP_AGENTS)
    create_places: Flag = Field(False, description=CREATE_PLACES_DOC)


class ActionRead(BaseModel):
    plan_id: int
    level: str
    description: str
    location: str | None
    emoji: str | None
    object_state: str | None
    start: GameTimeRead
    end: GameTimeRead


class SpeechRead(BaseModel):
    conversation_id: int
    speaker: str
    text: str
    spoken_at: GameTimeRead


class AgentNow(BaseModel):
    agent_id: uuid.UUID
    action: ActionRead | None = Field(description="null until the agent has a plan for now")
    utterance: SpeechRead | None = Field(description="latest line of an open conversation")
    stored: int = Field(description="new observations stored (repeats are not stored twice)")


class AgentAction(BaseModel):
    """One agent's current action and any line being spoken, at the world's game time."""

    agent_id: uuid.UUID
    now: GameTimeRead
    action: ActionRead | None
    utterance: SpeechRead | None


class StepResponse(BaseModel):
    now: GameTimeRead
    agents: list[AgentNow]


class AgentDoing(BaseModel):
    """One agent in the town view: where it is, what it is doing, what it is saying."""

    agent_id: uuid.UUID
    name: str
    place: str | None = Field(description="current place path, as the game last reported it")
    action: ActionRead | None = Field(description="null until the agent has a plan for now")
    utterance: SpeechRead | None = Field(description="latest line of an open conversation")


class ActionsPage(Page[AgentDoing]):
    now: GameTimeRead = Field(description="the world's game time the actions are for")
    last_event_id: int = Field(
        description="the newest event before this page was read: stream events after it"
    )
