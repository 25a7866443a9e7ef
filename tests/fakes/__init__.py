"""Test doubles that speak real protocols (a fake OpenAI-compatible HTTP server), and fixtures."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fakes.openai_server import FakeOpenAI


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    """A fresh fake OpenAI-compatible server for one test, shut down afterwards."""
    with FakeOpenAI() as server:
        yield server
