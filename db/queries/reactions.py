"""React-or-continue decisions, what the step path asks to be decided, and re-plans.

A decision is claimed as `reaction_decisions (agent_id, memory_id)` before the Mind is asked
(`INSERT … ON CONFLICT DO NOTHING`): a redelivered job conflicts and stops; a concurrent one
waits on the unique index, then conflicts. The row starts as "carry on" and is filled in by
the same transaction, so a decision is never seen half-made.

A re-plan (`apply_reaction`) is `cognition.reacting.replan_from` applied to the day outline:
every live item of every level not over at the reaction time is superseded (never deleted,
`superseded_by` = the reaction's row), and the parts of the day items outside the reaction's
span are written again as new day items, with the decision time of what they were made from.
No hour chunk or task is carried over: the new items are decomposed just in time.
"""

from __future__ import annotations

import uuid
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Protocol

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from cognition.frugal import GateFacts, is_sleep
from cognition.offline.text import first_name
from cognition.perception import needs_reaction, subject_key, subject_name
from cognition.reacting import replan_from
from cognition.schedule import outside
from cognition.types import Decision, MemoryKind, NewMemory, PlanItem, PlanLevel
from db.models import Agent, Conversation, Memory, Plan, ReactionDecision
from db.queries.plans import (
    current_leaves,
    live_from,
    lock_tree,
    save_items,
    supersede,
    to_item,
)


def claim(session: Session, *, agent_id: uuid.UUID, memory_id: int, at: datetime) -> int | None:
    """Claim the decision about this memory; None if it was decided already."""
    return session.scalar(
        insert(ReactionDecision)
        .values(
            agent_id=agent_id, memory_id=memory_id, react=False, what="", reason="", decided_at=at
        )
        .on_conflict_do_nothing(
            index_elements=[ReactionDecision.agent_id, ReactionDecision.memory_id]
        )
        .returning(ReactionDecision.id)
    )


def record(session: Session, decision_id: int, decision: Decision, *, asked_mind: bool) -> None:
    """Fill in a claimed decision."""
    session.execute(
        sa.update(ReactionDecision)
        .where(ReactionDecision.id == decision_id)
        .values(
            react=decision.react,
            what=decision.what,
            talk_to=decision.talk_to,
            reason=decision.reason,
            context=decision.context,
            asked_mind=asked_mind,
        )
        .execution_options(synchronize_session=False)
    )


def gate_facts(
    session: Session, *, agent: Agent, memory: Memory, status: str, now: datetime
) -> GateFacts:
    """What `cognition.frugal.reaction_gate` weighs, read for one agent and observation."""
    other = agent_named(session, agent.world_id, subject_name(memory.subject or ""))
    decided = (
        sa.select(sa.func.max(ReactionDecision.decided_at))
        .join(Memory, Memory.id == ReactionDecision.memory_id)
        .where(ReactionDecision.agent_id == agent.id, ReactionDecision.asked_mind)
        .where(Memory.subject == memory.subject, ReactionDecision.memory_id != memory.id)
    )
    return GateFacts(
        subject_is_agent=other is not None,
        importance=memory.importance,
        asleep=is_sleep(status),
        in_conversation=_talking(session, agent.id),
        last_decided_about=session.scalar(decided) if memory.subject else None,
        last_talked_with=_last_talked(session, agent.id, other.id) if other else None,
        last_reacted_at=_last_reacted(session, agent.id),
        subject_reacted_at=_last_reacted(session, other.id) if other else None,
        subject_talking=_talking(session, other.id) if other else False,
        subject_sought_at=_last_sought(session, other, by_others_than=agent.id) if other else None,
    )


def _talking(session: Session, agent_id: uuid.UUID) -> bool:
    """Whether the agent is in an open conversation."""
    involves = sa.or_(
        Conversation.initiator_id == agent_id, Conversation.partner_agent_id == agent_id
    )
    open_one = sa.select(Conversation.id).where(involves, Conversation.status == "open")
    return session.scalar(open_one.limit(1)) is not None


def _last_sought(session: Session, agent: Agent, *, by_others_than: uuid.UUID) -> datetime | None:
    """When another agent of the world last decided to go and talk to `agent`
    (`ix_reaction_decisions_talk_to`)."""
    query = (
        sa.select(sa.func.max(ReactionDecision.decided_at))
        .join(Agent, Agent.id == ReactionDecision.agent_id)
        .where(ReactionDecision.talk_to == agent.name, ReactionDecision.react)
        .where(Agent.world_id == agent.world_id, Agent.id != by_others_than)
    )
    return session.scalar(query)


def _last_reacted(session: Session, agent_id: uuid.UUID) -> datetime | None:
    """When the agent last decided to react (the decision being made is not one yet)."""
    query = sa.select(sa.func.max(ReactionDecision.decided_at))
    return session.scalar(
        query.where(ReactionDecision.agent_id == agent_id, ReactionDecision.react)
    )


def _salience(memory: Observation) -> tuple[int, int]:
    """Importance first; among equals, a choice that differs from step to step (by the
    observation's id, so it is the same on a redelivery): the first of seven diners seen at
    every step would be the only one a host ever considers, and always a busy one."""
    return memory.importance, zlib.crc32(f"{memory.agent_id}|{memory.id}".encode())


def candidates(
    session: Session,
    *,
    world_id: uuid.UUID,
    memories: Sequence[Observation],
    focal: bool = True,
    names: Mapping[uuid.UUID, str] | None = None,
    states_before: Mapping[int, str | None] | None = None,
) -> list[tuple[uuid.UUID, int]]:
    """(agent, memory) pairs the step path asks to be decided: per agent, its most important
    new observation that may call for a reaction (`perception.needs_reaction`) — one focal
    event per step (`focal`, the economy profile) — or every such observation (the paper
    profile). The world's agent `names` and each observation's `states_before` are read here
    unless the caller has them."""
    observations = [m for m in memories if m.kind == "observation"]
    if not observations:
        return []
    if names is None:
        query = sa.select(Agent.id, Agent.name).where(Agent.world_id == world_id)
        names = {agent_id: name for agent_id, name in session.execute(query)}
    before = _states_before(session, observations) if states_before is None else states_before
    by_key = {agent_key(name): name for name in names.values()}
    best: dict[uuid.UUID, Observation] = {}
    every: list[tuple[uuid.UUID, int]] = []
    for memory in observations:
        named = by_key.get(agent_key(memory.subject)) if memory.subject else None
        if not needs_reaction(
            _observed(memory),
            observer=names.get(memory.agent_id, ""),
            agents=[named] if named is not None else [],
            last_seen_state=before.get(memory.id),
        ):
            continue
        every.append((memory.agent_id, memory.id))
        kept = best.get(memory.agent_id)
        if kept is None or _salience(memory) > _salience(kept):
            best[memory.agent_id] = memory
    if not focal:
        return every
    return [(agent_id, memory.id) for agent_id, memory in best.items()]


agent_key = subject_key
"""How perception compares a subject with an agent's name (`needs_reaction`): matching by key
finds the one name perception would match, instead of comparing each observation with every
name."""


class Observation(Protocol):
    """What `candidates` reads of a stored memory (an ORM row or a Core row)."""

    id: int
    agent_id: uuid.UUID
    kind: str
    importance: int
    description: str
    subject: str | None
    predicate: str | None
    object: str | None


@dataclass
class Replanned:
    """The reaction's own plan row, and what the re-plan superseded and wrote."""

    reaction: Plan
    superseded: list[int] = field(default_factory=list)
    added: list[Plan] = field(default_factory=list)


def apply_reaction(
    session: Session, *, agent_id: uuid.UUID, item: PlanItem, decided_at: datetime
) -> Replanned:
    """Put the reaction `item` into the agent's live plan from `item.start` on (module
    docstring), under the agent's plan-tree lock."""
    lock_tree(session, agent_id)
    displaced = live_from(session, agent_id=agent_id, at=item.start)
    days = [row for row in displaced if row.level == PlanLevel.DAY.value]
    replan = replan_from([to_item(row) for row in days], at=item.start, reaction_item=item)
    [reaction] = save_items(
        session,
        agent_id=agent_id,
        items=[replan.reaction],
        level=PlanLevel.DAY,
        decided_at=decided_at,
    )
    replanned = Replanned(reaction=reaction, superseded=[row.id for row in displaced])
    for row, parts in zip(days, replan.rewritten, strict=True):
        replanned.added += save_items(
            session,
            agent_id=agent_id,
            items=parts,
            level=PlanLevel.DAY,
            decided_at=row.decided_at,
            stand_in=row.stand_in,  # still the model's to replace
        )
    supersede(session, plan_ids=replanned.superseded, replacement_id=reaction.id)
    return replanned


def _observed(row: Observation) -> NewMemory:
    """The fields perception's rules read, as a domain value."""
    return NewMemory(
        description=row.description,
        kind=MemoryKind(row.kind),
        subject=row.subject,
        predicate=row.predicate,
        object=row.object,
    )


def _states_before(session: Session, observations: Sequence[Observation]) -> dict[int, str | None]:
    """For each observation, the state its observer last saw the same subject in before it."""
    with_subject = [m for m in observations if m.subject]
    if not with_subject:
        return {}
    given = sa.values(
        sa.column("mid", sa.BigInteger),
        sa.column("aid", sa.Uuid),
        sa.column("subj", sa.Text),
        name="given",
    ).data([(m.id, m.agent_id, m.subject) for m in with_subject])
    earlier = (
        sa.select(Memory.object)
        .where(Memory.agent_id == given.c.aid, Memory.subject == given.c.subj)
        .where(Memory.kind == "observation", Memory.id < given.c.mid)
        .order_by(Memory.created_at.desc(), Memory.id.desc())
        .limit(1)
        .scalar_subquery()
    )
    return {mid: state for mid, state in session.execute(sa.select(given.c.mid, earlier))}


def agent_named(session: Session, world_id: uuid.UUID, name: str) -> Agent | None:
    """The world's agent called `name` (exactly, else by a unique case-insensitive match of
    the full or first name, as a model may shorten a name)."""
    if not name.strip():
        return None
    in_world = Agent.world_id == world_id
    exact = session.scalar(sa.select(Agent).where(in_world, Agent.name == name.strip()))
    if exact is not None:
        return exact  # names are unique in a world: one index probe
    key = name.strip().casefold()
    names = session.execute(sa.select(Agent.id, Agent.name).where(in_world))
    loose = [i for i, n in names if key in (n.casefold(), first_name(n).casefold())]
    return session.get(Agent, loose[0]) if len(loose) == 1 else None


def _last_talked(session: Session, agent_id: uuid.UUID, other_id: uuid.UUID) -> datetime | None:
    pair = sa.or_(
        sa.and_(Conversation.initiator_id == agent_id, Conversation.partner_agent_id == other_id),
        sa.and_(Conversation.initiator_id == other_id, Conversation.partner_agent_id == agent_id),
    )
    when = sa.func.max(sa.func.coalesce(Conversation.ended_at, Conversation.started_at))
    return session.scalar(sa.select(when).where(pair))


def resize_span(
    session: Session, *, agent_id: uuid.UUID, start: datetime, end: datetime, new_end: datetime
) -> int:
    """Re-flow the plan for a span [start, end) that really lasted until `new_end` (a
    conversation planned as a reaction's 15 minutes that took 6): at every level, what the span
    held is cut (or stretched) to `new_end`, and what began at `end` now begins at `new_end`
    — the agent resumes as soon as it is free. Rows left with no time are superseded. Returns
    how many rows changed. Under the agent's plan-tree lock."""
    if new_end == end:
        return 0
    lock_tree(session, agent_id)
    rows = live_from(session, agent_id=agent_id, at=start)
    changed = 0
    dropped: list[int] = []
    for row in rows:
        row_end = row.end
        if start <= row.start and row_end == end:
            if new_end <= row.start:
                dropped.append(row.id)
                continue
            row.duration_min = _minutes(new_end - row.start)
        elif start <= row.start < end and new_end <= row.start:
            dropped.append(row.id)
            continue
        elif start <= row.start < new_end < row_end <= end:
            row.duration_min = _minutes(new_end - row.start)
        elif row.start == end:
            if row_end <= new_end:
                dropped.append(row.id)
                continue
            row.start, row.duration_min = new_end, _minutes(row_end - new_end)
        else:
            continue
        changed += 1
    if dropped:
        supersede(session, plan_ids=dropped, replacement_id=None)
    session.flush()
    return changed + len(dropped)


def _minutes(span: timedelta) -> int:
    return max(1, round(span.total_seconds() / 60))


def splice_task(
    session: Session, *, agent_id: uuid.UUID, item: PlanItem, decided_at: datetime
) -> Plan | None:
    """Put `item` into the agent's plan as a task of the hour chunk under way, the rest of the
    plan unchanged (no re-decomposition): the tasks it overlaps are superseded and their parts
    outside it written again. The item is cut to the chunk's end. None — and nothing changed
    — when no hour chunk covers its start (the caller re-plans instead). Under the plan-tree
    lock. The economy profile interrupts a listener this way; a re-plan would throw away the
    rest of its day's steps and ask for them again."""
    lock_tree(session, agent_id)
    under_way = current_leaves(item.start, Plan.agent_id == agent_id, Plan.level == "hour")
    hour = session.scalars(under_way).first()  # the current-action rule, at the hour level
    if hour is None:
        return None
    end = min(item.end, hour.end)
    span = replace(item, duration_min=_minutes(end - item.start))
    tasks = [
        row
        for row in live_from(session, agent_id=agent_id, at=item.start)
        if row.level == PlanLevel.TASK.value and row.parent_id == hour.id and row.start < end
    ]
    parts = [p for row in tasks for p in outside(to_item(row), start=span.start, end=end)]
    [spliced] = save_items(
        session,
        agent_id=agent_id,
        items=[span],
        level=PlanLevel.TASK,
        parent_id=hour.id,
        decided_at=decided_at,
    )
    save_items(
        session,
        agent_id=agent_id,
        items=parts,
        level=PlanLevel.TASK,
        parent_id=hour.id,
        decided_at=decided_at,
    )
    supersede(session, plan_ids=[row.id for row in tasks], replacement_id=spliced.id)
    return spliced
