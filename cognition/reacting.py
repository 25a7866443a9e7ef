"""The paper's react-or-continue (§4.3.1), and the plan arithmetic of a re-plan.

For each observation that may call for a reaction, the agent's context is two retrievals, as
in the paper:

1. "What is [observer]'s relationship with [observed entity]?" — the retrieved statements are
   summarised by `mind.relationship` (the paper asks a model to summarise them too);
2. "[observed entity] is [status]" — the observation itself, which perception words that way
   (`perception.observation_text`); its retrieved statements are listed as they are, one per
   line, so the Mind sees what the agent remembers about that very situation;
3. (for a person) the last few lines the two said to each other (`exchanged_query`), so an
   invitation already made and answered is not made again at the next meeting;
4. (for a person) the news the observer could tell (`NEWS_QUERY`), so an organiser invites and
   someone who heard of the cracked bridge passes it on whatever the observation is about.

The context (summary, then statements) goes to `mind.react`; the `Decision` keeps it next to
the reason, so a game or an analyst can show why an agent did what it did.

Re-planning (`replan_from`): the paper regenerates the plan from the time of the reaction
on. Here the reaction supersedes the plan from the reaction time `at` onward (never deleting
it), and the rest of the day is written again around it without a model call:
  - items over by `at` are kept: they are what the agent did;
  - every item not over by `at` is superseded and written again as new items outside the
    reaction's span [at, until): the interrupted item's part before `at` (so the past stays
    truthful), its remainder from `until` (the agent resumes it), and each later item as it
    was — a 5 pm party stays at 5 pm. A later item the reaction runs into is cut to start at
    `until` (its end stays fixed, so nothing after it moves); one wholly inside the span is
    dropped;
  - the reaction is added at `at`.
Superseding everything from `at`, rather than only what the reaction overlaps, keeps one
record of what the reaction changed (each displaced row points at it) and lets the rest be
decomposed again just in time for the new situation (`schedule.window_to_decompose`; the
reaction at once) instead of carrying old steps over. The function works on the day outline;
the store supersedes every level under it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from cognition.errors import InvalidInput
from cognition.mind import Mind
from cognition.requests import React, SummarizeRelationship
from cognition.schedule import outside
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


def exchanged_query(name: str, other: str) -> str:
    """What recalls the lines two agents said to each other, worded as those memories are."""
    return f"{name} said to {other}"


NEWS_QUERY = "news, plans and upcoming events {name} could tell someone about"
"""What a speaker might bring up: without it an agent recalls only what is in front of it,
and never mentions the party it heard of this morning."""
DEFAULT_NEWS_K = 3
"""News recalled before deciding whether to go and talk to someone."""
DEFAULT_EXCHANGED_K = 3
"""Lines recalled of what the two last said to each other: enough to know an invitation was
made and answered, so it is not made again at every meeting."""


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
    person: bool = True,
    observed_person: str | None = None,
    on_mind: Sequence[str] = (),
) -> Decision:
    """React or carry on, with the context and the reason (see the module docstring).
    `observed_person`: the agent the observation is of, when known to be one. `on_mind`: its
    memories of gatherings soon and news heard lately, added to what the observation recalls
    (a host at lunch invites whom it sees, whatever "eating" recalls)."""
    statements = reaction_context(
        store,
        mind,
        name=persona.name,
        observation=observation,
        observed_entity=observed_entity,
        now=now,
        k=k,
        person=person,
    )
    if person:
        statements = list(dict.fromkeys([*statements, *on_mind]))
    context = "\n".join(statements)
    reaction = mind.think(
        React(
            persona=persona,
            summary=summary,
            status=status,
            observation=observation,
            context=context,
            now=now,
            recalled=statements,
            observed_person=observed_person,
        )
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
    person: bool = True,
) -> list[str]:
    """The relationship summary (for a person), then the statements retrieved for the
    observation (memories carrying their detail), each once."""
    if not person:  # a relationship is with a person, never with a stove
        return list(dict.fromkeys(_statements(store, observation, k=k, now=now)))
    about = _statements(store, relationship_question(name, observed_entity), k=k, now=now)
    relation = mind.think(SummarizeRelationship(name=name, other=observed_entity, statements=about))
    situation = _statements(store, observation, k=k, now=now)
    exchanged = _statements(
        store, exchanged_query(name, observed_entity), k=DEFAULT_EXCHANGED_K, now=now
    )
    news = _statements(store, NEWS_QUERY.format(name=name), k=DEFAULT_NEWS_K, now=now)
    return list(dict.fromkeys([relation.summary.strip(), *situation, *exchanged, *news]))


def reaction_item(
    decision: Decision,
    *,
    at: datetime,
    duration_min: int = DEFAULT_REACTION_MINUTES,
    location: str | None = None,
) -> PlanItem:
    """The plan item a decision to react puts into the plan at `at` (to the minute)."""
    if not decision.react:
        raise InvalidInput("a decision to carry on has no plan item", field="decision")
    return PlanItem(
        start=at.replace(second=0, microsecond=0),
        duration_min=duration_min,
        description=decision.what,
        location=location,
    )


def replan_from(day_items: Sequence[PlanItem], *, at: datetime, reaction_item: PlanItem) -> Replan:
    """Insert the reaction at `at` and plan the rest of the day again (module docstring).

    `at` is taken to the minute, the plan's unit, so no part is left seconds apart.
    """
    reaction = replace(reaction_item, start=at.replace(second=0, microsecond=0))
    until = reaction.end
    ordered = sorted(day_items, key=lambda i: i.start)
    superseded = tuple(i for i in ordered if i.end > reaction.start)
    return Replan(
        kept=tuple(i for i in ordered if i.end <= reaction.start),
        superseded=superseded,
        reaction=reaction,
        rewritten=tuple(tuple(outside(i, start=reaction.start, end=until)) for i in superseded),
    )


def _who(talk_to: str | None) -> str | None:
    """A name to talk to, or None when the Mind gave none (or only blanks)."""
    return (talk_to or "").strip() or None


def _statements(store: MemoryStore, query: str, *, k: int, now: datetime) -> list[str]:
    return [scored.memory.recalled() for scored in store.retrieve(query, k=k, now=now)]
