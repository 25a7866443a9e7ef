"""Who is calling: what a key may reach, so a client can tell an admin key from a world key."""

from __future__ import annotations

import uuid
from typing import Literal

from pydantic import BaseModel, Field


class CallerRead(BaseModel):
    scope: Literal["admin", "world"] = Field(description="admin: every world; world: one world")
    world_id: uuid.UUID | None = Field(description="the one world a world key reaches")
