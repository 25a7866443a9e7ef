"""A player's chat with an agent, and an interviewer's question."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from service.schemas.common import MAX_ID, Integer, Name, RequestModel, RequiredText, Text


class ChatRequest(RequestModel):
    player: Name = Field(description="the player's name, as the agent will remember it")
    persona: Text = Field("", description='who the player says they are, e.g. "a reporter"')
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
