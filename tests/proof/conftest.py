"""The proof suite runs alone with `pytest -m proof` and with everything else in plain `pytest`
(`.ci/run`). Its fixtures are the SDK tests' live server on the session's databases."""

from __future__ import annotations

import pytest

from tests.clients.conftest import admin, base_url, live_server, world

__all__ = ["admin", "base_url", "live_server", "world"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/proof/" in str(item.fspath):
            item.add_marker(pytest.mark.proof)
