"""The agent's summary description, remade when stale.

Every prompt about an agent reads the cached `agents.summary`; this remakes it from the paper's
three retrievals when `cognition.summary.is_stale` says so (never made, a game day old, or 50
memories since). Staleness is the result key: checked before the model under a lock on the
agent's summary, so a duplicate delivery finds a fresh summary and does nothing.
"""

from __future__ import annotations

import uuid

from sqlalchemy.orm import Session

from cognition import summary
from db import jobs
from db.flows.agent_scope import Outcome, agent_scope
from db.flows.faculties import Faculties
from db.queries.summaries import memories_since, save_summary


def summarize(session: Session, faculties: Faculties, *, agent_id: uuid.UUID) -> Outcome:
    """Remake the agent's summary description if it is stale."""
    lock = jobs.summarize(agent_id).key
    with agent_scope(session, faculties, agent_id, lock=lock) as scope:
        if scope is None:
            return Outcome({"summarized": False})
        agent = scope.agent
        since = memories_since(session, agent_id=agent.id, since=agent.summary_at)
        if not summary.is_stale(summary_at=agent.summary_at, memories_since=since, now=scope.now):
            return Outcome({"summarized": False})
        text = summary.summarize_agent(
            scope.store, scope.mind, persona=scope.persona, now=scope.now
        )
        scope.store.finish()  # memory rows before the agent's row, as enrichment locks them
        save_summary(session, agent_id=agent.id, text=text, at=scope.now)
    return Outcome({"summarized": True})
