"""A player's chat with an agent, and an interviewer's question."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field, StringConstraints

from service.schemas.common import (
    MAX_ID,
    MAX_NAME,
    NO_NUL,
    NON_BLANK,
    Integer,
    RequestModel,
    RequiredText,
    Strip,
    Text,
)

MAX_PLAYER = 100
MAX_PERSONA = MAX_NAME - MAX_PLAYER - len(" ()")
"""The player's label, "Sam (a reporter)", is stored where an agent's name is (200
characters: `cognition.player_chat.player_label`), so its two parts share that length."""
Player = Annotated[
    str, StringConstraints(min_length=1, max_length=MAX_PLAYER, pattern=NON_BLANK), Strip
]
Persona = Annotated[str, StringConstraints(max_length=MAX_PERSONA, pattern=NO_NUL)]


class ChatRequest(RequestModel):
    player: Player = Field(description="the player's name, as the agent will remember it")
    persona: Persona = Field("", description='who the player says they are, e.g. "a reporter"')
    message: RequiredText
    conversation_id: Integer | None = Field(
        None, ge=1, le=MAX_ID, description="continue this conversation"
    )


class UsedMemory(BaseModel):
    id: int
    kind: str
    description: str


class ChatResponse(BaseModel):
    conversation_id: int
    reply: str
    ends: bool = Field(description="the agent wants to end the conversation")
    memories: list[UsedMemory] = Field(description="what the agent retrieved to answer")
    player_memory_id: int = Field(description="the player's line, stored as the player's claim")
    reply_memory_id: int


class InterviewRequest(RequestModel):
    question: RequiredText
    interviewer: Text = "an interviewer"
    mode: Literal[
        "full", "no_reflection", "no_planning", "no_reflection_no_planning", "no_memory"
    ] = Field("full", description="the paper's ablations: which memories the agent may recall")


class InterviewResponse(BaseModel):
    answer: str
    mode: str
    memories: list[UsedMemory] = Field(description="the memories the answer rests on")
