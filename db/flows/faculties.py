"""What a flow thinks with, built once per process by its edge (the API's app factory, the
worker's runtime) and handed to every flow."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime

from sqlalchemy.orm import Session, sessionmaker

from cognition.focus import Focus, thinks_offline
from cognition.mind import Embedder, Mind
from cognition.offline import OfflineMind
from db.audit import recorded_calls
from db.budget import Budgets, WallClock
from db.deferred_touches import DeferredTouchStore
from db.models import World
from db.queries.worlds import mind_focus, wall_now
from db.settings import Settings
from db.store import PgMemoryStore, world_store


@dataclass(frozen=True)
class Faculties:
    """The settings, the Mind, the Embedder, and the session factory the audit writes through
    (its own transactions: a model call is kept even when the work that made it rolls back);
    `clock` is the wall time budget windows are read by; `offline` answers for agents out of
    focus in a world that thinks with the model for its focused ones only (`cognition.focus`)."""

    settings: Settings
    mind: Mind
    embedder: Embedder
    audit: sessionmaker[Session]
    clock: WallClock = field(default=wall_now)
    offline: Mind = field(default_factory=OfflineMind)

    @contextmanager
    def thinking(
        self,
        *,
        world: World,
        agent_id: uuid.UUID | None,
        game_time: datetime,
        focus: Focus = Focus.NONE,
    ) -> Iterator[Mind]:
        """The Mind, each of its calls in this block audited to the world, the agent, the game
        time and `focus` (written when the block exits, whatever happens) and admitted by the
        world's model budget (`db.budget`: past it, the offline mind answers). Work for agents
        out of focus in a `focused` world is the offline mind's, audited as its calls."""
        with recorded_calls(
            self.audit, world_id=world.id, agent_id=agent_id, game_time=game_time, focus=focus
        ) as sink:
            if thinks_offline(mind_focus(world), focus):
                yield self.offline.with_audit(sink)
                return
            budgets = self.budgets
            metered = budgets.meter(
                sink,
                sessions=self.audit,
                world_id=world.id,
                budget=budgets.of(world),
                game_time=game_time,
            )
            yield self.mind.with_audit(metered)

    @property
    def stands_in(self) -> bool:
        """Whether plans get the offline mind's stand-in while the configured model thinks: a
        model on a CPU takes minutes per call, and a game must not show an idle character."""
        return self.settings.llm_configured and self.settings.plan_stand_ins

    def standing_in(self) -> Faculties:
        """These faculties thinking with the offline mind (audited like any mind)."""
        return replace(self, mind=OfflineMind())

    @property
    def budgets(self) -> Budgets:
        return Budgets(self.settings, self.clock)

    def store(self, session: Session, world: World, agent_id: uuid.UUID) -> PgMemoryStore:
        """An agent's memory store, ranking with its world's weights."""
        return world_store(
            session, world=world, agent_id=agent_id, embedder=self.embedder, settings=self.settings
        )

    def job_store(self, session: Session, world: World, agent_id: uuid.UUID) -> DeferredTouchStore:
        """The store a job thinks with: touches applied at `finish()`, just before the commit
        (`db.deferred_touches`)."""
        return DeferredTouchStore(session, self.store(session, world, agent_id))
