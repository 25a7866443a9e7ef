"""Sparing model calls: what a town can skip asking a language model, and why it loses nothing.

The paper's reference implementation spends about 1,300 model calls per agent per game day,
most of them on small questions asked once per 5–15 minute action (which place, which emoji,
what state the object takes) and on re-deriving facts it already knew. The loops here ask the
Mind the same questions; these rules decide which Mind answers, or answer from what is known:

- `FrugalMind` answers the *cheap operations* (`choose_location`, `emoji`, `object_state`:
  word-level lookups the heuristics do as well as a model) with the offline mind, and
  decomposes an item that already fits one step of the next level as itself (a 15-minute
  reaction is its own task; a 45-minute meal its own hour chunk) — no model is asked.
- `KnownRelationships` answers "what is A's relationship with B" from the relationship the
  agent already holds (made after their last conversation, or by an earlier reaction), so a
  reaction asks the model only whether to react.
- `needs_detail`: sleep is not decomposed; the day item is the action all night.
- `worth_noting`: the notes of a conversation are asked of the model only when the talk names
  a time, a day, an event, an invitation or an election (small talk leaves nothing to plan);
  `currently` is revised by the model only when a planning note is among what the agent
  recalled for the day (otherwise the cheap mind keeps the standing description).
- `reaction_gate`: a routine observation is not put to the Mind when the answer is already
  known — the agent considered the same subject within the last hours, reacted within the last
  half hour (a reaction supersedes the rest of the plan: one on top of another throws away
  what the first just had decomposed), sees someone busy with a reaction of their own, is in a
  conversation, talked with that person lately, or is asleep (objects still wake a sleeper). A
  notable one (importance 6 or more: a fire, someone crying) is always considered.

Every rule is a pure function of its inputs; the workers pass in what the database knows.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar, cast

from cognition.clamps import STEP_BOUNDS
from cognition.mind import AuditSink, Mind
from cognition.reacting import DEFAULT_REACTION_MINUTES
from cognition.requests import (
    ConversationNotes,
    Decompose,
    Request,
    ReviseCurrently,
    SummarizeRelationship,
)
from cognition.types import Granularity, PlanItem, RelationshipUpdate

T = TypeVar("T")

CHEAP_OPERATIONS: frozenset[str] = frozenset({"choose_location", "emoji", "object_state"})
"""Operations the offline heuristics answer as well as a model: keyword lookups per action."""
DEFAULT_REACTION_COOLDOWN = timedelta(hours=3)
"""Game time before an agent reconsiders the same subject (the paper's agents perceive every
step; a neighbour moving on to their next errand is not news every ten minutes)."""
DEFAULT_REPLAN_COOLDOWN = timedelta(minutes=2 * DEFAULT_REACTION_MINUTES)
"""Game time after an agent reacts before a routine observation may re-plan it again: the
reaction, and as long again back in the plan it re-made. A reaction supersedes the rest of the
plan, so one on top of another throws away what the first had just decomposed."""
DEFAULT_BUSY = timedelta(minutes=DEFAULT_REACTION_MINUTES)
"""How long an agent seen reacting (greeting someone, putting out a fire) is busy with it: the
others do not line up to greet someone who is greeting someone else."""
DEFAULT_NOTABLE_IMPORTANCE = 6
"""An observation at least this important is always put to the Mind (past every cooldown, and
to a sleeper): someone crying, a fight, a fire."""
DEFAULT_URGENT_IMPORTANCE = 7
"""Only a sight this important (someone crying, a fight) brings an agent back to someone it
talked with within the chat cooldown: news-like sights (a candidate campaigning, a reporter at
work, 6) sent two agents into four conversations in ninety minutes."""
DEFAULT_CHAT_COOLDOWN = timedelta(hours=3)
"""Game time before two agents who talked strike up another conversation (the reference
code's chat buffer serves the same purpose)."""

_SLEEP = re.compile(r"\b(sleep|sleeping|asleep|nap|napping|go(?:es)? to bed|bedtime)\b", re.I)


_NOTEWORTHY = re.compile(
    r"\b(\d{1,2}(:\d{2})?\s*[ap]\.?m|noon|midnight|tonight|tomorrow|today|monday|tuesday|"
    r"wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|"
    r"august|september|october|november|december|party|invite|invited|come|running for|"
    r"election|vote|wedding|meeting|meet|news|heard)\b",
    re.I,
)


def worth_noting(lines: Sequence[tuple[str, str]]) -> bool:
    """Whether a conversation may hold something to plan for or news to keep: a time, a day,
    an event, an invitation, an election. Small talk has nothing a model would note."""
    return any(_NOTEWORTHY.search(text) for _, text in lines)


def is_sleep(description: str) -> bool:
    """Whether an action is sleeping (or going to bed for the night)."""
    return bool(_SLEEP.search(description))


def needs_detail(item: PlanItem) -> bool:
    """Whether a plan item is worth decomposing further: sleep is one action all night."""
    return not is_sleep(item.description)


def fits_one_step(item: PlanItem, granularity: Granularity) -> bool:
    """Whether the item is already no longer than one step of `granularity`."""
    return item.duration_min <= STEP_BOUNDS[granularity][1]


@dataclass(frozen=True)
class GateFacts:
    """What the database knows about an observer when an observation arrives."""

    subject_is_agent: bool
    importance: int = 1
    """The observation's importance (the Mind's, or the provisional one until it is scored)."""
    asleep: bool = False
    in_conversation: bool = False
    last_decided_about: datetime | None = None
    last_talked_with: datetime | None = None
    last_reacted_at: datetime | None = None
    """When the agent last decided to react (to anything)."""
    subject_reacted_at: datetime | None = None
    """When the agent observed last decided to react (None for an object)."""
    subject_talking: bool = False
    """The agent observed is in a conversation (with someone else)."""
    subject_sought_at: datetime | None = None
    """When another agent last decided to go and talk to the agent observed."""


def reaction_gate(
    facts: GateFacts,
    *,
    now: datetime,
    cooldown: timedelta = DEFAULT_REACTION_COOLDOWN,
    chat_cooldown: timedelta = DEFAULT_CHAT_COOLDOWN,
    replan_cooldown: timedelta = DEFAULT_REPLAN_COOLDOWN,
    busy: timedelta = DEFAULT_BUSY,
    notable: int = DEFAULT_NOTABLE_IMPORTANCE,
    urgent: int = DEFAULT_URGENT_IMPORTANCE,
) -> str | None:
    """Why the Mind need not be asked about this observation, or None to ask it."""
    routine = facts.importance < notable
    decided = facts.last_decided_about
    if routine and decided is not None and now - decided < cooldown:
        return f"already considered this subject at {decided:%H:%M}"
    reacted = facts.last_reacted_at
    if routine and reacted is not None and now - reacted < replan_cooldown:
        return f"reacted at {reacted:%H:%M} and is back to the plan it made"
    if not facts.subject_is_agent:
        return None
    if facts.in_conversation:
        return "already in a conversation"
    # However notable, a person already talking or being approached is not approached again:
    # a crowd does not line up to greet one candidate (the reference code's decide-to-talk
    # refuses a target who is chatting).
    if facts.subject_talking:
        return "they are talking with someone else"
    sought = facts.subject_sought_at
    if sought is not None and now - sought < busy:
        return f"someone else went to talk to them at {sought:%H:%M}"
    theirs = facts.subject_reacted_at
    if routine and theirs is not None and now - theirs < busy:
        return f"they are busy with their own reaction of {theirs:%H:%M}"
    if routine and facts.asleep:
        return "asleep"
    talked = facts.last_talked_with
    if facts.importance < urgent and talked is not None and now - talked < chat_cooldown:
        return f"talked with them at {talked:%H:%M}"
    return None


class _Delegating:
    """A Mind that forwards each request to `_route(request)`; subclasses choose."""

    def __init__(self, primary: Mind) -> None:
        self._primary = primary

    @property
    def model(self) -> str:
        return self._primary.model

    def _route(self, request: Request[Any]) -> Mind:
        return self._primary

    def with_audit(self, audit: AuditSink) -> Mind:
        raise NotImplementedError

    def think(self, request: Request[T]) -> T:
        return self._route(request).think(request)


class FrugalMind(_Delegating):
    """The primary mind, with cheap operations answered by `cheap` and one-step items kept whole.

    Calls answered by `cheap` are audited as its calls (model "offline-heuristic", no cost).
    """

    def __init__(
        self,
        primary: Mind,
        *,
        cheap: Mind,
        cheap_operations: frozenset[str] = CHEAP_OPERATIONS,
    ) -> None:
        super().__init__(primary)
        self._cheap = cheap
        self._cheap_operations = cheap_operations

    def with_audit(self, audit: AuditSink) -> FrugalMind:
        return FrugalMind(
            self._primary.with_audit(audit),
            cheap=self._cheap.with_audit(audit),
            cheap_operations=self._cheap_operations,
        )

    def _route(self, request: Request[Any]) -> Mind:
        return self._cheap if request.operation in self._cheap_operations else self._primary

    def think(self, request: Request[T]) -> T:
        """An item no longer than one step is that step; a conversation with nothing to note
        and a day with no new plan are answered by the cheap mind; otherwise the routed mind
        answers."""
        if isinstance(request, Decompose) and fits_one_step(request.item, request.granularity):
            item = request.item
            whole = PlanItem(item.start, item.duration_min, item.description, item.location)
            return cast(T, [whole])
        if isinstance(request, ConversationNotes) and not worth_noting(request.lines):
            return cast(T, self._cheap.think(request))
        if isinstance(request, ReviseCurrently) and not any(
            note.startswith("For ") for note in request.plan_notes
        ):
            return cast(T, self._cheap.think(request))
        return super().think(request)


class KnownRelationships(_Delegating):
    """A mind that answers `relationship` from what the agent already holds about `other`.

    Relationships it had to ask for are kept in `learned`, so the caller can store them.
    """

    def __init__(self, primary: Mind, known: Mapping[str, RelationshipUpdate]) -> None:
        super().__init__(primary)
        self._known = {name.casefold(): update for name, update in known.items()}
        self.learned: dict[str, RelationshipUpdate] = {}

    def with_audit(self, audit: AuditSink) -> KnownRelationships:
        twin = KnownRelationships(self._primary.with_audit(audit), {})
        twin._known, twin.learned = self._known, self.learned
        return twin

    def think(self, request: Request[T]) -> T:
        if not isinstance(request, SummarizeRelationship):
            return super().think(request)
        known = self._known.get(request.other.casefold())
        if known is not None:
            return cast(T, known)
        update = super().think(request)
        self.learned[request.other] = update
        return cast(T, update)
