"""React-or-continue decisions, what the step path asks to be decided, and re-plans.

A decision is claimed as `reaction_decisions (agent_id, memory_id)` before the Mind is asked
(`INSERT … ON CONFLICT DO NOTHING`): a redelivered job conflicts and stops; a concurrent one
waits on the unique index, then conflicts. The row starts as "carry on" and is filled in by
the same transaction, so a decision is never seen half-made.

A re-plan (`apply_reaction`) is the plan arithmetic of `cognition.reacting.replan_from` applied
to every level of the tree: each live item overlapping the reaction's span is superseded
(never deleted, `superseded_by` = the reaction's row) and its parts before and after the span
are written again at the same level; each of its children is carried to the part it falls in
— copied when it lies wholly before or after the span, cut the same way when it overlaps.
Decompositions outside the span survive as copies, so a re-plan wastes no model call.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from cognition.frugal import GateFacts, is_sleep
from cognition.perception import needs_reaction, subject_name
from cognition.reacting import replan_from
from cognition.schedule import ends_at
from cognition.types import Decision, MemoryKind, NewMemory, PlanItem, PlanLevel
from db.models import Agent, Conversation, Memory, Plan, ReactionDecision
from db.queries.plans import end_of, live_plans, lock_tree, save_items, to_item


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
    involves = sa.or_(
        Conversation.initiator_id == agent.id, Conversation.partner_agent_id == agent.id
    )
    talking = sa.select(Conversation.id).where(involves, Conversation.status == "open")
    return GateFacts(
        subject_is_agent=other is not None,
        importance=memory.importance,
        asleep=is_sleep(status),
        in_conversation=session.scalar(talking.limit(1)) is not None,
        last_decided_about=session.scalar(decided) if memory.subject else None,
        last_talked_with=_last_talked(session, agent.id, other.id) if other else None,
    )


def candidates(
    session: Session, *, world_id: uuid.UUID, memories: Sequence[Memory]
) -> list[tuple[uuid.UUID, int]]:
    """(agent, memory) pairs the step path asks to be decided: per agent, its most important
    new observation that may call for a reaction (`perception.needs_reaction`) — the paper's
    agents attend to one focal event per step. Three queries for any batch."""
    observations = [m for m in memories if m.kind == "observation"]
    if not observations:
        return []
    query = sa.select(Agent.id, Agent.name).where(Agent.world_id == world_id)
    names: dict[uuid.UUID, str] = {agent_id: name for agent_id, name in session.execute(query)}
    before = _states_before(session, observations)
    best: dict[uuid.UUID, Memory] = {}
    for memory in observations:
        if not needs_reaction(
            _observed(memory),
            observer=names.get(memory.agent_id, ""),
            agents=names.values(),
            last_seen_state=before.get(memory.id),
        ):
            continue
        kept = best.get(memory.agent_id)
        if kept is None or (memory.importance, -memory.id) > (kept.importance, -kept.id):
            best[memory.agent_id] = memory
    return [(agent_id, memory.id) for agent_id, memory in best.items()]


@dataclass
class Replanned:
    """The reaction's own plan row, and what the re-plan superseded and wrote."""

    reaction: Plan
    superseded: list[int] = field(default_factory=list)
    added: list[Plan] = field(default_factory=list)


def apply_reaction(
    session: Session, *, agent_id: uuid.UUID, item: PlanItem, decided_at: datetime
) -> Replanned:
    """Put the reaction `item` into the agent's live plan at `item.start` (module docstring)."""
    lock_tree(session, agent_id)
    at = item.start.replace(second=0, microsecond=0)
    reaction = replace(item, start=at)
    overlapping = [
        p
        for p in live_plans(session, agent_id=agent_id, start=at, end=ends_at(reaction))
        if p.level == "day"
    ]
    [row] = save_items(
        session, agent_id=agent_id, items=[reaction], level=PlanLevel.DAY, decided_at=decided_at
    )
    cut = _Cut(session, reaction=reaction, replanned=Replanned(reaction=row), decided_at=decided_at)
    for day_item in overlapping:
        cut.cut(day_item, (None, None))
    return cut.replanned


@dataclass
class _Cut:
    session: Session
    reaction: PlanItem
    replanned: Replanned
    decided_at: datetime

    def cut(self, row: Plan, parents: tuple[int | None, int | None]) -> None:
        """Supersede `row`; re-add its parts outside the span; carry its children over."""
        parts = replan_from(
            [to_item(row)], at=self.reaction.start, reaction_item=self.reaction
        ).added
        before = [p for p in parts if p.start < self.reaction.start]
        after = [p for p in parts if p.start >= ends_at(self.reaction)]
        new_before = self._write(before, row.level, parents[0])
        new_after = self._write(after, row.level, parents[1])
        self._supersede(row)
        for child in self._children(row):
            if end_of(child) <= self.reaction.start and new_before is not None:
                self._copy(child, new_before)
            elif child.start >= ends_at(self.reaction) and new_after is not None:
                self._copy(child, new_after)
            else:
                self.cut(child, (new_before, new_after))

    def _copy(self, row: Plan, parent_id: int) -> None:
        copy = self._write([to_item(row)], row.level, parent_id, decided_at=row.decided_at)
        self._supersede(row)
        for child in self._children(row):
            if copy is not None:
                self._copy(child, copy)

    def _write(
        self,
        items: Sequence[PlanItem],
        level: str,
        parent_id: int | None,
        decided_at: datetime | None = None,
    ) -> int | None:
        rows = save_items(
            self.session,
            agent_id=self.replanned.reaction.agent_id,
            items=items,
            level=PlanLevel(level),
            parent_id=parent_id,
            decided_at=decided_at or self.decided_at,
        )
        self.replanned.added += rows
        return rows[0].id if rows else None

    def _supersede(self, row: Plan) -> None:
        row.status, row.superseded_by = "superseded", self.replanned.reaction.id
        self.replanned.superseded.append(row.id)
        self.session.flush()

    def _children(self, row: Plan) -> list[Plan]:
        query = sa.select(Plan).where(Plan.parent_id == row.id, Plan.status != "superseded")
        return list(self.session.scalars(query.order_by(Plan.start, Plan.id)))


def _observed(row: Memory) -> NewMemory:
    """The fields perception's rules read, as a domain value."""
    return NewMemory(
        description=row.description,
        kind=MemoryKind(row.kind),
        subject=row.subject,
        predicate=row.predicate,
        object=row.object,
    )


def _states_before(session: Session, observations: Sequence[Memory]) -> dict[int, str | None]:
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
    agents = list(session.scalars(sa.select(Agent).where(Agent.world_id == world_id)))
    exact = [a for a in agents if a.name == name.strip()]
    if exact:
        return exact[0]
    key = name.strip().casefold()
    loose = [a for a in agents if key in (a.name.casefold(), a.name.split()[0].casefold())]
    return loose[0] if len(loose) == 1 else None


def _last_talked(session: Session, agent_id: uuid.UUID, other_id: uuid.UUID) -> datetime | None:
    pair = sa.or_(
        sa.and_(Conversation.initiator_id == agent_id, Conversation.partner_agent_id == other_id),
        sa.and_(Conversation.initiator_id == other_id, Conversation.partner_agent_id == agent_id),
    )
    when = sa.func.max(sa.func.coalesce(Conversation.ended_at, Conversation.started_at))
    return session.scalar(sa.select(when).where(pair))
