"""`Hearth`: the synchronous client. Every method is one route (see `endpoints`)."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterable, Iterator, Sequence
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
from hearth_client.streams import EventStream


class Hearth(EventStream):
    """`Hearth("http://127.0.0.1:8000", api_key="hk_…")`; use as a context manager to close."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        *,
        timeout: float = DEFAULT_TIMEOUT_S,
        retry: Retry | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.retry = retry or Retry()
        self._http = httpx.Client(
            base_url=base_url, headers=client_headers(api_key), timeout=timeout, transport=transport
        )

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Hearth:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def send(self, call: Call, *, idempotency_key: str | None = None) -> Any:
        """Send one call, retrying 429/503 (and lost connections when resending is safe)."""
        headers = call.headers(idempotency_key or str(uuid.uuid4()))
        attempt = 0
        while True:
            try:
                response = self._http.request(
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
            time.sleep(wait)
            attempt += 1

    def _pages(self, call: Call) -> Iterator[Any]:
        cursor: str | None = None
        while True:
            page = self.send(call.with_params(cursor=cursor) if cursor else call)
            yield from page["items"]
            cursor = page.get("next_cursor")
            if not cursor:
                return

    # --- health, worlds, clock, keys ---------------------------------------------------------

    def health(self) -> t.Health:
        """Liveness, and the id of the HEARTH_HOME the API was started from."""
        return cast(t.Health, self.send(ep.health()))

    def readiness(self) -> t.Readiness:
        """The readiness report, also when not ready (then `status` is "not_ready")."""
        return cast(t.Readiness, self.send(ep.readiness()))

    def me(self) -> t.Caller:
        """What the key reaches: `{"scope": "admin"}` or `{"scope": "world", "world_id": …}`."""
        return cast(t.Caller, self.send(ep.me()))

    def list_worlds(self, *, page_size: int = DEFAULT_PAGE_SIZE) -> Iterator[t.World]:
        """Admin key: every world, page after page, in creation order."""
        return cast(Iterator[t.World], self._pages(ep.list_worlds(page_size)))

    def create_world(
        self,
        name: str,
        *,
        clock: t.ClockSpec | None = None,
        settings: t.WorldSettings | None = None,
        idempotency_key: str | None = None,
    ) -> t.WorldCreated:
        """Admin key. The answer holds the world's key; it is shown only once."""
        call = ep.create_world(name, clock, settings)
        return cast(t.WorldCreated, self.send(call, idempotency_key=idempotency_key))

    def get_world(self, world_id: str) -> t.World:
        return cast(t.World, self.send(ep.get_world(world_id)))

    def update_world(self, world_id: str, changes: t.WorldChanges) -> t.World:
        """Admin key: rename the world, or change its settings (a model budget, weights, the
        reflection threshold)."""
        return cast(t.World, self.send(ep.update_world(world_id, changes)))

    def delete_world(self, world_id: str) -> None:
        """Admin key: the world and everything in it (export it first to keep a copy)."""
        self.send(ep.delete_world(world_id))

    def export_world(self, world_id: str) -> Iterator[bytes]:
        """Admin key: the world as one file, streamed line by line (JSON Lines)."""
        call = ep.export_world(world_id)
        with self._http.stream("GET", call.path, timeout=stream_timeout(self._http.timeout)) as r:
            if not r.is_success:
                r.read()
                raise error_for(r)
            for line in r.iter_lines():
                if line:
                    yield (line + "\n").encode()

    def import_world(
        self, export: bytes | Iterable[bytes], *, name: str | None = None
    ) -> t.WorldCreated:
        """Admin key: a new world (new ids) from an export; the answer holds its key."""
        call = ep.import_world(name)
        response = self._http.post(
            call.path,
            params=call.params,
            content=export,
            headers={"content-type": ep.EXPORT_MEDIA_TYPE},
            timeout=stream_timeout(self._http.timeout),
        )
        return cast(t.WorldCreated, decode(call, response))

    def set_clock(self, world_id: str, to: ep.Time, *, rewind: bool = False) -> t.Clock:
        """Jump the clock; an earlier time than now needs `rewind` (else `Conflict`)."""
        change: dict[str, Any] = {"set": to, **({"rewind": True} if rewind else {})}
        return cast(t.Clock, self.send(ep.clock(world_id, **change)))

    def advance_clock(self, world_id: str, minutes: float) -> t.Clock:
        return cast(t.Clock, self.send(ep.clock(world_id, advance_minutes=minutes)))

    def configure_clock(
        self,
        world_id: str,
        *,
        mode: str | None = None,
        rate: float | None = None,
        paused: bool | None = None,
    ) -> t.Clock:
        return cast(t.Clock, self.send(ep.clock(world_id, mode=mode, rate=rate, paused=paused)))

    def create_key(self, world_id: str) -> t.KeyCreated:
        return cast(t.KeyCreated, self.send(ep.create_key(world_id)))

    def list_keys(self, world_id: str) -> list[t.Key]:
        return cast(list[t.Key], self.send(ep.list_keys(world_id)))

    def revoke_key(self, world_id: str, key_id: str) -> None:
        self.send(ep.revoke_key(world_id, key_id))

    # --- agents, map, personas ---------------------------------------------------------------

    def create_agent(
        self, world_id: str, persona: t.AgentSpec, *, idempotency_key: str | None = None
    ) -> t.Agent:
        call = ep.create_agent(world_id, persona)
        return cast(t.Agent, self.send(call, idempotency_key=idempotency_key))

    def list_agents(
        self, world_id: str, *, page_size: int = DEFAULT_PAGE_SIZE
    ) -> Iterator[t.Agent]:
        """Every agent, page after page, in creation order."""
        return cast(Iterator[t.Agent], self._pages(ep.list_agents(world_id, page_size)))

    def get_agent(self, world_id: str, agent_id: str) -> t.Agent:
        return cast(t.Agent, self.send(ep.get_agent(world_id, agent_id)))

    def update_agent(self, world_id: str, agent_id: str, changes: t.AgentChanges) -> t.Agent:
        return cast(t.Agent, self.send(ep.update_agent(world_id, agent_id, changes)))

    def delete_agent(self, world_id: str, agent_id: str) -> None:
        self.send(ep.delete_agent(world_id, agent_id))

    def agent_places(self, world_id: str, agent_id: str) -> t.KnownMap:
        return cast(t.KnownMap, self.send(ep.agent_places(world_id, agent_id)))

    def put_map(self, world_id: str, spec: t.MapSpec) -> t.MapSummary:
        return cast(t.MapSummary, self.send(ep.put_map(world_id, spec)))

    def get_map(self, world_id: str) -> t.Map:
        return cast(t.Map, self.send(ep.get_map(world_id)))

    def import_personas(
        self, world_id: str, pack: t.PersonaPack, *, idempotency_key: str | None = None
    ) -> t.ImportSummary:
        call = ep.import_personas(world_id, pack)
        return cast(t.ImportSummary, self.send(call, idempotency_key=idempotency_key))

    def inner_voice(
        self, world_id: str, agent_id: str, text: str, *, idempotency_key: str | None = None
    ) -> t.Memory:
        call = ep.inner_voice(world_id, agent_id, text)
        return cast(t.Memory, self.send(call, idempotency_key=idempotency_key))

    def set_object_state(
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
        return cast(t.ObjectState, self.send(call, idempotency_key=idempotency_key))

    # --- memories ------------------------------------------------------------------------------

    def add_memories(
        self,
        world_id: str,
        agent_id: str,
        memories: Sequence[t.NewMemory],
        *,
        idempotency_key: str | None = None,
    ) -> list[t.Memory]:
        page = self.send(
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
    ) -> Iterator[t.Memory]:
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
        return cast(Iterator[t.Memory], self._pages(call))

    def get_memory(self, world_id: str, agent_id: str, memory_id: int) -> t.MemoryDetail:
        return cast(t.MemoryDetail, self.send(ep.get_memory(world_id, agent_id, memory_id)))

    def search_memories(
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
        return cast(t.SearchResponse, self.send(call))

    # --- the game loop, plans, usage -------------------------------------------------------------

    def step(
        self, world_id: str, agents: Sequence[t.AgentStep], *, create_places: bool = False
    ) -> t.StepResult:
        """Report agents; a place they name must be in the map unless `create_places`."""
        call = ep.step(world_id, agents, create_places=create_places)
        return cast(t.StepResult, self.send(call))

    def chat(
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
        return cast(t.ChatReply, self.send(call))

    def interview(
        self,
        world_id: str,
        agent_id: str,
        question: str,
        *,
        interviewer: str = "an interviewer",
        mode: t.InterviewMode = "full",
    ) -> t.InterviewAnswer:
        call = ep.interview(world_id, agent_id, question, interviewer=interviewer, mode=mode)
        return cast(t.InterviewAnswer, self.send(call))

    def plans(self, world_id: str, agent_id: str, *, day: str | None = None) -> t.PlanDay:
        return cast(t.PlanDay, self.send(ep.plans(world_id, agent_id, day)))

    def usage(
        self,
        world_id: str,
        *,
        basis: str = "game",
        since: ep.Time | None = None,
        until: ep.Time | None = None,
    ) -> t.Usage:
        return cast(t.Usage, self.send(ep.usage(world_id, basis, since, until)))

    def usage_timeline(
        self,
        world_id: str,
        *,
        bucket_minutes: int = 60,
        since: ep.Time | None = None,
        until: ep.Time | None = None,
    ) -> t.UsageTimeline:
        """Usage per game-time bucket, by agent and operation (empty buckets left out)."""
        call = ep.usage_timeline(world_id, bucket_minutes, since, until)
        return cast(t.UsageTimeline, self.send(call))

    def actions(
        self, world_id: str, *, page_size: int = DEFAULT_PAGE_SIZE
    ) -> Iterator[t.AgentDoing]:
        """Every agent's place, current action and line (the town view), page after page."""
        return cast(Iterator[t.AgentDoing], self._pages(ep.actions(world_id, page_size)))

    def list_conversations(
        self, world_id: str, agent_id: str, *, page_size: int = DEFAULT_PAGE_SIZE
    ) -> Iterator[t.Conversation]:
        """The agent's conversations with every line, newest first."""
        call = ep.conversations(world_id, agent_id, page_size)
        return cast(Iterator[t.Conversation], self._pages(call))

    def list_relationships(
        self, world_id: str, agent_id: str, *, page_size: int = DEFAULT_PAGE_SIZE
    ) -> Iterator[t.Relationship]:
        """How the agent sees each other it knows, by name, with earlier views."""
        call = ep.relationships(world_id, agent_id, page_size)
        return cast(Iterator[t.Relationship], self._pages(call))

    # --- events ----------------------------------------------------------------------------------
