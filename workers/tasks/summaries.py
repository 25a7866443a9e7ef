"""`hearth.summarize` (slow queue): the agent's summary description, remade when stale.

Every prompt about an agent reads the cached `agents.summary`; this remakes it from the paper's
three retrievals when `cognition.summary.is_stale` says so (never made, a game day old, or 50
memories since). Staleness is the result key: checked before the model under a lock on the
agent's summary, so a duplicate delivery finds a fresh summary and does nothing.
"""

from __future__ import annotations

from celery import shared_task

from cognition import summary
from db import jobs
from db.queries.summaries import memories_since, save_summary
from workers.tasks.base import RETRY_POLICY
from workers.tasks.scope import agent_scope


@shared_task(name=jobs.SUMMARIZE.name, **RETRY_POLICY)
def summarize(agent_id: str) -> dict[str, object]:
    """Remake the agent's summary description if it is stale."""
    with agent_scope(agent_id, lock=jobs.summarize(agent_id).key) as scope:
        if scope is None:
            return {"summarized": False}
        agent = scope.agent
        since = memories_since(scope.session, agent_id=agent.id, since=agent.summary_at)
        if not summary.is_stale(summary_at=agent.summary_at, memories_since=since, now=scope.now):
            return {"summarized": False}
        text = summary.summarize_agent(
            scope.store, scope.mind, persona=scope.persona, now=scope.now
        )
        scope.store.finish()  # memory rows before the agent's row, as enrichment locks them
        save_summary(scope.session, agent_id=agent.id, text=text, at=scope.now)
    return {"summarized": True}
