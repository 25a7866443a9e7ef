"""What one key may hold at once, and revocation that reaches open streams: past its requests
in flight or its open streams a key is answered 429 with Retry-After at once (not a queue for
the pool and a 503 after 30 s); an open event stream ends when its key is revoked or its
world deleted (it kept delivering events)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import anyio
import httpx
import pytest
from sqlalchemy.orm import Session, sessionmaker
from starlette.types import Receive, Scope, Send

from db.settings import Settings
from service.app import create_app
from service.key_slots import KeySlots
from tests.live import serve
from tests.service.api import create_world

STREAM_TIMEOUT_S = 30.0
"""Only so a broken stream fails the test instead of hanging it (keep-alives come every 15 s)."""


class Held:
    """An ASGI app whose requests wait until released: requests held in flight on demand."""

    def __init__(self) -> None:
        self.release = anyio.Event()
        self.entered = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.entered += 1
        if scope["path"] != "/quick":
            await self.release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


def _bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def test_past_its_requests_in_flight_a_key_gets_429_and_others_are_served() -> None:
    async def scenario() -> None:
        inner = Held()
        app = KeySlots(inner, max_requests=2, max_streams=1)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://hearth") as client:

            async def slow() -> None:
                assert (await client.get("/slow", headers=_bearer("a"))).status_code == 200

            async with anyio.create_task_group() as group:
                for _ in range(2):
                    group.start_soon(slow)
                while inner.entered < 2:
                    await anyio.sleep(0.01)
                refused = await client.get("/quick", headers=_bearer("a"))
                assert refused.status_code == 429
                assert refused.json()["error"]["code"] == "too_many_at_once"
                assert refused.headers["Retry-After"] == "1"
                assert (await client.get("/quick", headers=_bearer("b"))).status_code == 200
                assert (await client.get("/quick")).status_code == 200  # no key: auth's to refuse
                inner.release.set()
            assert (await client.get("/quick", headers=_bearer("a"))).status_code == 200

    anyio.run(scenario)


@pytest.fixture
def live(
    settings: Settings, sessions: sessionmaker[Session], admin_headers: dict[str, str]
) -> Iterator[tuple[str, dict[str, Any]]]:
    """A real server allowing two open streams per key, and a world made on it."""
    app = create_app(settings.model_copy(update={"max_streams_per_key": 2}))
    with serve(app) as base, httpx.Client(base_url=base) as client:
        yield base, create_world(client, admin_headers)  # type: ignore[arg-type]


def _open(base: str, world: dict[str, Any], headers: dict[str, str]) -> Any:
    url = f"{base}/v1/worlds/{world['id']}/events"
    timeout = httpx.Timeout(STREAM_TIMEOUT_S)
    return httpx.stream("GET", url, headers=headers, timeout=timeout)


def _drain(response: httpx.Response, ended: threading.Event) -> None:
    for _ in response.iter_lines():
        pass
    ended.set()


def test_a_revoked_keys_stream_ends_and_a_key_holds_at_most_its_streams(
    live: tuple[str, dict[str, Any]], admin_headers: dict[str, str]
) -> None:
    base, world = live
    with _open(base, world, world["headers"]) as first, _open(base, world, world["headers"]) as _:
        assert first.status_code == 200
        with _open(base, world, world["headers"]) as third:
            assert third.status_code == 429
            assert third.headers["Retry-After"] == "1"
        with _open(base, world, admin_headers) as other:  # another key's own allowance
            assert other.status_code == 200
        ended = threading.Event()
        reader = threading.Thread(target=_drain, args=(first, ended), daemon=True)
        reader.start()
        keys = httpx.get(f"{base}/v1/worlds/{world['id']}/keys", headers=admin_headers).json()
        for key in keys:
            revoked = httpx.delete(
                f"{base}/v1/worlds/{world['id']}/keys/{key['id']}", headers=admin_headers
            )
            assert revoked.status_code == 204
        reader.join(STREAM_TIMEOUT_S)
        assert ended.is_set()  # the stream ended on its own (a re-check every 2 s)
    with _open(base, world, world["headers"]) as again:
        assert again.status_code == 401


def test_a_deleted_worlds_stream_ends(
    live: tuple[str, dict[str, Any]], admin_headers: dict[str, str]
) -> None:
    base, world = live
    with _open(base, world, admin_headers) as stream:
        assert stream.status_code == 200
        ended = threading.Event()
        reader = threading.Thread(target=_drain, args=(stream, ended), daemon=True)
        reader.start()
        deleted = httpx.delete(f"{base}/v1/worlds/{world['id']}", headers=admin_headers)
        assert deleted.status_code == 204
        reader.join(STREAM_TIMEOUT_S)
        assert ended.is_set()
