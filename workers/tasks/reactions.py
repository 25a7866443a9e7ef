"""`hearth.decide_reaction` (fast queue): react to an observation, or carry on with the plan.

The decision about (agent, memory) is claimed before the Mind is asked and recorded with its
reason and context, so a game can show why. Observations whose answer is already known are
settled without the Mind (`cognition.frugal.reaction_gate`), and recorded as such. A reaction
re-plans (`db.queries.reactions.apply_reaction`) and asks for the reaction's decomposition at
once (the rest of the day is decomposed as the sweep's just-in-time window reaches it); a
reaction to talk to another agent of the world opens a conversation.
"""

from __future__ import annotations

from celery import shared_task

from cognition import reacting
from cognition.frugal import KnownRelationships, reaction_gate
from cognition.perception import subject_name
from cognition.places import SEPARATOR
from cognition.summary import DEFAULT_MAX_AGE_HOURS, HOUR
from cognition.types import Decision, Granularity
from db import jobs
from db.models import Memory
from db.queries import reactions
from db.queries.due import due_for_agent
from db.queries.events import emit
from db.queries.plans import current_action
from db.queries.relationships import recent_views, set_relationship
from workers.dispatch import send_all
from workers.runtime import get_runtime
from workers.tasks.base import RETRY_POLICY
from workers.tasks.scope import AgentScope, agent_scope

RELATIONSHIP_FRESHNESS = DEFAULT_MAX_AGE_HOURS * HOUR
"""A view of someone formed within a game day stands in for asking the Mind again."""


@shared_task(name=jobs.DECIDE_REACTIONS.name, **RETRY_POLICY)
def decide_reactions(pairs: list[tuple[str, int]]) -> int:
    """A step's decisions, sent by the API as one message (a message per decision would put
    dozens of broker round trips on the game's hot path): one `hearth.decide_reaction` job
    each, under its key. Returns how many were sent."""
    dispatch = get_runtime().dispatch
    return send_all(dispatch, (jobs.decide_reaction(agent, memory) for agent, memory in pairs))


@shared_task(name=jobs.DECIDE_REACTION.name, **RETRY_POLICY)
def decide_reaction(agent_id: str, memory_id: int) -> dict[str, object]:
    """Decide once whether the agent reacts to memory `memory_id` (an observation)."""
    with agent_scope(agent_id) as scope:
        if scope is None:
            return {"decided": False}
        session, agent = scope.session, scope.agent
        memory = session.get(Memory, memory_id)
        if memory is None or memory.agent_id != agent.id:
            return {"decided": False}
        claimed = reactions.claim(session, agent_id=agent.id, memory_id=memory_id, at=scope.now)
        if claimed is None:
            return {"decided": False}  # decided already (a redelivery)
        current = current_action(session, agent_id=agent.id, at=scope.now)
        status = current.description if current is not None else ""
        facts = reactions.gate_facts(
            session, agent=agent, memory=memory, status=status, now=scope.now
        )
        skip = None if scope.runtime.settings.paper else reaction_gate(facts, now=scope.now)
        decision = _decide(scope, memory, status) if skip is None else _carry_on(skip)
        reactions.record(session, claimed, decision, asked_mind=skip is None)
        plan_id = _replan(scope, decision) if decision.react else None
        partner = reactions.agent_named(session, agent.world_id, decision.talk_to or "")
        due = _reaction_steps(scope, plan_id) if plan_id is not None else []
        scope.store.finish()
        _announce(scope, memory_id, decision, plan_id)
    _follow_up(scope, claimed, decision, partner.id if partner is not None else None, due)
    return {"decided": True, "react": decision.react, "asked_mind": skip is None}


def _decide(scope: AgentScope, memory: Memory, status: str) -> Decision:
    """The paper's decision, with relationships the agent already holds taken as known."""
    known = recent_views(
        scope.session, agent_id=scope.agent.id, since=scope.now - RELATIONSHIP_FRESHNESS
    )
    mind = KnownRelationships(scope.mind, {} if scope.runtime.settings.paper else known)
    decision = reacting.decide(
        scope.store,
        mind,
        persona=scope.persona,
        summary=scope.summary,
        status=status,
        observation=memory.description,
        now=scope.now,
        observed_entity=subject_name(memory.subject or "") or memory.description,
        person=SEPARATOR not in (memory.subject or ""),
    )
    for other, view in mind.learned.items():
        other_agent = reactions.agent_named(scope.session, scope.agent.world_id, other)
        set_relationship(
            scope.session,
            agent_id=scope.agent.id,
            other_name=other,
            other_agent_id=other_agent.id if other_agent else None,
            summary=view.summary,
            sentiment=view.sentiment,
            at=scope.now,
        )
    return decision


def _announce(scope: AgentScope, memory_id: int, decision: Decision, plan_id: int | None) -> None:
    """The decision as a `reaction` event (last, just before the commit)."""
    payload = {
        "agent_id": str(scope.agent.id),
        "name": scope.agent.name,
        "memory_id": memory_id,
        "react": decision.react,
        "what": decision.what,
        "talk_to": decision.talk_to,
        "reason": decision.reason,
        "plan_id": plan_id,
    }
    emit(scope.session, world_id=scope.world.id, type="reaction", payload=payload)


def _carry_on(reason: str) -> Decision:
    return Decision(react=False, what="", talk_to=None, reason=reason, context="")


def _replan(scope: AgentScope, decision: Decision) -> int:
    item = reacting.reaction_item(decision, at=scope.now, location=scope.agent.place)
    replanned = reactions.apply_reaction(
        scope.session, agent_id=scope.agent.id, item=item, decided_at=scope.now
    )
    return replanned.reaction.id


def _reaction_steps(scope: AgentScope, plan_id: int) -> list[tuple[int, Granularity]]:
    """The reaction's own decomposition, due now (the rest waits for the sweep's window)."""
    return [d for d in due_for_agent(scope.session, scope.agent, now=scope.now) if d[0] == plan_id]


def _follow_up(
    scope: AgentScope,
    decision_id: int,
    decision: Decision,
    partner_id: object,
    due: list[tuple[int, Granularity]],
) -> None:
    """After the commit: decompose the reaction now, and open the conversation."""
    agent_id, dispatch = str(scope.agent.id), scope.runtime.dispatch
    send_all(dispatch, (jobs.decompose(agent_id, plan_id, level) for plan_id, level in due))
    if partner_id is not None and str(partner_id) != agent_id:
        dispatch.send(
            jobs.converse(
                world_id=scope.world.id,
                initiator_id=agent_id,
                partner_id=str(partner_id),
                intent=decision.what,
                decision_id=decision_id,
            )
        )
