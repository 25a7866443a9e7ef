"""Jobs run in this process instead of through a broker: tests and the economy bench install a
`LocalDispatch` on the runtime, then `drain` it, calling each task's body by its registered
name (`db.jobs`).
"""

from __future__ import annotations

import threading
from collections import Counter, deque
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from db import jobs
from db.jobs import Job
from workers.tasks import conversations, enrichment, plans, reactions, reflections, summaries

BODIES: dict[str, Callable[..., Any]] = {
    jobs.REFLECT.name: reflections.reflect,
    jobs.PLAN_DAY.name: plans.plan_day,
    jobs.DECOMPOSE.name: plans.decompose,
    jobs.DECIDE_REACTION.name: reactions.decide_reaction,
    jobs.DECIDE_REACTIONS.name: reactions.decide_reactions,
    jobs.CONVERSE.name: conversations.converse,
    jobs.CONVERSE_TURN.name: conversations.converse_turn,
    jobs.END_CONVERSATION.name: conversations.end_conversation,
    jobs.SUMMARIZE.name: summaries.summarize,
    jobs.ENRICH_MEMORIES.name: enrichment.enrich_memories,
    jobs.ENRICH_WORLD.name: enrichment.enrich_world,
}
"""The agent loop's task bodies by name (the sweep, the backlog and the ping are run directly)."""


@dataclass
class LocalDispatch:
    """Jobs queued in process, run by whoever drains `queue`. A key already waiting is not
    queued twice, as with the Redis guard. Thread-safe."""

    queue: deque[Job] = field(default_factory=deque)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def send(self, job: Job) -> bool:
        with self._lock:
            if job.key is not None and any(queued.key == job.key for queued in self.queue):
                return False
            self.queue.append(job)
            return True

    def take(self) -> Job | None:
        """The oldest queued job, removed; None when the queue is empty."""
        with self._lock:
            return self.queue.popleft() if self.queue else None

    def sent(self, name: str) -> list[tuple[Any, ...]]:
        """The arguments of every queued job called `name`."""
        with self._lock:
            return [job.args for job in self.queue if job.name == name]


def drain(
    dispatch: LocalDispatch,
    *,
    skip: Collection[str] = frozenset(),
    limit: int | None = None,
    ran: Counter[str] | None = None,
) -> int:
    """Run queued jobs (and the jobs they queue) until none is left or `limit` ran; jobs named
    in `skip` are dropped. Counts each job run by name into `ran`; returns how many ran."""
    count = 0
    while (limit is None or count < limit) and (job := dispatch.take()) is not None:
        if job.name in skip:
            continue
        BODIES[job.name](*job.args)
        count += 1
        if ran is not None:
            ran[job.name] += 1
    return count
