"""Configuration of an OpenAI-compatible endpoint, the client built from it, and call costs.

Values come from the edge's settings (HEARTH_LLM_*); cognition never reads the environment.
Building a client opens no connection, so constructing a mind never touches the network.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import urlsplit

import openai

from cognition.adapters.retry import (
    DEFAULT_BACKOFF_BASE_S,
    DEFAULT_MAX_BACKOFF_S,
    DEFAULT_MAX_RETRIES,
    RetryPolicy,
)

OutputMode = Literal["auto", "json_schema", "json_object", "text"]
"""How structured output is asked for: "auto" starts with json_schema and downgrades on refusal."""

DEFAULT_TIMEOUT_S = 30.0
DEFAULT_MAX_CONCURRENCY = 8
LOCAL_TIMEOUT_S = 600.0
LOCAL_MAX_CONCURRENCY = 2
"""A model on this machine (a loopback URL) answers a Hearth prompt in 30–120 s on a CPU: a
slow answer is not a failure, and more requests at once only queue inside its server."""
LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "0.0.0.0"})
TOKENS_PER_MILLION = 1_000_000

PLACEHOLDER_API_KEY = "not-needed"
"""Local servers (Ollama, llama.cpp, vLLM) need no key, but the client refuses to start without."""


@dataclass(frozen=True)
class LLMConfig:
    """One OpenAI-compatible chat endpoint and how Hearth talks to it.

    `prices` maps a model name to USD per million tokens (input, output); a model missing
    from it is recorded at cost 0. `audit_text=False` keeps prompts and answers out of the
    audit table (player chat may be private).
    """

    base_url: str | None
    api_key: str
    model: str
    timeout_s: float = DEFAULT_TIMEOUT_S
    max_retries: int = DEFAULT_MAX_RETRIES
    backoff_base_s: float = DEFAULT_BACKOFF_BASE_S
    max_backoff_s: float = DEFAULT_MAX_BACKOFF_S
    max_concurrency: int = DEFAULT_MAX_CONCURRENCY
    output_mode: OutputMode = "auto"
    output_modes: Mapping[str, OutputMode] = field(default_factory=dict)
    """Per operation, a mode that suits it better than `output_mode` on this model."""
    prices: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    audit_text: bool = True
    temperature: float = 0.0

    def __post_init__(self) -> None:
        """Reject settings that would hang (no concurrency slot) or never send a request."""
        if self.max_concurrency < 1 or self.max_retries < 0 or self.timeout_s <= 0:
            raise ValueError(
                "LLMConfig needs max_concurrency >= 1, max_retries >= 0 and timeout_s > 0"
            )

    def mode_for(self, operation: str) -> OutputMode:
        """The output mode configured for `operation` (its own, else the general one)."""
        return self.output_modes.get(operation, self.output_mode)

    @property
    def retry_policy(self) -> RetryPolicy:
        return RetryPolicy(
            max_retries=self.max_retries,
            backoff_base_s=self.backoff_base_s,
            max_backoff_s=self.max_backoff_s,
        )


def make_client(config: LLMConfig) -> openai.OpenAI:
    """A client with the SDK's own retries off: `cognition.adapters.retry` is the only layer."""
    return openai.OpenAI(
        base_url=config.base_url,
        api_key=config.api_key or PLACEHOLDER_API_KEY,
        timeout=config.timeout_s,
        max_retries=0,
    )


def cost_usd(
    prices: Mapping[str, tuple[float, float]], model: str, tokens_in: int, tokens_out: int
) -> float:
    """What a call cost by the price table, 0 for a model without a price."""
    price_in, price_out = prices.get(model, (0.0, 0.0))
    return (tokens_in * price_in + tokens_out * price_out) / TOKENS_PER_MILLION


def is_local(base_url: str | None) -> bool:
    """Whether the endpoint runs on this machine (a loopback host): a local model's pace."""
    if not base_url:
        return False
    return (urlsplit(base_url).hostname or "") in LOOPBACK_HOSTS
