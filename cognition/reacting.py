"""The paper's react-or-continue (§4.3.1), and the plan arithmetic of a re-plan.

For each observation that may call for a reaction, the agent's context is two retrievals, as
in the paper:

1. "What is [observer]'s relationship with [observed entity]?" — the retrieved statements are
   summarised by `mind.relationship` (the paper asks a model to summarise them too);
2. "[observed entity] is [status]" — the observation itself, which perception words that way
   (`perception.observation_text`); its retrieved statements are listed as they are, one per
   line, so the Mind sees what the agent remembers about that very situation.

The context (summary, then statements) goes to `mind.react`; the `Decision` keeps it next to
the reason, so a game or an analyst can show why an agent did what it did.

Re-planning (`replan_from`) inserts the reaction at time `at` and re-flows the day:
  - items over by `at`, and items starting when the reaction is over, are kept as they are:
    fixed-time commitments (a party at 5pm) keep their time, and their hour and task
    decompositions stay valid;
  - items overlapping the reaction's span [at, at + its duration) are superseded (returned,
    never deleted); the part of such an item before `at` is re-added as it was (what the
    agent did), the part after the reaction is re-added so the agent resumes it;
  - the reaction is added at `at`.
The function works on any one level of the plan (day items, hour chunks or tasks).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from cognition.errors import InvalidInput
from cognition.mind import Mind
from cognition.schedule import ends_at, whole_minutes
from cognition.store import MemoryStore
from cognition.types import Decision, Persona, PlanItem, Replan

DEFAULT_CONTEXT_K = 10
"""Memories per context retrieval: reactions run on the fast queue, so the prompt stays small."""
DEFAULT_REACTION_MINUTES = 15
"""A reaction is one action, the length of the paper's longest task; a conversation's real
length can replace it once the conversation is over."""


def relationship_question(name: str, other: str) -> str:
    """The paper's query for what an agent knows of someone: shared by reacting and dialogue."""
    return f"What is {name}'s relationship with {other}?"


def decide(
    store: MemoryStore,
    mind: Mind,
    *,
    persona: Persona,
    summary: str,
    status: str,
    observation: str,
    observed_entity: str,
    now: datetime,
    k: int = DEFAULT_CONTEXT_K,
) -> Decision:
    """React or carry on, with the context and the reason (see the module docstring)."""
    context = reaction_context(
        store,
        mind,
        name=persona.name,
        observation=observation,
        observed_entity=observed_entity,
        now=now,
        k=k,
    )
    reaction = mind.react(
        persona=persona,
        summary=summary,
        status=status,
        observation=observation,
        context=context,
        now=now,
    )
    return Decision(
        react=reaction.react,
        what=reaction.what.strip() if reaction.react else "",
        talk_to=_who(reaction.talk_to) if reaction.react else None,
        reason=reaction.reason.strip(),
        context=context,
    )


def reaction_context(
    store: MemoryStore,
    mind: Mind,
    *,
    name: str,
    observation: str,
    observed_entity: str,
    now: datetime,
    k: int = DEFAULT_CONTEXT_K,
) -> str:
    """The relationship summary, then the statements retrieved for the observation."""
    about = _statements(store, relationship_question(name, observed_entity), k=k, now=now)
    relation = mind.relationship(name=name, other=observed_entity, statements=about)
    situation = _statements(store, observation, k=k, now=now)
    return "\n".join([relation.summary.strip(), *situation])


def reaction_item(
    decision: Decision,
    *,
    at: datetime,
    duration_min: int = DEFAULT_REACTION_MINUTES,
    location: str | None = None,
) -> PlanItem:
    """The plan item a decision to react puts into the plan at `at`."""
    if not decision.react:
        raise InvalidInput("a decision to carry on has no plan item", field="decision")
    return PlanItem(
        start=at, duration_min=duration_min, description=decision.what, location=location
    )


def replan_from(day_items: Sequence[PlanItem], *, at: datetime, reaction_item: PlanItem) -> Replan:
    """Insert the reaction at `at` and re-flow the plan (rules in the module docstring).

    `at` is taken to the minute, the plan's unit, so no part is left seconds apart.
    """
    at = at.replace(second=0, microsecond=0)
    reaction = replace(reaction_item, start=at)
    until = ends_at(reaction)
    kept: list[PlanItem] = []
    superseded: list[PlanItem] = []
    added: list[PlanItem] = [reaction]
    for item in sorted(day_items, key=lambda i: i.start):
        if ends_at(item) <= at or item.start >= until:
            kept.append(item)
            continue
        superseded.append(item)
        added += _outside(item, at=at, until=until)
    return Replan(
        kept=tuple(kept),
        superseded=tuple(superseded),
        added=tuple(sorted(added, key=lambda i: i.start)),
    )


def _outside(item: PlanItem, *, at: datetime, until: datetime) -> list[PlanItem]:
    """The parts of an item before `at` and after `until`, whichever exist."""
    parts: list[PlanItem] = []
    if item.start < at:
        parts.append(replace(item, duration_min=whole_minutes(at - item.start)))
    if ends_at(item) > until:
        parts.append(replace(item, start=until, duration_min=whole_minutes(ends_at(item) - until)))
    return parts


def _who(talk_to: str | None) -> str | None:
    """A name to talk to, or None when the Mind gave none (or only blanks)."""
    return (talk_to or "").strip() or None


def _statements(store: MemoryStore, query: str, *, k: int, now: datetime) -> list[str]:
    return [scored.memory.description for scored in store.retrieve(query, k=k, now=now)]
