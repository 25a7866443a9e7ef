"""Who is calling: an admin key reaches everything, a world key reaches only its own world.

A world key used on another world gets the same 404 as a world that does not exist, so a key
cannot even learn which world ids exist.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from fastapi.security import HTTPAuthorizationCredentials
from sqlalchemy.orm import Session

from db.queries.api_keys import find_active_key
from service.errors import ApiError


@dataclass(frozen=True)
class Caller:
    key_id: uuid.UUID
    world_id: uuid.UUID | None

    @property
    def is_admin(self) -> bool:
        return self.world_id is None

    def can_see(self, world_id: uuid.UUID) -> bool:
        return self.is_admin or self.world_id == world_id


def authenticate(session: Session, credentials: HTTPAuthorizationCredentials | None) -> Caller:
    if credentials is None or credentials.scheme.lower() != "bearer":
        raise ApiError(401, "unauthorized", "send `Authorization: Bearer <key>`")
    key = find_active_key(session, credentials.credentials)
    if key is None:
        raise ApiError(401, "unauthorized", "unknown or revoked API key")
    return Caller(key_id=key.id, world_id=key.world_id)
