"""What the sync and async clients share: a request as a value, the retry decision, decoding,
and the Server-Sent Events line decoder. Pure: no I/O happens here."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import httpx

from hearth_client.errors import ConnectionFailed, RateLimited, Unavailable, error_for
from hearth_client.types import Event

DEFAULT_TIMEOUT_S = 30.0
DEFAULT_PAGE_SIZE = 100
STREAM_READ_TIMEOUT_S = 60.0
"""The server sends a keep-alive every 15 s; a minute of silence means the link is dead."""
STREAM_ERRORS = (httpx.TransportError, RateLimited, Unavailable)
"""What makes an event stream reconnect (after the last event seen) instead of failing."""

IDEMPOTENCY_HEADER = "Idempotency-Key"
REPLAYABLE_METHODS = frozenset({"GET", "HEAD", "PUT", "DELETE"})
RETRY_STATUSES = frozenset({429, 503})
"""Answers that mean "not done, try later": rate limited, or a dependency briefly away."""
MAX_RETRY_AFTER_S = 60.0


def client_headers(api_key: str | None) -> dict[str, str]:
    headers = {"User-Agent": "hearth-client-python/0.1"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    return headers


def stream_timeout(base: httpx.Timeout) -> httpx.Timeout:
    """The client's timeouts, except a read may wait out the keep-alive interval."""
    return httpx.Timeout(
        connect=base.connect, read=STREAM_READ_TIMEOUT_S, write=base.write, pool=base.pool
    )


@dataclass(frozen=True)
class Call:
    """One request. `creates` gets an Idempotency-Key, so retrying it can never create twice;
    `replayable` marks a POST that is safe to resend after a lost connection (a search)."""

    method: str
    path: str
    json: Any = None
    params: Mapping[str, Any] = field(default_factory=dict)
    creates: bool = False
    replayable: bool = False
    accept: frozenset[int] = frozenset()
    """Non-2xx statuses whose body is the answer (readiness says 503 with a report)."""

    def with_params(self, **params: Any) -> Call:
        return replace(self, params={**self.params, **params})

    def headers(self, idempotency_key: str | None) -> dict[str, str]:
        return {IDEMPOTENCY_HEADER: idempotency_key} if self.creates and idempotency_key else {}

    def may_resend(self) -> bool:
        """After a lost connection the server may or may not have acted; resend only if harmless."""
        return self.method in REPLAYABLE_METHODS or self.creates or self.replayable


@dataclass(frozen=True)
class Retry:
    """Bounded retries with capped exponential backoff and jitter; `Retry-After` is honoured."""

    attempts: int = 4
    backoff_s: float = 0.5
    max_backoff_s: float = 10.0

    def delay(self, attempt: int, retry_after: str | None = None) -> float:
        if retry_after is not None:
            try:
                return min(max(float(retry_after), 0.0), MAX_RETRY_AFTER_S)
            except ValueError:
                pass  # an HTTP date: fall back to our own schedule
        ceiling = min(self.max_backoff_s, self.backoff_s * 2**attempt)
        return ceiling * random.uniform(0.5, 1.0)

    def after_response(self, call: Call, response: httpx.Response, attempt: int) -> float | None:
        """Seconds to wait before trying again, or None to take this answer."""
        if response.status_code not in RETRY_STATUSES or response.status_code in call.accept:
            return None
        if attempt + 1 >= self.attempts:
            return None
        return self.delay(attempt, response.headers.get("Retry-After"))

    def reconnect_or_raise(self, exc: Exception, failures: int, *, reconnect: bool) -> int:
        """The failure count to reconnect with, or raise: a lost connection as ConnectionFailed."""
        if reconnect and failures + 1 < self.attempts:
            return failures + 1
        if isinstance(exc, httpx.TransportError):
            raise ConnectionFailed(f"event stream: {exc!r}") from exc
        raise exc

    def after_failure(self, call: Call, attempt: int) -> float | None:
        """Seconds to wait after a lost connection, or None to give up."""
        if not call.may_resend() or attempt + 1 >= self.attempts:
            return None
        return self.delay(attempt)


NO_RETRY = Retry(attempts=1)


def decode(call: Call, response: httpx.Response) -> Any:
    """The JSON answer, None for 204; any other status raises its typed error."""
    if response.is_success or response.status_code in call.accept:
        return None if response.status_code == 204 else response.json()
    raise error_for(response)


class EventDecoder:
    """Server-Sent Events, line by line: a blank line ends an event; `:` lines are comments."""

    def __init__(self) -> None:
        self._id: str | None = None
        self._type = "message"
        self._data: list[str] = []
        self.retry_ms: int | None = None

    def feed(self, line: str) -> Event | None:
        if not line:
            return self._dispatch()
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "id":
            self._id = value
        elif name == "event":
            self._type = value
        elif name == "data":
            self._data.append(value)
        elif name == "retry" and value.isdigit():
            self.retry_ms = int(value)
        return None

    def _dispatch(self) -> Event | None:
        event_id, kind, data = self._id, self._type, self._data
        self._id, self._type, self._data = None, "message", []
        if event_id is None or not event_id.isdigit() or not data:
            return None
        text = "\n".join(data)
        try:
            payload = json.loads(text)
        except ValueError:
            payload = text
        return Event(id=int(event_id), type=kind, data=payload)
