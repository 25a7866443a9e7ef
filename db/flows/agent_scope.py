"""What every agent-loop flow opens first: the agent at its world's game time, its memory
store, and the Mind reporting to the audit; and what every one returns, an `Outcome`.

`agent_scope(session, faculties, agent_id)` yields an `AgentScope` (or None if the agent is
gone: a deleted agent's jobs end quietly). Model calls made inside are written to `llm_calls`
with the world, the agent and the game time when the block exits, even if the work fails and
rolls back. The store's touches are applied as the block exits without error, just before the
edge commits, and then the events the flow announced (`AgentScope.announce`) are emitted: the
world's event lock is the last lock a job takes. (The step locks agents, then the event lock;
a job that emitted, then locked the memory rows its retrievals touched, then waited on an agent
the step held, closed a deadlock cycle under load.) `lock` names an advisory lock held for the
whole transaction, so duplicates of one job run one after the other.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from cognition.focus import Focus, thinks_offline
from cognition.mind import Mind
from cognition.types import Persona
from db import jobs, locks
from db.deferred_touches import DeferredTouchStore
from db.flows.faculties import Faculties
from db.jobs import Job
from db.models import Agent, World
from db.queries.agents import to_persona
from db.queries.events import emit
from db.queries.worlds import game_now, mind_focus


@dataclass(frozen=True)
class Outcome:
    """What a flow run by a job did — `report`, the task's JSON result — and the jobs it asks
    for next, to be sent once its transaction has committed."""

    report: Mapping[str, object]
    follow_ups: tuple[Job, ...] = field(default=())


@dataclass
class AgentScope:
    faculties: Faculties
    session: Session
    world: World
    agent: Agent
    now: datetime
    store: DeferredTouchStore
    mind: Mind
    announced: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def announce(self, type: str, payload: dict[str, Any]) -> None:
        """An event of the world's stream, emitted as the scope closes, after every other lock
        of the job (module docstring)."""
        self.announced.append((type, payload))

    @property
    def persona(self) -> Persona:
        return to_persona(self.agent)

    @property
    def summary(self) -> str:
        """The cached summary description every prompt reads ("" until the first is made)."""
        return self.agent.summary or ""

    @property
    def offline(self) -> bool:
        """Out of focus in a `focused` world: the offline mind is this agent's mind, so its
        plans need no stand-in (`cognition.focus`)."""
        return thinks_offline(mind_focus(self.world), Focus.of(self.agent.in_focus))

    @property
    def paper(self) -> bool:
        """The paper profile: every gate off, the model asked everything."""
        return self.faculties.settings.paper


@contextmanager
def agent_scope(
    session: Session, faculties: Faculties, agent_id: uuid.UUID, *, lock: str | None = None
) -> Iterator[AgentScope | None]:
    if lock is not None:
        locks.hold(session, lock)
    agent = session.get(Agent, agent_id)
    world = session.get(World, agent.world_id) if agent is not None else None
    if agent is None or world is None:
        yield None
        return
    now = game_now(world)
    focus = Focus.of(agent.in_focus)
    with faculties.thinking(world=world, agent_id=agent.id, game_time=now, focus=focus) as mind:
        scope = AgentScope(
            faculties=faculties,
            session=session,
            world=world,
            agent=agent,
            now=now,
            store=faculties.job_store(session, world, agent.id),
            mind=mind,
        )
        yield scope
        scope.store.finish()  # the retrievals' touches, just before the commit
        for type, payload in scope.announced:  # the event lock last
            emit(session, world_id=world.id, type=type, payload=payload)


def enrich_later(world_id: uuid.UUID, memory_ids: Sequence[int]) -> tuple[Job, ...]:
    """What a flow that wrote memories asks for: their enrichment in one batch per world
    (while a world's batch is queued, another is not: it will pick these up too)."""
    return (jobs.enrich_world(world_id),) if memory_ids else ()
