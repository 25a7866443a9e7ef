"""The TypeScript client's types are generated from clients/typescript/openapi.json; that copy
must be the API's live document, so a route or schema change without regenerating fails here.
(The npm tests check that src/schema.ts is what openapi-typescript makes of the copy.)"""

from __future__ import annotations

import json
from pathlib import Path

from db.settings import Settings
from service.openapi_export import openapi_document, openapi_text
from tests.conftest import REPO

SNAPSHOT = REPO / "clients" / "typescript" / "openapi.json"
REGENERATE = (
    "clients/typescript/openapi.json is not the live OpenAPI document; regenerate it and the "
    "types: `hearth openapi > clients/typescript/openapi.json && "
    "(cd clients/typescript && npm run generate)`"
)


def test_the_committed_document_is_the_live_one(tmp_path: Path) -> None:
    live = openapi_document(Settings(home=tmp_path))
    assert json.loads(SNAPSHOT.read_text()) == live, REGENERATE
    assert SNAPSHOT.read_text() == openapi_text(Settings(home=tmp_path)), REGENERATE
