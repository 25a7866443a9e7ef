"""Reflection runs: exactly one per threshold crossing, claimed in the transaction that writes it.

An agent's n-th reflection is the row `reflection_runs (agent_id, seq = n)`, unique. The job
`hearth.reflect(agent, n)` runs in ONE transaction:

1. reads the agent: it must have done n - 1 reflections and hold more than the threshold;
2. claims the run: `INSERT … ON CONFLICT (agent_id, seq) DO NOTHING` — before any model call;
3. reflects (the model calls; reflections and evidence rows are written);
4. consumes what it read in step 1: `importance_since_reflection -= consumed` (observations
   scored meanwhile stay counted toward the next crossing), `reflections_done = n`;
5. commits.

Why exactly once: a finished run is a committed claim, so any later delivery conflicts in
step 2 and stops before the model. Two deliveries at once: the second's INSERT waits on the
unique index for the first transaction, then conflicts when it commits — or claims the row
if it rolled back. A worker killed mid-run never commits: its connection closes, PostgreSQL
rolls back the claim with everything else, and the redelivered job (acks_late) starts over.
Step 1 orders runs: run n + 1 cannot start until run n has committed.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from cognition.reflection import should_reflect
from db.models import Agent, Memory, ReflectionRun


@dataclass(frozen=True)
class Claim:
    """A run this transaction owns, and the accumulated importance it consumes."""

    run_id: int
    agent_id: uuid.UUID
    seq: int
    consumed: int


def next_runs(session: Session, agent_ids: Sequence[uuid.UUID]) -> list[tuple[uuid.UUID, int]]:
    """(agent, seq of its next reflection) for each agent, in one query."""
    if not agent_ids:
        return []
    rows = session.execute(
        sa.select(Agent.id, Agent.reflections_done + 1)
        .where(Agent.id.in_(list(agent_ids)))
        .order_by(Agent.id)
    )
    return [(agent_id, int(seq)) for agent_id, seq in rows]


def claim_run(session: Session, *, agent_id: uuid.UUID, seq: int, threshold: int) -> Claim | None:
    """Steps 1–2 of the module docstring; None if the run is done, not yet due, or not due."""
    agent = session.execute(
        sa.select(Agent.importance_since_reflection, Agent.reflections_done)
        .where(Agent.id == agent_id)
        .execution_options(populate_existing=True)
    ).one_or_none()
    if agent is None or agent.reflections_done != seq - 1:
        return None
    if not should_reflect(agent.importance_since_reflection, threshold):
        return None
    through = session.scalar(
        sa.select(sa.func.coalesce(sa.func.max(Memory.id), 0)).where(Memory.agent_id == agent_id)
    )
    run_id = session.scalar(
        insert(ReflectionRun)
        .values(agent_id=agent_id, seq=seq, through_memory_id=through, status="running")
        .on_conflict_do_nothing(index_elements=[ReflectionRun.agent_id, ReflectionRun.seq])
        .returning(ReflectionRun.id)
    )
    if run_id is None:
        return None
    return Claim(
        run_id=run_id, agent_id=agent_id, seq=seq, consumed=agent.importance_since_reflection
    )


def finish_run(session: Session, claim: Claim) -> int:
    """Step 4: consume the claimed importance, count the run; the accumulator left over."""
    left = session.scalar(
        sa.update(Agent)
        .where(Agent.id == claim.agent_id)
        .values(
            importance_since_reflection=sa.func.greatest(
                Agent.importance_since_reflection - claim.consumed, 0
            ),
            reflections_done=claim.seq,
        )
        .returning(Agent.importance_since_reflection)
    )
    session.execute(
        sa.update(ReflectionRun)
        .where(ReflectionRun.id == claim.run_id)
        .values(status="done", finished_at=sa.func.now())
    )
    return int(left or 0)
