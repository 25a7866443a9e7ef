"""Per-key request rate limits, shared by every API process through Redis.

Each API key has an allowance per kind of route: `step` (the game's heartbeat: one batch for
the whole world every tick, so it has its own allowance and a burst of reads never delays it)
and `default` (everything else). An allowance is a sustained rate and a burst, enforced by the
generic cell rate algorithm in one Lua script (one round trip, atomic, Redis's own clock, so
any number of API processes share one count per key): a request is let through while the
key's theoretical arrival time is at most `burst − 1` intervals ahead of now. A request over
the allowance is refused with 429 `rate_limited` and `Retry-After`, the whole seconds until
one more request fits.

With Redis down (or slow past `REDIS_TIMEOUT_S`) requests are allowed, not failed: the limit
protects the service, and refusing every request would be the outage it guards against. After
a failure the limiter does not ask Redis again for `PAUSE_S`, so a dead Redis costs a request
nothing, and says so once in the log.
"""

from __future__ import annotations

import logging
import math
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import redis

from db.settings import Settings

log = logging.getLogger(__name__)

REDIS_TIMEOUT_S = 0.5
"""How long a request may wait on Redis for its count before it is let through."""
PAUSE_S = 5.0
"""After Redis failed, how long requests pass without asking it."""
MICROSECONDS = 1_000_000
KEY_PREFIX = "hearth:rate"

STEP = "step"
DEFAULT = "default"
BAD_KEY = "bad_key"
"""Requests that failed authentication (no key, an unknown or revoked one), counted per client
address: past this allowance they answer 429 instead of 401, so guessing keys costs time."""
ROUTE_KIND = "x-rate-limit"
"""The OpenAPI extension naming a route's allowance (`step`); routes without it are `default`."""

_GCRA = """
local now = redis.call('TIME')
local t = tonumber(now[1]) * 1000000 + tonumber(now[2])
local interval = tonumber(ARGV[1])
local tolerance = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or t)
if tat < t then tat = t end
local wait = tat - tolerance - t
if wait > 0 then return math.ceil(wait) end
local next_tat = tat + interval
redis.call('SET', KEYS[1], string.format('%d', next_tat), 'PX', math.ceil((next_tat - t) / 1000))
return 0
"""
"""GCRA: `tat` is when the key's next request would be due at the sustained rate; a request
fits while `tat − now ≤ tolerance` (= (burst − 1) × interval); each one moves `tat` on by one
interval. Returns the microseconds to wait, 0 when the request fits (and is counted)."""


@dataclass(frozen=True)
class Allowance:
    """Requests per minute, sustained, and how many may come at once (0 per minute: no limit)."""

    per_minute: int
    burst: int

    @property
    def limited(self) -> bool:
        return self.per_minute > 0

    @property
    def interval_us(self) -> int:
        return math.ceil(60 * MICROSECONDS / self.per_minute)


def allowances(settings: Settings) -> dict[str, Allowance]:
    return {
        DEFAULT: Allowance(settings.rate_limit_per_minute, settings.rate_limit_burst),
        STEP: Allowance(settings.step_rate_limit_per_minute, settings.step_rate_limit_burst),
        BAD_KEY: Allowance(
            settings.bad_key_rate_limit_per_minute, settings.bad_key_rate_limit_burst
        ),
    }


class RateLimiter:
    """Counts each key's requests in Redis; `wait` says how long a refused one should wait."""

    def __init__(
        self,
        client: redis.Redis,
        allowances: Mapping[str, Allowance],
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._client = client
        self._script = client.register_script(_GCRA)
        self._allowances = dict(allowances)
        self._clock = clock
        self._paused_until = 0.0
        self._lock = threading.Lock()

    @classmethod
    def for_settings(cls, settings: Settings, url: str) -> RateLimiter:
        client = redis.Redis.from_url(
            url, socket_timeout=REDIS_TIMEOUT_S, socket_connect_timeout=REDIS_TIMEOUT_S
        )
        return cls(client, allowances(settings))

    def wait(self, key_id: uuid.UUID | str, kind: str) -> int | None:
        """None when the key's request fits its allowance of `kind` (it is counted), else the
        whole seconds until one will (at least 1: `Retry-After`). For `BAD_KEY` the key is
        the client's address."""
        allowance = self._allowances.get(kind, self._allowances[DEFAULT])
        if not allowance.limited or self._paused():
            return None
        tolerance = (allowance.burst - 1) * allowance.interval_us
        try:
            waited = int(
                self._script(
                    keys=[f"{KEY_PREFIX}:{kind}:{key_id}"],
                    args=[allowance.interval_us, tolerance],
                )
            )
        except redis.RedisError as exc:
            self._pause(exc)
            return None
        return max(1, math.ceil(waited / MICROSECONDS)) if waited > 0 else None

    def close(self) -> None:
        self._client.close()

    def _paused(self) -> bool:
        with self._lock:
            return self._clock() < self._paused_until

    def _pause(self, exc: Exception) -> None:
        with self._lock:
            self._paused_until = self._clock() + PAUSE_S
        log.warning("rate limits not enforced for %.0f s: Redis failed (%s)", PAUSE_S, exc)
