"""The event stream over a real socket: live delivery, resume after the last id, async client."""

from __future__ import annotations

import asyncio
import threading
from contextlib import closing

from hearth_client import AsyncHearth, Event, Hearth

from tests.clients.conftest import FAST_RETRY

AGENTS = 24
FIRST_READ = 9


def _write_agents(base_url: str, world_id: str, api_key: str, names: list[str]) -> None:
    with Hearth(base_url, api_key=api_key) as writer:
        for name in names:
            writer.create_agent(world_id, {"name": name})


def test_a_live_stream_resumes_without_loss_or_repeats(admin: Hearth, base_url: str) -> None:
    created = admin.create_world("Streamville")
    world_id, key = created["id"], created["api_key"]
    names = [f"Agent {i:02d}" for i in range(AGENTS)]
    writer = threading.Thread(target=_write_agents, args=(base_url, world_id, key, names))
    seen: list[Event] = []
    with Hearth(base_url, api_key=key, retry=FAST_RETRY) as reader:
        writer.start()
        with closing(reader.events(world_id)) as stream:  # live: waits for events to come
            for event in stream:
                seen.append(event)
                if len(seen) == FIRST_READ:
                    break
        with closing(reader.events(world_id, after=seen[-1].id)) as stream:
            for event in stream:
                seen.append(event)
                if len(seen) == AGENTS:
                    break
    writer.join(timeout=30)
    assert [event.data["name"] for event in seen] == names
    assert {event.type for event in seen} == {"agent_created"}
    ids = [event.id for event in seen]
    assert ids == sorted(ids) and len(set(ids)) == AGENTS


def test_the_async_client(admin: Hearth, base_url: str) -> None:
    created = admin.create_world("Asyncville")
    world_id, key = created["id"], created["api_key"]

    async def scenario() -> tuple[list[str], list[str]]:
        async with AsyncHearth(base_url, api_key=key, retry=FAST_RETRY) as hearth:
            for name in ("Ada", "Bo", "Cy"):
                await hearth.create_agent(world_id, {"name": name})
            names = [a["name"] async for a in hearth.list_agents(world_id, page_size=2)]
            types = [e.type async for e in hearth.events(world_id, once=True)]
            return names, types

    names, types = asyncio.run(scenario())
    assert names == ["Ada", "Bo", "Cy"]
    assert types == ["agent_created"] * 3
