"""Per-key rate limits on real Redis: past its allowance a key gets 429 `rate_limited` with the
error envelope and `Retry-After`; each key, and the step apart from other routes, has its own
allowance; the count is shared by every API process; with Redis down requests are allowed."""

from __future__ import annotations

import socket
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import redis
from fastapi.testclient import TestClient
from hearth_client import Hearth, Retry
from sqlalchemy.orm import Session, sessionmaker

from db.settings import Settings
from service.app import create_app
from service.rate_limits import DEFAULT, STEP, Allowance, RateLimiter
from tests.live import serve
from tests.service.api import create_agent, create_world, url

BURST = 3
PER_MINUTE = 2
"""One request every 30 s once the burst is spent: nothing refills while a test runs."""


def _limited(settings: Settings, **values: Any) -> Settings:
    """An allowance of PER_MINUTE requests a minute, BURST at once; steps alike."""
    limits = {
        "rate_limit_per_minute": PER_MINUTE,
        "rate_limit_burst": BURST,
        "step_rate_limit_per_minute": PER_MINUTE,
        "step_rate_limit_burst": BURST,
    }
    return settings.model_copy(update=limits | values)


@pytest.fixture
def limited(settings: Settings, sessions: sessionmaker[Session]) -> Iterator[TestClient]:
    with TestClient(create_app(_limited(settings))) as client:
        yield client


def _statuses(client: TestClient, path: str, headers: dict[str, str], n: int) -> list[int]:
    return [client.get(path, headers=headers).status_code for _ in range(n)]


def test_past_its_allowance_a_key_gets_429_with_retry_after(
    limited: TestClient, admin_headers: dict[str, str]
) -> None:
    assert _statuses(limited, "/v1/me", admin_headers, BURST) == [200] * BURST
    refused = limited.get("/v1/me", headers=admin_headers)
    assert refused.status_code == 429
    error = refused.json()["error"]
    assert error["code"] == "rate_limited" and error["request_id"]
    assert 1 <= int(refused.headers["Retry-After"]) <= 60 // PER_MINUTE
    assert refused.headers["X-Request-ID"] == error["request_id"]


def test_each_key_and_the_step_have_their_own_allowance(
    limited: TestClient, admin_headers: dict[str, str]
) -> None:
    world = create_world(limited, admin_headers)  # the admin key's first request
    agent = create_agent(limited, world, name="Rosa")  # the world key's first
    assert _statuses(limited, "/v1/me", admin_headers, BURST) == [200] * (BURST - 1) + [429]
    assert _statuses(limited, "/v1/me", world["headers"], BURST) == [200] * (BURST - 1) + [429]
    step = {"agents": [{"agent_id": agent["id"]}]}
    steps = [
        limited.post(url(world, "/step"), json=step, headers=world["headers"]).status_code
        for _ in range(BURST + 1)
    ]
    assert steps == [200] * BURST + [429]  # the step's own allowance, unspent by the reads


def test_wrong_keys_are_limited_by_client_address(
    settings: Settings, sessions: sessionmaker[Session], admin_headers: dict[str, str]
) -> None:
    """No key, an unknown one and a revoked one count against the address; past the burst
    they answer 429 with `Retry-After`, while a good key from that address still passes."""
    limits = {"bad_key_rate_limit_per_minute": PER_MINUTE, "bad_key_rate_limit_burst": BURST}
    address = (f"10.0.{uuid.uuid4().int % 250}.{uuid.uuid4().int % 250}", 50000)  # its own count
    app = create_app(settings.model_copy(update=limits))
    with TestClient(app, client=address) as client:
        wrong = {"Authorization": f"Bearer hk_{uuid.uuid4().hex}"}
        statuses = [client.get("/v1/me", headers=wrong).status_code for _ in range(BURST - 1)]
        statuses.append(client.get("/v1/me").status_code)  # no key at all
        assert statuses == [401] * BURST
        refused = client.get("/v1/me", headers=wrong)
        assert refused.status_code == 429, refused.text
        assert refused.json()["error"]["code"] == "rate_limited"
        assert 1 <= int(refused.headers["Retry-After"]) <= 60 // PER_MINUTE
        assert client.get("/v1/me", headers=admin_headers).status_code == 200


def test_the_count_is_shared_by_every_api_process(
    settings: Settings, sessions: sessionmaker[Session], admin_headers: dict[str, str]
) -> None:
    with (
        TestClient(create_app(_limited(settings))) as first,
        TestClient(create_app(_limited(settings))) as second,
    ):
        spent = [
            (first if n % 2 else second).get("/v1/me", headers=admin_headers).status_code
            for n in range(BURST)
        ]
        assert spent == [200] * BURST
        assert first.get("/v1/me", headers=admin_headers).status_code == 429
        assert second.get("/v1/me", headers=admin_headers).status_code == 429


def _dead_redis_url() -> str:
    """A loopback port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"redis://127.0.0.1:{port}/0"


def test_with_redis_down_requests_are_allowed(
    settings: Settings, sessions: sessionmaker[Session], admin_headers: dict[str, str]
) -> None:
    down = _limited(settings, redis_url=_dead_redis_url())
    with TestClient(create_app(down)) as client:
        assert _statuses(client, "/v1/me", admin_headers, BURST + 3) == [200] * (BURST + 3)


class CountingRedis(redis.Redis):
    """A client to a dead server that counts the commands it was asked to send."""

    sent = 0

    def execute_command(self, *args: Any, **options: Any) -> Any:
        CountingRedis.sent += 1
        return super().execute_command(*args, **options)


def test_after_a_redis_failure_the_limiter_waits_before_asking_again() -> None:
    client = CountingRedis.from_url(_dead_redis_url(), socket_connect_timeout=0.25)
    now = [100.0]
    limiter = RateLimiter(client, {DEFAULT: Allowance(60, 1)}, clock=lambda: now[0])
    key = uuid.uuid4()
    assert limiter.wait(key, DEFAULT) is None
    asked = CountingRedis.sent
    assert asked >= 1
    assert [limiter.wait(key, DEFAULT) for _ in range(5)] == [None] * 5
    assert CountingRedis.sent == asked  # paused: Redis is not asked again
    now[0] += 10
    assert limiter.wait(key, DEFAULT) is None and CountingRedis.sent > asked


def test_an_allowance_of_zero_is_no_limit(redis_url: str) -> None:
    limiter = RateLimiter(redis.Redis.from_url(redis_url), {DEFAULT: Allowance(0, 1)})
    key = uuid.uuid4()
    assert [limiter.wait(key, DEFAULT) for _ in range(10)] == [None] * 10
    assert [limiter.wait(key, STEP) for _ in range(10)] == [None] * 10  # falls back to default


class Recording(httpx.HTTPTransport):
    """The real transport, keeping each answer's status."""

    def __init__(self) -> None:
        super().__init__()
        self.statuses: list[int] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        self.statuses.append(response.status_code)
        return response


def test_the_sdk_waits_as_long_as_retry_after_says(
    settings: Settings, sessions: sessionmaker[Session], admin_headers: dict[str, str]
) -> None:
    """One request every 3 s, one at a time. The SDK's own backoff is 10 ms and it tries
    twice: its retry fits only because it waited the 3 s `Retry-After` named."""
    key = admin_headers["Authorization"].removeprefix("Bearer ")
    app = create_app(_limited(settings, rate_limit_per_minute=20, rate_limit_burst=1))
    transport = Recording()
    patient = Retry(attempts=2, backoff_s=0.01, max_backoff_s=0.01)
    with serve(app) as base, Hearth(base, api_key=key, retry=patient, transport=transport) as sdk:
        sdk.me()
        assert sdk.me()["scope"] == "admin"
    assert transport.statuses == [200, 429, 200]
