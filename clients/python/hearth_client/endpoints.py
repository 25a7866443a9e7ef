"""Every route of the Hearth API as a `Call` value; the clients send them.

Keeping the routes here, once, means the sync and async clients cannot drift apart on paths,
bodies or which requests are safe to retry.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any
from urllib.parse import quote

from hearth_client._core import Call
from hearth_client.types import (
    AgentChanges,
    AgentSpec,
    AgentStep,
    ClockSpec,
    MapSpec,
    MemoryKind,
    NewMemory,
    PersonaPack,
    Weights,
    WorldChanges,
    WorldSettings,
)

Time = datetime | str


def _seg(value: object) -> str:
    return quote(str(value), safe="")


def _world(world_id: object, rest: str = "") -> str:
    return f"/v1/worlds/{_seg(world_id)}{rest}"


def _agent(world_id: object, agent_id: object, rest: str = "") -> str:
    return _world(world_id, f"/agents/{_seg(agent_id)}{rest}")


def _time(value: Time | None) -> str | None:
    return value.isoformat() if isinstance(value, datetime) else value


def _given(**values: Any) -> dict[str, Any]:
    return {key: value for key, value in values.items() if value is not None}


def health() -> Call:
    return Call("GET", "/healthz")


def readiness() -> Call:
    return Call("GET", "/readyz", accept=frozenset({503}))


def me() -> Call:
    return Call("GET", "/v1/me")


def list_worlds(page_size: int) -> Call:
    return Call("GET", "/v1/worlds", params={"limit": page_size})


def create_world(name: str, clock: ClockSpec | None, settings: WorldSettings | None) -> Call:
    return Call(
        "POST", "/v1/worlds", json=_given(name=name, clock=clock, settings=settings), creates=True
    )


def get_world(world_id: str) -> Call:
    return Call("GET", _world(world_id))


def update_world(world_id: str, changes: WorldChanges) -> Call:
    return Call("PATCH", _world(world_id), json=dict(changes))


def delete_world(world_id: str) -> Call:
    return Call("DELETE", _world(world_id))


EXPORT_MEDIA_TYPE = "application/x-ndjson"


def export_world(world_id: str) -> Call:
    """Streamed: read it with the client's `export_world`, line by line."""
    return Call("GET", _world(world_id, "/export"))


def import_world(name: str | None) -> Call:
    """The body is an export's bytes (sent as they are, never resent: it creates a world)."""
    return Call("POST", "/v1/worlds/import", params=_given(name=name))


def clock(world_id: str, **change: Any) -> Call:
    """`set`, `advance_minutes`, `paused`, `mode`, `rate`: not idempotent (advance), no resend."""
    body = _given(**change)
    if "set" in body:
        body["set"] = _time(body["set"])
    return Call("POST", _world(world_id, "/clock"), json=body)


def create_key(world_id: str) -> Call:
    return Call("POST", _world(world_id, "/keys"))


def list_keys(world_id: str) -> Call:
    return Call("GET", _world(world_id, "/keys"))


def revoke_key(world_id: str, key_id: str) -> Call:
    return Call("DELETE", _world(world_id, f"/keys/{_seg(key_id)}"))


def create_agent(world_id: str, persona: AgentSpec) -> Call:
    return Call("POST", _world(world_id, "/agents"), json=dict(persona), creates=True)


def list_agents(world_id: str, page_size: int) -> Call:
    return Call("GET", _world(world_id, "/agents"), params={"limit": page_size})


def get_agent(world_id: str, agent_id: str) -> Call:
    return Call("GET", _agent(world_id, agent_id))


def update_agent(world_id: str, agent_id: str, changes: AgentChanges) -> Call:
    return Call("PATCH", _agent(world_id, agent_id), json=dict(changes))


def delete_agent(world_id: str, agent_id: str) -> Call:
    return Call("DELETE", _agent(world_id, agent_id))


def agent_places(world_id: str, agent_id: str) -> Call:
    return Call("GET", _agent(world_id, agent_id, "/places"))


def put_map(world_id: str, spec: MapSpec) -> Call:
    return Call("PUT", _world(world_id, "/map"), json=dict(spec))


def get_map(world_id: str) -> Call:
    return Call("GET", _world(world_id, "/map"))


def import_personas(world_id: str, pack: PersonaPack) -> Call:
    return Call("POST", _world(world_id, "/personas/import"), json=dict(pack), creates=True)


def inner_voice(world_id: str, agent_id: str, text: str) -> Call:
    return Call(
        "POST", _agent(world_id, agent_id, "/inner-voice"), json={"text": text}, creates=True
    )


def object_state(
    world_id: str, place: str | None, state: str | None, statement: str | None
) -> Call:
    body = _given(place=place, state=state, statement=statement)
    return Call("POST", _world(world_id, "/objects/state"), json=body, creates=True)


def events(world_id: str, once: bool) -> Call:
    return Call("GET", _world(world_id, "/events"), params={"once": "true"} if once else {})


def add_memories(world_id: str, agent_id: str, memories: Sequence[NewMemory]) -> Call:
    return Call(
        "POST",
        _agent(world_id, agent_id, "/memories"),
        json={"memories": [dict(m) for m in memories]},
        creates=True,
    )


def list_memories(
    world_id: str,
    agent_id: str,
    *,
    page_size: int,
    kinds: Sequence[MemoryKind] | None,
    since: Time | None,
    until: Time | None,
    text: str | None = None,
) -> Call:
    params = _given(
        limit=page_size,
        kind=list(kinds) if kinds else None,
        since=_time(since),
        until=_time(until),
        text=text,
    )
    return Call("GET", _agent(world_id, agent_id, "/memories"), params=params)


def get_memory(world_id: str, agent_id: str, memory_id: int) -> Call:
    return Call("GET", _agent(world_id, agent_id, f"/memories/{int(memory_id)}"))


def search_memories(
    world_id: str,
    agent_id: str,
    query: str,
    *,
    k: int,
    kinds: Sequence[MemoryKind] | None,
    weights: Weights | None,
    at: Time | None,
    budget_tokens: int | None,
    touch: bool,
) -> Call:
    body = _given(
        query=query,
        k=k,
        kinds=list(kinds) if kinds else None,
        weights=weights,
        at=_time(at),
        budget_tokens=budget_tokens,
        touch=touch,
    )
    return Call("POST", _agent(world_id, agent_id, "/memories/search"), json=body, replayable=True)


def step(world_id: str, agents: Sequence[AgentStep], *, create_places: bool = False) -> Call:
    """Not resent after a lost connection: a step stores perceptions. Places it names must be
    in the map unless `create_places`."""
    body: dict[str, Any] = {"agents": [dict(a) for a in agents]}
    if create_places:
        body["create_places"] = True
    return Call("POST", _world(world_id, "/step"), json=body)


def chat(
    world_id: str,
    agent_id: str,
    *,
    player: str,
    message: str,
    persona: str,
    conversation_id: int | None,
) -> Call:
    """Not resent after a lost connection: both lines are remembered."""
    body = _given(player=player, message=message, persona=persona, conversation_id=conversation_id)
    return Call("POST", _agent(world_id, agent_id, "/chat"), json=body)


def interview(world_id: str, agent_id: str, question: str, *, interviewer: str, mode: str) -> Call:
    body = {"question": question, "interviewer": interviewer, "mode": mode}
    return Call("POST", _agent(world_id, agent_id, "/interview"), json=body)


def plans(world_id: str, agent_id: str, day: str | None) -> Call:
    return Call("GET", _agent(world_id, agent_id, "/plans"), params=_given(day=day))


def usage(world_id: str, basis: str, since: Time | None, until: Time | None) -> Call:
    params = _given(basis=basis, since=_time(since), until=_time(until))
    return Call("GET", _world(world_id, "/usage"), params=params)


def usage_timeline(
    world_id: str, bucket_minutes: int, since: Time | None, until: Time | None
) -> Call:
    params = _given(bucket_minutes=bucket_minutes, since=_time(since), until=_time(until))
    return Call("GET", _world(world_id, "/usage/timeline"), params=params)


def actions(world_id: str, page_size: int) -> Call:
    return Call("GET", _world(world_id, "/actions"), params={"limit": page_size})


def conversations(world_id: str, agent_id: str, page_size: int) -> Call:
    return Call("GET", _agent(world_id, agent_id, "/conversations"), params={"limit": page_size})


def relationships(world_id: str, agent_id: str, page_size: int) -> Call:
    return Call("GET", _agent(world_id, agent_id, "/relationships"), params={"limit": page_size})
