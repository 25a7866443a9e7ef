"""Fixtures for adapter tests: the fake OpenAI-compatible server."""

from tests.fakes import fake_openai

__all__ = ["fake_openai"]
