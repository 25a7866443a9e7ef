"""`hearth.reflect` (slow queue): the paper's reflection, exactly once per threshold crossing.

The claim, the reflections with their evidence and the accumulator's reset share one
transaction (`db.queries.reflections` argues why that is exactly once, also for a killed
worker or a concurrent duplicate). A run that leaves the accumulator above the threshold (much
was perceived while it thought) asks for the next run at once.
"""

from __future__ import annotations

from celery import shared_task

from cognition import reflection
from db import jobs
from db.queries.events import emit
from db.queries.reflections import claim_run, finish_run
from db.store import reflection_threshold
from workers.tasks.base import RETRY_POLICY
from workers.tasks.scope import agent_scope, enrich_later


@shared_task(name=jobs.REFLECT.name, **RETRY_POLICY)
def reflect(agent_id: str, seq: int) -> dict[str, object]:
    """Run the agent's `seq`-th reflection, unless it ran already or is not due."""
    with agent_scope(agent_id) as scope:
        if scope is None:
            return {"reflections": 0}
        threshold = reflection_threshold(scope.world, scope.runtime.settings)
        claim = claim_run(scope.session, agent_id=scope.agent.id, seq=seq, threshold=threshold)
        if claim is None:
            return {"reflections": 0}
        written = reflection.reflect(
            scope.store, scope.mind, now=scope.now, subject_name=scope.agent.name
        )
        scope.store.finish()  # memory rows before the agent's row, as enrichment locks them
        left = finish_run(scope.session, claim)
        for memory in written:
            emit(
                scope.session,
                world_id=scope.world.id,
                type="reflection",
                payload={
                    "agent_id": agent_id,
                    "memory_id": memory.id,
                    "description": memory.description,
                    "seq": seq,
                },
            )
    enrich_later(scope.runtime, scope.world.id, [m.id for m in written])
    if left > threshold:
        scope.runtime.dispatch.send(jobs.reflect(agent_id, seq + 1))
    return {"reflections": len(written), "seq": seq}
