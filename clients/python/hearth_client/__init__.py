"""Python client for the Hearth API: persistent minds for game characters.

    from hearth_client import Hearth

    with Hearth("http://127.0.0.1:8000", api_key="hk_world_…") as hearth:
        for agent in hearth.list_agents(world_id):
            print(agent["name"], agent["place"])

Only `httpx` is required. Results are plain JSON typed as TypedDicts (`hearth_client.types`);
errors are `HearthError` subclasses carrying the API's status, code, message and details.
"""

from hearth_client._core import Retry
from hearth_client.aio import AsyncHearth
from hearth_client.client import Hearth
from hearth_client.errors import (
    BadRequest,
    Conflict,
    ConnectionFailed,
    Forbidden,
    HearthError,
    NotFound,
    PayloadTooLarge,
    RateLimited,
    ServerError,
    Unauthorized,
    Unavailable,
    ValidationError,
)
from hearth_client.types import Event

__version__ = "0.1.0"

__all__ = [
    "AsyncHearth",
    "BadRequest",
    "Conflict",
    "ConnectionFailed",
    "Event",
    "Forbidden",
    "Hearth",
    "HearthError",
    "NotFound",
    "PayloadTooLarge",
    "RateLimited",
    "Retry",
    "ServerError",
    "Unauthorized",
    "Unavailable",
    "ValidationError",
]
