"""The paper's reflection, exactly once per threshold crossing.

The claim, the reflections with their evidence and the accumulator's reset share the caller's
one transaction (`db.queries.reflections` argues why that is exactly once, also for a killed
worker or a concurrent duplicate). A run that leaves the accumulator above the threshold (much
was perceived while it thought) asks for the next run at once.
"""

from __future__ import annotations

import uuid

from sqlalchemy.orm import Session

from cognition import reflection
from db import jobs
from db.flows.agent_scope import Outcome, agent_scope, enrich_later
from db.flows.faculties import Faculties
from db.queries.reflections import claim_run, finish_run
from db.queries.worlds import reflection_threshold


def reflect(session: Session, faculties: Faculties, *, agent_id: uuid.UUID, seq: int) -> Outcome:
    """Run the agent's `seq`-th reflection, unless it ran already or is not due."""
    with agent_scope(session, faculties, agent_id) as scope:
        if scope is None:
            return Outcome({"reflections": 0})
        threshold = reflection_threshold(scope.world, faculties.settings)
        claim = claim_run(session, agent_id=agent_id, seq=seq, threshold=threshold)
        if claim is None:
            return Outcome({"reflections": 0})
        written = reflection.reflect(
            scope.store, scope.mind, now=scope.now, subject_name=scope.agent.name
        )
        scope.store.finish()  # memory rows before the agent's row, as enrichment locks them
        left = finish_run(session, claim)
        for memory in written:
            scope.announce(
                "reflection",
                {
                    "agent_id": str(agent_id),
                    "memory_id": memory.id,
                    "description": memory.description,
                    "seq": seq,
                },
            )
    again = (jobs.reflect(agent_id, seq + 1),) if left > threshold else ()
    return Outcome(
        {"reflections": len(written), "seq": seq},
        enrich_later(scope.world.id, [m.id for m in written]) + again,
    )
