"""The one retry layer for calls to OpenAI-compatible endpoints (chat and embeddings).

The `openai` client is built with `max_retries=0`; retries happen here, bounded, with
exponential backoff and jitter, honouring a server's `retry-after`. Only transient failures
(429, 408, 409, 5xx, timeouts, refused connections, garbled bodies) are retried; once the
attempts are spent they become `ModelUnavailable`, which workers may retry at the job level.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import openai

from cognition.errors import ModelUnavailable

T = TypeVar("T")

DEFAULT_MAX_RETRIES = 3
DEFAULT_BACKOFF_BASE_S = 0.5
DEFAULT_MAX_BACKOFF_S = 20.0
"""No single wait exceeds this, whatever a server's retry-after asks: a player may be waiting."""

RETRIABLE_STATUSES = frozenset({408, 409, 429})
"""Besides 5xx: request timeout, lock conflict, rate limit (the statuses OpenAI's SDK retries)."""
SERVER_ERROR_STATUS = 500
MS_PER_S = 1000.0


@dataclass(frozen=True)
class RetryPolicy:
    """How many times to retry a transient failure and how long to wait in between."""

    max_retries: int = DEFAULT_MAX_RETRIES
    backoff_base_s: float = DEFAULT_BACKOFF_BASE_S
    max_backoff_s: float = DEFAULT_MAX_BACKOFF_S

    def delay_s(self, retry: int, retry_after_s: float | None, rng: random.Random) -> float:
        """Wait before the `retry`-th retry: base·2^(retry-1) with equal jitter, or retry-after."""
        ceiling = self.backoff_base_s * 2.0 ** (retry - 1)
        jittered = ceiling / 2 + rng.uniform(0, ceiling / 2)
        return min(max(jittered, retry_after_s or 0.0), self.max_backoff_s)


def is_transient(exc: BaseException) -> bool:
    """Whether trying the same request again later may succeed.

    A 200 whose body is not JSON (a proxy's error page, a truncated stream) reaches us as the
    client's raw `JSONDecodeError`; it is the server's hiccup, so it counts as transient.
    """
    if isinstance(exc, openai.APIConnectionError | json.JSONDecodeError):  # incl. timeouts
        return True
    if isinstance(exc, openai.APIStatusError):
        return exc.status_code in RETRIABLE_STATUSES or exc.status_code >= SERVER_ERROR_STATUS
    return False


def retry_after_s(exc: BaseException) -> float | None:
    """The server's requested wait (`retry-after-ms` or `retry-after` seconds), if any."""
    if not isinstance(exc, openai.APIStatusError):
        return None
    headers = exc.response.headers
    for name, scale in (("retry-after-ms", MS_PER_S), ("retry-after", 1.0)):
        try:
            return float(headers[name]) / scale
        except (KeyError, ValueError):
            continue
    return None


def describe(exc: BaseException) -> str:
    """A one-line account of a failure for logs, audit rows and `ModelUnavailable`."""
    status = getattr(exc, "status_code", None)
    prefix = f"{type(exc).__name__} ({status})" if status else type(exc).__name__
    return f"{prefix}: {exc}"


def with_retries(
    call: Callable[[], T],
    policy: RetryPolicy,
    *,
    sleep: Callable[[float], None] = time.sleep,
    rng: random.Random | None = None,
) -> T:
    """`call()`, retried on transient failures; `ModelUnavailable` once the retries are spent.

    Permanent failures (a 400, a 401, our own errors) propagate untouched on the first try.
    """
    rng = rng or random.Random()
    retry = 0
    while True:
        try:
            return call()
        except (openai.OpenAIError, json.JSONDecodeError) as exc:
            if not is_transient(exc):
                raise
            if retry >= policy.max_retries:
                attempts = retry + 1
                raise ModelUnavailable(
                    f"gave up after {attempts} attempts: {describe(exc)}"
                ) from exc
            retry += 1
            sleep(policy.delay_s(retry, retry_after_s(exc), rng))
