"""`AsyncHearth`: the asyncio client, method for method the same as `Hearth`."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterable, AsyncIterator, Sequence
from typing import Any, cast

import httpx

from hearth_client import endpoints as ep
from hearth_client import types as t
from hearth_client._core import (
    DEFAULT_PAGE_SIZE,
    DEFAULT_TIMEOUT_S,
    Call,
    Retry,
    client_headers,
    decode,
    stream_timeout,
)
from hearth_client.errors import ConnectionFailed, error_for
from hearth_client.streams import AsyncEventStream


class AsyncHearth(AsyncEventStream):
    """`AsyncHearth("http://127.0.0.1:8000", api_key="hk_…")`; `async with` closes it."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT_S,
        retry: Retry | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.retry = retry or Retry()
        self._http = httpx.AsyncClient(
            base_url=base_url, headers=client_headers(api_key), timeout=timeout, transport=transport
        )

    async def close(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncHearth:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    async def send(self, call: Call, *, idempotency_key: str | None = None) -> Any:
        """Send one call, retrying 429/503 (and lost connections when resending is safe)."""
        headers = call.headers(idempotency_key or str(uuid.uuid4()))
        attempt = 0
        while True:
            try:
                response = await self._http.request(
                    call.method, call.path, json=call.json, params=call.params, headers=headers
                )
            except httpx.TransportError as exc:
                wait = self.retry.after_failure(call, attempt)
                if wait is None:
                    raise ConnectionFailed(f"{call.method} {call.path}: {exc!r}") from exc
            else:
                wait = self.retry.after_response(call, response, attempt)
                if wait is None:
                    return decode(call, response)
            await asyncio.sleep(wait)
            attempt += 1

    async def _pages(self, call: Call) -> AsyncIterator[Any]:
        cursor: str | None = None
        while True:
            page = await self.send(call.with_params(cursor=cursor) if cursor else call)
            for item in page["items"]:
                yield item
            cursor = page.get("next_cursor")
            if not cursor:
                return

    # --- health, worlds, clock, keys ---------------------------------------------------------

    async def health(self) -> t.Health:
        """Liveness, and the id of the HEARTH_HOME the API was started from."""
        return cast(t.Health, await self.send(ep.health()))

    async def readiness(self) -> t.Readiness:
        """The readiness report, also when not ready (then `status` is "not_ready")."""
        return cast(t.Readiness, await self.send(ep.readiness()))

    async def me(self) -> t.Caller:
        """What the key reaches: `{"scope": "admin"}` or `{"scope": "world", "world_id": …}`."""
        return cast(t.Caller, await self.send(ep.me()))

    def list_worlds(self, *, page_size: int = DEFAULT_PAGE_SIZE) -> AsyncIterator[t.World]:
        """Admin key: every world, page after page, in creation order."""
        return cast(AsyncIterator[t.World], self._pages(ep.list_worlds(page_size)))

    async def create_world(
        self,
        name: str,
        *,
        clock: t.ClockSpec | None = None,
        settings: t.WorldSettings | None = None,
        idempotency_key: str | None = None,
    ) -> t.WorldCreated:
        """Admin key. The answer holds the world's key; it is shown only once."""
        call = ep.create_world(name, clock, settings)
        return cast(t.WorldCreated, await self.send(call, idempotency_key=idempotency_key))

    async def get_world(self, world_id: str) -> t.World:
        return cast(t.World, await self.send(ep.get_world(world_id)))

    async def update_world(self, world_id: str, changes: t.WorldChanges) -> t.World:
        """Admin key: rename the world, or change its settings (a model budget, weights, the
        reflection threshold)."""
        return cast(t.World, await self.send(ep.update_world(world_id, changes)))

    async def delete_world(self, world_id: str) -> None:
        """Admin key: the world and everything in it (export it first to keep a copy)."""
        await self.send(ep.delete_world(world_id))

    async def export_world(self, world_id: str) -> AsyncIterator[bytes]:
        """Admin key: the world as one file, streamed line by line (JSON Lines)."""
        call = ep.export_world(world_id)
        timeout = stream_timeout(self._http.timeout)
        async with self._http.stream("GET", call.path, timeout=timeout) as response:
            if not response.is_success:
                await response.aread()
                raise error_for(response)
            async for line in response.aiter_lines():
                if line:
                    yield (line + "\n").encode()

    async def import_world(
        self, export: bytes | AsyncIterable[bytes], *, name: str | None = None
    ) -> t.WorldCreated:
        """Admin key: a new world (new ids) from an export; the answer holds its key."""
        call = ep.import_world(name)
        response = await self._http.post(
            call.path,
            params=call.params,
            content=export,
            headers={"content-type": ep.EXPORT_MEDIA_TYPE},
            timeout=stream_timeout(self._http.timeout),
        )
        return cast(t.WorldCreated, decode(call, response))

    async def set_clock(self, world_id: str, to: ep.Time, *, rewind: bool = False) -> t.Clock:
        """Jump the clock; an earlier time than now needs `rewind` (else `Conflict`)."""
        change: dict[str, Any] = {"set": to, **({"rewind": True} if rewind else {})}
        return cast(t.Clock, await self.send(ep.clock(world_id, **change)))

    async def advance_clock(self, world_id: str, minutes: float) -> t.Clock:
        return cast(t.Clock, await self.send(ep.clock(world_id, advance_minutes=minutes)))

    async def configure_clock(
        self,
        world_id: str,
        *,
        mode: str | None = None,
        rate: float | None = None,
        paused: bool | None = None,
    ) -> t.Clock:
        return cast(
            t.Clock, await self.send(ep.clock(world_id, mode=mode, rate=rate, paused=paused))
        )

    async def create_key(self, world_id: str) -> t.KeyCreated:
        return cast(t.KeyCreated, await self.send(ep.create_key(world_id)))

    async def list_keys(self, world_id: str) -> list[t.Key]:
        return cast(list[t.Key], await self.send(ep.list_keys(world_id)))

    async def revoke_key(self, world_id: str, key_id: str) -> None:
        await self.send(ep.revoke_key(world_id, key_id))

    # --- agents, map, personas ---------------------------------------------------------------

    async def create_agent(
        self, world_id: str, persona: t.AgentSpec, *, idempotency_key: str | None = None
    ) -> t.Agent:
        call = ep.create_agent(world_id, persona)
        return cast(t.Agent, await self.send(call, idempotency_key=idempotency_key))

    def list_agents(
        self, world_id: str, *, page_size: int = DEFAULT_PAGE_SIZE
    ) -> AsyncIterator[t.Agent]:
        """Every agent, page after page, in creation order."""
        return cast(AsyncIterator[t.Agent], self._pages(ep.list_agents(world_id, page_size)))

    async def get_agent(self, world_id: str, agent_id: str) -> t.Agent:
        return cast(t.Agent, await self.send(ep.get_agent(world_id, agent_id)))

    async def update_agent(self, world_id: str, agent_id: str, changes: t.AgentChanges) -> t.Agent:
        return cast(t.Agent, await self.send(ep.update_agent(world_id, agent_id, changes)))

    async def delete_agent(self, world_id: str, agent_id: str) -> None:
        await self.send(ep.delete_agent(world_id, agent_id))

    async def agent_places(self, world_id: str, agent_id: str) -> t.KnownMap:
        return cast(t.KnownMap, await self.send(ep.agent_places(world_id, agent_id)))

    async def put_map(self, world_id: str, spec: t.MapSpec) -> t.MapSummary:
        return cast(t.MapSummary, await self.send(ep.put_map(world_id, spec)))

    async def get_map(self, world_id: str) -> t.Map:
        return cast(t.Map, await self.send(ep.get_map(world_id)))

    async def import_personas(
        self, world_id: str, pack: t.PersonaPack, *, idempotency_key: str | None = None
    ) -> t.ImportSummary:
        call = ep.import_personas(world_id, pack)
        return cast(t.ImportSummary, await self.send(call, idempotency_key=idempotency_key))

    async def inner_voice(
        self, world_id: str, agent_id: str, text: str, *, idempotency_key: str | None = None
    ) -> t.Memory:
        call = ep.inner_voice(world_id, agent_id, text)
        return cast(t.Memory, await self.send(call, idempotency_key=idempotency_key))

    async def set_object_state(
        self,
        world_id: str,
        place: str | None = None,
        state: str | None = None,
        *,
        statement: str | None = None,
        idempotency_key: str | None = None,
    ) -> t.ObjectState:
        """`place` + `state`, or the paper's `statement="<path> is <state>"`."""
        call = ep.object_state(world_id, place, state, statement)
        return cast(t.ObjectState, await self.send(call, idempotency_key=idempotency_key))

    # --- memories ------------------------------------------------------------------------------

    async def add_memories(
        self,
        world_id: str,
        agent_id: str,
        memories: Sequence[t.NewMemory],
        *,
        idempotency_key: str | None = None,
    ) -> list[t.Memory]:
        page = await self.send(
            ep.add_memories(world_id, agent_id, memories), idempotency_key=idempotency_key
        )
        return cast(list[t.Memory], page["items"])

    def list_memories(
        self,
        world_id: str,
        agent_id: str,
        *,
        kinds: Sequence[t.MemoryKind] | None = None,
        since: ep.Time | None = None,
        until: ep.Time | None = None,
        text: str | None = None,
        page_size: int = DEFAULT_PAGE_SIZE,
    ) -> AsyncIterator[t.Memory]:
        """Newest first, page after page; `text` keeps descriptions containing it (any case)."""
        call = ep.list_memories(
            world_id,
            agent_id,
            page_size=page_size,
            kinds=kinds,
            since=since,
            until=until,
            text=text,
        )
        return cast(AsyncIterator[t.Memory], self._pages(call))

    async def get_memory(self, world_id: str, agent_id: str, memory_id: int) -> t.MemoryDetail:
        return cast(t.MemoryDetail, await self.send(ep.get_memory(world_id, agent_id, memory_id)))

    async def search_memories(
        self,
        world_id: str,
        agent_id: str,
        query: str,
        *,
        k: int = 10,
        kinds: Sequence[t.MemoryKind] | None = None,
        weights: t.Weights | None = None,
        at: ep.Time | None = None,
        budget_tokens: int | None = None,
        touch: bool = True,
    ) -> t.SearchResponse:
        call = ep.search_memories(
            world_id,
            agent_id,
            query,
            k=k,
            kinds=kinds,
            weights=weights,
            at=at,
            budget_tokens=budget_tokens,
            touch=touch,
        )
        return cast(t.SearchResponse, await self.send(call))

    # --- the game loop, plans, usage -------------------------------------------------------------

    async def step(
        self, world_id: str, agents: Sequence[t.AgentStep], *, create_places: bool = False
    ) -> t.StepResult:
        """Report agents; a place they name must be in the map unless `create_places`."""
        call = ep.step(world_id, agents, create_places=create_places)
        return cast(t.StepResult, await self.send(call))

    async def chat(
        self,
        world_id: str,
        agent_id: str,
        message: str,
        *,
        player: str,
        persona: str = "",
        conversation_id: int | None = None,
    ) -> t.ChatReply:
        """A player speaks; pass the answer's `conversation_id` back to continue."""
        call = ep.chat(
            world_id,
            agent_id,
            player=player,
            message=message,
            persona=persona,
            conversation_id=conversation_id,
        )
        return cast(t.ChatReply, await self.send(call))

    async def interview(
        self,
        world_id: str,
        agent_id: str,
        question: str,
        *,
        interviewer: str = "an interviewer",
        mode: t.InterviewMode = "full",
    ) -> t.InterviewAnswer:
        call = ep.interview(world_id, agent_id, question, interviewer=interviewer, mode=mode)
        return cast(t.InterviewAnswer, await self.send(call))

    async def plans(self, world_id: str, agent_id: str, *, day: str | None = None) -> t.PlanDay:
        return cast(t.PlanDay, await self.send(ep.plans(world_id, agent_id, day)))

    async def usage(
        self,
        world_id: str,
        *,
        basis: str = "game",
        since: ep.Time | None = None,
        until: ep.Time | None = None,
    ) -> t.Usage:
        return cast(t.Usage, await self.send(ep.usage(world_id, basis, since, until)))

    async def usage_timeline(
        self,
        world_id: str,
        *,
        bucket_minutes: int = 60,
        since: ep.Time | None = None,
        until: ep.Time | None = None,
    ) -> t.UsageTimeline:
        """Usage per game-time bucket, by agent and operation (empty buckets left out)."""
        call = ep.usage_timeline(world_id, bucket_minutes, since, until)
        return cast(t.UsageTimeline, await self.send(call))

    def actions(
        self, world_id: str, *, page_size: int = DEFAULT_PAGE_SIZE
    ) -> AsyncIterator[t.AgentDoing]:
        """Every agent's place, current action and line (the town view), page after page."""
        return cast(AsyncIterator[t.AgentDoing], self._pages(ep.actions(world_id, page_size)))

    def list_conversations(
        self, world_id: str, agent_id: str, *, page_size: int = DEFAULT_PAGE_SIZE
    ) -> AsyncIterator[t.Conversation]:
        """The agent's conversations with every line, newest first."""
        call = ep.conversations(world_id, agent_id, page_size)
        return cast(AsyncIterator[t.Conversation], self._pages(call))

    def list_relationships(
        self, world_id: str, agent_id: str, *, page_size: int = DEFAULT_PAGE_SIZE
    ) -> AsyncIterator[t.Relationship]:
        """How the agent sees each other it knows, by name, with earlier views."""
        call = ep.relationships(world_id, agent_id, page_size)
        return cast(AsyncIterator[t.Relationship], self._pages(call))

    # --- events ----------------------------------------------------------------------------------
