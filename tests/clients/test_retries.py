"""The SDK's retry, idempotency and reconnection rules, against scripted transports."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator

import httpx
import pytest
from hearth_client import AsyncHearth, ConnectionFailed, Hearth, Retry, Unavailable
from hearth_client._core import EventDecoder

NO_WAIT = Retry(attempts=3, backoff_s=0.0, max_backoff_s=0.0)
AGENT = {"id": "a1", "name": "Ada"}
Handler = Callable[[httpx.Request], httpx.Response]


def _scripted(*answers: httpx.Response | Exception) -> tuple[Handler, list[httpx.Request]]:
    """A transport handler giving `answers` in turn, and the requests it saw."""
    seen: list[httpx.Request] = []
    queue = list(answers)

    def handle(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        answer = queue.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer

    return handle, seen


def _client(handler: Handler) -> Hearth:
    return Hearth(
        "http://hearth.test", api_key="k", retry=NO_WAIT, transport=httpx.MockTransport(handler)
    )


def test_a_create_is_retried_with_the_same_idempotency_key() -> None:
    handler, seen = _scripted(
        httpx.Response(503, json={"error": {"code": "unavailable", "message": "busy"}}),
        httpx.Response(429, headers={"Retry-After": "0"}),
        httpx.Response(201, json=AGENT),
    )
    assert _client(handler).create_agent("w1", {"name": "Ada"}) == AGENT
    keys = {request.headers["Idempotency-Key"] for request in seen}
    assert len(seen) == 3 and len(keys) == 1
    assert seen[0].headers["Authorization"] == "Bearer k"


def test_retries_are_bounded_and_end_in_the_typed_error() -> None:
    busy = httpx.Response(
        503, json={"error": {"code": "unavailable", "message": "busy", "details": []}}
    )
    handler, seen = _scripted(busy, busy, busy)
    with pytest.raises(Unavailable) as failed:
        _client(handler).get_world("w1")
    assert len(seen) == NO_WAIT.attempts and failed.value.message == "busy"


def test_a_lost_connection_is_resent_only_when_harmless() -> None:
    handler, seen = _scripted(httpx.ConnectError("refused"), httpx.Response(200, json=AGENT))
    assert _client(handler).get_agent("w1", "a1") == AGENT
    handler, seen = _scripted(httpx.ConnectError("refused"), httpx.Response(200, json={}))
    with pytest.raises(ConnectionFailed):
        _client(handler).step("w1", [{"agent_id": "a1"}])  # perceptions: never twice
    assert len(seen) == 1


def _sse(*ids: int) -> bytes:
    return b"".join(b'id: %d\nevent: tick\ndata: {"n": %d}\n\n' % (i, i) for i in ids)


def _broken_stream(body: bytes) -> Iterator[bytes]:
    yield b": ping\n\n" + body
    raise httpx.ReadError("connection reset")


def test_the_event_stream_resumes_after_the_last_event() -> None:
    handler, seen = _scripted(
        httpx.Response(200, content=_broken_stream(_sse(1, 2))),
        httpx.Response(200, content=_sse(3)),
    )
    events = list(_client(handler).events("w1", once=True))
    assert [(e.id, e.type, e.data) for e in events] == [
        (1, "tick", {"n": 1}),
        (2, "tick", {"n": 2}),
        (3, "tick", {"n": 3}),
    ]
    assert "Last-Event-ID" not in seen[0].headers
    assert seen[1].headers["Last-Event-ID"] == "2"
    assert seen[1].url.params["once"] == "true"


async def _async_broken_stream(body: bytes) -> AsyncIterator[bytes]:
    yield body
    raise httpx.ReadError("connection reset")


def test_the_async_client_retries_and_resumes_the_same_way() -> None:
    handler, seen = _scripted(
        httpx.Response(503),
        httpx.Response(201, json=AGENT),
        httpx.Response(200, content=_async_broken_stream(_sse(7))),
        httpx.Response(200, content=_sse(8)),
    )

    async def scenario() -> tuple[object, list[int]]:
        async with AsyncHearth(
            "http://hearth.test", retry=NO_WAIT, transport=httpx.MockTransport(handler)
        ) as hearth:
            agent = await hearth.create_agent("w1", {"name": "Ada"})
            ids = [e.id async for e in hearth.events("w1", after=6, once=True)]
            return agent, ids

    agent, ids = asyncio.run(scenario())
    assert agent == AGENT and ids == [7, 8]
    assert seen[0].headers["Idempotency-Key"] == seen[1].headers["Idempotency-Key"]
    assert seen[2].headers["Last-Event-ID"] == "6" and seen[3].headers["Last-Event-ID"] == "7"


def test_the_event_decoder() -> None:
    decoder = EventDecoder()
    lines = [
        ": keep-alive",
        "retry: 1500",
        "id: 4",
        "event: note",
        "data: line one",
        "data: line two",
        "",
        "data: no id",
        "",
        "id: 5",
        'data: {"a": 1}',
        "",
    ]
    events = [e for line in lines if (e := decoder.feed(line)) is not None]
    assert [(e.id, e.type, e.data) for e in events] == [
        (4, "note", "line one\nline two"),
        (5, "message", {"a": 1}),
    ]
    assert decoder.retry_ms == 1500
