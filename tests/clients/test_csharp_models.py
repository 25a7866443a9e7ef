"""The C# client's models are what clients/csharp/generate_models.py makes of the committed
OpenAPI document (which test_typescript_schema.py holds to the live API's), so a hand edit or a
forgotten regeneration fails here; the C# coverage test checks them against the live document."""

from __future__ import annotations

import importlib.util
import json
from types import ModuleType

from tests.conftest import REPO

CSHARP = REPO / "clients" / "csharp"
SNAPSHOT = REPO / "clients" / "typescript" / "openapi.json"
REGENERATE = (
    "clients/csharp is stale: `hearth openapi > /tmp/openapi.json && "
    "python3 clients/csharp/generate_models.py /tmp/openapi.json`"
)


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("generate_models", CSHARP / "generate_models.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_models_are_generated_from_the_document() -> None:
    generator = _generator().Generator(json.loads(SNAPSHOT.read_text()))
    assert (CSHARP / "Runtime" / "Models.g.cs").read_text() == generator.models(), REGENERATE
    mapping = json.loads((CSHARP / "Tests" / "openapi-map.json").read_text())
    assert mapping["schemas"] == generator.schema_map(), REGENERATE


def test_every_operation_of_the_document_has_a_client_method() -> None:
    document = json.loads(SNAPSHOT.read_text())
    operations = {op["operationId"] for path in document["paths"].values() for op in path.values()}
    mapping = json.loads((CSHARP / "Tests" / "openapi-map.json").read_text())
    assert set(mapping["operations"]) == operations
