"""What every agent-loop task opens first: one transaction, the agent at its world's game time,
its memory store, and the Mind reporting to the audit.

`agent_scope(agent_id)` yields an `AgentScope` (or None if the agent is gone: a deleted agent's
jobs end quietly). Model calls made inside are written to `llm_calls` with the world, the agent
and the game time when the block exits, even if the work fails and rolls back; the work itself
commits once, when the block exits without error. `lock` names an advisory lock held for the
whole transaction, so duplicates of one job run one after the other.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from cognition.mind import Mind
from cognition.types import Persona
from db import jobs, locks
from db.audit import recorded_calls
from db.deferred_touches import DeferredTouchStore
from db.models import Agent, World
from db.queries.agents import to_persona
from db.queries.worlds import game_now
from db.store import PgMemoryStore, effective_weights
from workers.runtime import Runtime, get_runtime, session_scope


@dataclass
class AgentScope:
    runtime: Runtime
    session: Session
    world: World
    agent: Agent
    now: datetime
    store: DeferredTouchStore
    mind: Mind

    @property
    def persona(self) -> Persona:
        return to_persona(self.agent)

    @property
    def summary(self) -> str:
        """The cached summary description every prompt reads ("" until the first is made)."""
        return self.agent.summary or ""


@contextmanager
def agent_scope(agent_id: str, *, lock: str | None = None) -> Iterator[AgentScope | None]:
    runtime = get_runtime()
    with session_scope() as session:
        if lock is not None:
            locks.hold(session, lock)
        agent = session.get(Agent, uuid.UUID(agent_id))
        world = session.get(World, agent.world_id) if agent is not None else None
        if agent is None or world is None:
            yield None
            return
        now = game_now(world)
        with recorded_calls(
            runtime.sessions, world_id=world.id, agent_id=agent.id, game_time=now
        ) as sink:
            scope = AgentScope(
                runtime=runtime,
                session=session,
                world=world,
                agent=agent,
                now=now,
                store=store_of(runtime, session, world, agent.id),
                mind=runtime.mind.with_audit(sink),
            )
            yield scope
            scope.store.finish()  # the retrievals' touches, just before the commit


def store_of(
    runtime: Runtime, session: Session, world: World, agent_id: uuid.UUID
) -> DeferredTouchStore:
    """An agent's memory store with its world's retrieval weights, touches applied by
    `finish()` (`db.deferred_touches`)."""
    inner = PgMemoryStore(
        session,
        world_id=world.id,
        agent_id=agent_id,
        embedder=runtime.embedder,
        weights_default=effective_weights(world, runtime.settings),
    )
    return DeferredTouchStore(session, inner)


def enrich_later(runtime: Runtime, world_id: uuid.UUID, memory_ids: Sequence[int]) -> None:
    """After a task's commit: have what it wrote embedded and scored, in one batch per world
    (while a world's batch is queued, another is not: it will pick these up too)."""
    if memory_ids:
        runtime.dispatch.send(jobs.enrich_world(world_id))
