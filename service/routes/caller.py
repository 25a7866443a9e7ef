"""`GET /v1/me`: what the calling key reaches, so a client (the inspector) can tell an admin
key from a world key and find its world without asking the user for an id."""

from __future__ import annotations

from fastapi import APIRouter

from service.deps import CallerDep
from service.errors import ERROR_RESPONSES
from service.schemas.caller import CallerRead

router = APIRouter(prefix="/v1", tags=["keys"], responses=ERROR_RESPONSES)


@router.get("/me", response_model=CallerRead, summary="The calling key's scope and world")
def me(caller: CallerDep) -> CallerRead:
    return CallerRead(scope="admin" if caller.is_admin else "world", world_id=caller.world_id)
