"""React to an observation, or carry on with the plan.

The decision about (agent, memory) is claimed before the Mind is asked and recorded with its
reason and context, so a game can show why. Observations whose answer is already known are
settled without the Mind (`cognition.frugal.reaction_gate`), and recorded as such. A reaction
re-plans (`db.queries.reactions.apply_reaction`) and asks for the reaction's decomposition at
once (the rest of the day is decomposed as the sweep's just-in-time window reaches it); a
reaction to talk to another agent of the world opens a conversation.
"""

from __future__ import annotations

import uuid

from sqlalchemy.orm import Session

from cognition import reacting
from cognition.frugal import KnownRelationships, reaction_gate
from cognition.perception import subject_name
from cognition.places import SEPARATOR
from cognition.summary import DEFAULT_MAX_AGE_HOURS, HOUR
from cognition.types import Decision
from db import jobs
from db.flows.agent_scope import AgentScope, Outcome, agent_scope
from db.flows.faculties import Faculties
from db.jobs import Job
from db.models import Memory
from db.queries import reactions
from db.queries.due import due_for_agent
from db.queries.memory_rows import on_mind
from db.queries.plans import current_action
from db.queries.relationships import recent_views, set_relationship

RELATIONSHIP_FRESHNESS = DEFAULT_MAX_AGE_HOURS * HOUR
"""A view of someone formed within a game day stands in for asking the Mind again."""


def decide_reaction(
    session: Session, faculties: Faculties, *, agent_id: uuid.UUID, memory_id: int
) -> Outcome:
    """Decide once whether the agent reacts to memory `memory_id` (an observation)."""
    with agent_scope(session, faculties, agent_id) as scope:
        if scope is None:
            return Outcome({"decided": False})
        memory = session.get(Memory, memory_id)
        if memory is None or memory.agent_id != agent_id:
            return Outcome({"decided": False})
        claimed = reactions.claim(session, agent_id=agent_id, memory_id=memory_id, at=scope.now)
        if claimed is None:
            return Outcome({"decided": False})  # decided already (a redelivery)
        current = current_action(session, agent_id=agent_id, at=scope.now)
        status = current.description if current is not None else ""
        facts = reactions.gate_facts(
            session, agent=scope.agent, memory=memory, status=status, now=scope.now
        )
        skip = None if scope.paper else reaction_gate(facts, now=scope.now)
        decision = _decide(scope, memory, status) if skip is None else _carry_on(skip)
        reactions.record(session, claimed, decision, asked_mind=skip is None)
        plan_id = _replan(scope, decision) if decision.react else None
        follow_ups = _follow_ups(scope, claimed, decision, plan_id)
        scope.store.finish()
        _announce(scope, memory_id, decision, plan_id)
    report = {"decided": True, "react": decision.react, "asked_mind": skip is None}
    return Outcome(report, follow_ups)


def _decide(scope: AgentScope, memory: Memory, status: str) -> Decision:
    """The paper's decision, with relationships the agent already holds taken as known."""
    known = recent_views(
        scope.session, agent_id=scope.agent.id, since=scope.now - RELATIONSHIP_FRESHNESS
    )
    mind = KnownRelationships(scope.mind, {} if scope.paper else known)
    subject = memory.subject or ""
    of_agent = subject and SEPARATOR not in subject  # a path is an object, never an agent
    seen = reactions.agent_named(scope.session, scope.agent.world_id, subject) if of_agent else None
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
        observed_person=(seen.name if seen is not None else "") if subject else None,
        on_mind=on_mind(scope.session, scope.agent.id, scope.now),
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
            keep_existing=view.evidence == 0,
        )
    return decision


def _announce(scope: AgentScope, memory_id: int, decision: Decision, plan_id: int | None) -> None:
    """The decision as a `reaction` event (emitted as the scope closes)."""
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
    scope.announce("reaction", payload)


def _carry_on(reason: str) -> Decision:
    return Decision(react=False, what="", talk_to=None, reason=reason, context="")


def _replan(scope: AgentScope, decision: Decision) -> int:
    item = reacting.reaction_item(decision, at=scope.now, location=scope.agent.place)
    replanned = reactions.apply_reaction(
        scope.session, agent_id=scope.agent.id, item=item, decided_at=scope.now
    )
    return replanned.reaction.id


def _follow_ups(
    scope: AgentScope, decision_id: int, decision: Decision, plan_id: int | None
) -> tuple[Job, ...]:
    """The reaction's own decomposition, due now (the rest waits for the sweep's window), and
    the conversation it opens with another agent of the world."""
    agent = scope.agent
    due = due_for_agent(scope.session, agent, now=scope.now) if plan_id is not None else []
    follow_ups = [jobs.decompose(agent.id, p, level) for p, level in due if p == plan_id]
    partner = reactions.agent_named(scope.session, agent.world_id, decision.talk_to or "")
    if partner is not None and partner.id != agent.id:
        follow_ups.append(
            jobs.converse(
                world_id=scope.world.id,
                initiator_id=agent.id,
                partner_id=partner.id,
                intent=decision.what,
                decision_id=decision_id,
            )
        )
    return tuple(follow_ups)
