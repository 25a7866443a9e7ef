"""The world's event stream (Server-Sent Events) for both clients, resumable by event id."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator

import httpx

from hearth_client import endpoints as ep
from hearth_client import types as t
from hearth_client._core import STREAM_ERRORS, Call, EventDecoder, Retry, stream_timeout
from hearth_client.errors import error_for


class EventStream:
    """`Hearth.events`: needs the client's `_http` and `retry`."""

    _http: httpx.Client
    retry: Retry

    def events(
        self, world_id: str, *, after: int | None = None, once: bool = False, reconnect: bool = True
    ) -> Iterator[t.Event]:
        """The world's events in order. A dropped stream resumes after the last event seen
        (`Last-Event-ID`), so nothing is lost or repeated; `once` stops at the current end."""
        call, last, failures = ep.events(world_id, once), after, 0
        while True:
            try:
                for event in self._connection(call, last):
                    failures, last = 0, event.id
                    yield event
                if once:
                    return
            except STREAM_ERRORS as exc:
                failures = self.retry.reconnect_or_raise(exc, failures, reconnect=reconnect)
            time.sleep(self.retry.delay(failures))

    def _connection(self, call: Call, last: int | None) -> Iterator[t.Event]:
        """One connection of the event stream, until the server or the network ends it."""
        headers = {"Last-Event-ID": str(last)} if last is not None else {}
        timeout = stream_timeout(self._http.timeout)
        with self._http.stream(
            "GET", call.path, params=call.params, headers=headers, timeout=timeout
        ) as response:
            if not response.is_success:
                response.read()
                raise error_for(response)
            decoder = EventDecoder()
            for line in response.iter_lines():
                if (event := decoder.feed(line)) is not None:
                    yield event


class AsyncEventStream:
    """`AsyncHearth.events`: needs the client's `_http` and `retry`."""

    _http: httpx.AsyncClient
    retry: Retry

    async def events(
        self, world_id: str, *, after: int | None = None, once: bool = False, reconnect: bool = True
    ) -> AsyncIterator[t.Event]:
        """The world's events in order. A dropped stream resumes after the last event seen
        (`Last-Event-ID`), so nothing is lost or repeated; `once` stops at the current end."""
        call, last, failures = ep.events(world_id, once), after, 0
        while True:
            try:
                async for event in self._connection(call, last):
                    failures, last = 0, event.id
                    yield event
                if once:
                    return
            except STREAM_ERRORS as exc:
                failures = self.retry.reconnect_or_raise(exc, failures, reconnect=reconnect)
            await asyncio.sleep(self.retry.delay(failures))

    async def _connection(self, call: Call, last: int | None) -> AsyncIterator[t.Event]:
        """One connection of the event stream, until the server or the network ends it."""
        headers = {"Last-Event-ID": str(last)} if last is not None else {}
        timeout = stream_timeout(self._http.timeout)
        async with self._http.stream(
            "GET", call.path, params=call.params, headers=headers, timeout=timeout
        ) as response:
            if not response.is_success:
                await response.aread()
                raise error_for(response)
            decoder = EventDecoder()
            async for line in response.aiter_lines():
                if (event := decoder.feed(line)) is not None:
                    yield event
