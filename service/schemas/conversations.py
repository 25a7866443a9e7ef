"""Conversations as transcripts: who took part and every line, in order."""

from __future__ import annotations

import uuid
from typing import Literal

from pydantic import BaseModel, Field

from service.schemas.common import GameTimeRead


class LineRead(BaseModel):
    seq: int
    speaker: str = Field(description="the agent's name, or the player's label")
    speaker_agent_id: uuid.UUID | None = Field(description="null when a player spoke")
    text: str
    spoken_at: GameTimeRead


class ConversationRead(BaseModel):
    id: int
    initiator_id: uuid.UUID
    initiator: str
    partner_agent_id: uuid.UUID | None = Field(description="null when the partner is a player")
    partner: str = Field(description="the partner agent's name, or the player's label")
    topic: str
    status: Literal["open", "ended"]
    started_at: GameTimeRead
    ended_at: GameTimeRead | None
    lines: list[LineRead]
