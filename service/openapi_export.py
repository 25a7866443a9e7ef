"""The OpenAPI document of the API, written without starting anything: `hearth openapi`.

The TypeScript client's types are generated from this document (clients/typescript), and a
test compares the committed copy with the live one, so the two cannot drift apart."""

from __future__ import annotations

import json
from typing import Any

from db.settings import Settings
from service.app import create_app

UNUSED_DATABASE = "postgresql+psycopg://hearth@localhost/unused"
UNUSED_REDIS = "redis://localhost:6379/0"


def openapi_document(settings: Settings) -> dict[str, Any]:
    """The schema the API serves at /openapi.json. Building the app connects to nothing, so
    placeholder URLs stand in for servers that are not running."""
    urls = {
        "database_url": settings.database_url or UNUSED_DATABASE,
        "redis_url": settings.redis_url or UNUSED_REDIS,
    }
    return create_app(settings.model_copy(update=urls)).openapi()


def openapi_text(settings: Settings) -> str:
    """The document as it is committed: 2-space indents, keys in the order FastAPI gives."""
    return json.dumps(openapi_document(settings), indent=2, ensure_ascii=False) + "\n"
