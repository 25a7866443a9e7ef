"""Pure rules of perception: how an observation reads, when it repeats, when it may matter.

Every observation stored runs through here: the step route's perceptions, the object-state
route's, and the object states that agents' actions write to the map (`db.queries.objects`).

A game reports what an agent perceives as (subject, state): "Maria Lopez" / "reading a book",
"Juniper Cafe: kitchen: stove" / "burning". The memory stream keeps the paper's wording,
"[subject] is [state]" (the object by its own name, its full canonical path in `subject`),
with the triple subject / "is" / state. What an agent is seen doing reads as English even
when the game sends the plan's imperative: "Tomas Okafor is having lunch", never "… is have
lunch" (`cognition.grammar.progressive`); an object's state is used as given. And:

- an observation identical to the last one of the same subject (same state) is not stored
  twice — the paper's agents perceive continuously, and a stove that stays idle is no news;
- only observations that may call for a reaction reach the Mind: another agent who can be
  approached (not asleep, in bed or in the bath: the reference code never lets an agent talk
  to a sleeping one), or an object whose state differs from the last one the agent saw (a
  first sight of an idle object is not a change). Free text without a subject cannot be judged
  here, so it goes to the Mind.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, MutableMapping
from datetime import datetime
from typing import Protocol, TypeVar

from cognition.errors import InvalidInput
from cognition.grammar import progressive
from cognition.places import DEFAULT_STATE, SEPARATOR, normalize_path
from cognition.types import MemoryKind, MemorySource, NewMemory

STATE_PREDICATE = "is"
"""The predicate of every (subject, state) observation."""
IDLE_STATES: frozenset[str] = frozenset({"", DEFAULT_STATE})
"""States an object sits in when nothing happens to it (the paper's objects default to idle)."""

UNAPPROACHABLE = re.compile(
    r"\b(?:sleep|sleeping|asleep|nap|napping|shower|showering|bath|bathing|toilet|"
    r"(?:in|to) bed|getting dressed|get dressed)\b",
    re.IGNORECASE,
)
"""What someone may be doing that nobody walks up to chat about."""
ALARMING = re.compile(
    r"\b(?:burning|on fire|smoking|flooding|flooded|overflowing|leaking|sparking)\b", re.I
)
"""Object states noticed through the whole area, not only in the object's room."""


def is_alarming(state: str) -> bool:
    """Whether an object's state is an alarm that carries beyond its room (smoke, water)."""
    return bool(ALARMING.search(state))


K = TypeVar("K")


class Observed(Protocol):
    """What these rules read of a memory: `Memory` and `NewMemory` both qualify."""

    @property
    def kind(self) -> MemoryKind: ...

    @property
    def description(self) -> str: ...

    @property
    def subject(self) -> str | None: ...

    @property
    def predicate(self) -> str | None: ...

    @property
    def object(self) -> str | None: ...


def observation_text(subject: str, state: str, *, doing: bool = False) -> str:
    """ "stove is burning", "Maria Lopez is having lunch": the paper's observation wording.

    `doing`: the state is what an agent does (an activity put in the progressive form); else
    an object's state, used as given.
    """
    clean = _state(state)
    return f"{subject_name(subject)} {STATE_PREDICATE} {progressive(clean) if doing else clean}"


def subject_name(subject: str) -> str:
    """A subject by its own name: the last segment of a place path, else the subject itself."""
    parts = [p.strip() for p in subject.split(SEPARATOR) if p.strip()]
    return parts[-1] if parts else subject.strip()


def new_observation(
    subject: str,
    state: str,
    *,
    now: datetime | None = None,
    doing: bool = False,
    source: MemorySource = MemorySource.GAME,
) -> NewMemory:
    """The observation of `subject` in `state` as a memory to write; an object's path is kept
    in its canonical spelling, so "Cafe:stove" and "Cafe: stove" are one subject."""
    return NewMemory(
        description=observation_text(subject, state, doing=doing),
        kind=MemoryKind.OBSERVATION,
        created_at=now,
        subject=subject.strip() if doing else canonical_subject(subject),
        predicate=STATE_PREDICATE,
        object=_state(state),
        source=source,
    )


def canonical_subject(subject: str) -> str:
    """A place path in its stored spelling; any other subject trimmed."""
    try:
        return normalize_path(subject)
    except InvalidInput:
        return subject.strip()


def unseen(
    observations: Iterable[tuple[K, NewMemory]], last: MutableMapping[tuple[K, str], Observed]
) -> list[tuple[K, NewMemory]]:
    """The observations that are not repeats (`is_repeat`) of the last one each observer `K`
    has of the same subject: `last` holds those, keyed by (observer, subject), and is updated
    as it goes, so a batch that says the same thing twice stores it once."""
    fresh: list[tuple[K, NewMemory]] = []
    for observer, memory in observations:
        key = (observer, _key(memory.subject or ""))
        if memory.subject is not None and is_repeat(memory, last.get(key)):
            continue
        if memory.subject is not None:
            last[key] = memory
        fresh.append((observer, memory))
    return fresh


def subject_key(subject: str) -> str:
    """How `unseen` compares subjects: case and spacing do not matter."""
    return _key(subject)


def is_repeat(new: Observed, last_for_subject: Observed | None) -> bool:
    """Whether `new` repeats the last observation of its subject: same subject, same state."""
    if last_for_subject is None or new.subject is None:
        return False
    kinds = {new.kind, last_for_subject.kind}
    if kinds != {MemoryKind.OBSERVATION}:
        return False
    same_subject = _key(new.subject) == _key(last_for_subject.subject or "")
    return same_subject and _state_key(new) == _state_key(last_for_subject)


def needs_reaction(
    observation: Observed,
    *,
    observer: str,
    agents: Collection[str] = (),
    last_seen_state: str | None = None,
) -> bool:
    """Whether an observation may call for a reaction (see the module docstring).

    `agents` are the names of the world's agents; `last_seen_state` is the state the observer
    last saw its subject in (None when never seen).
    """
    if observation.subject is None:
        return True
    subject = _key(observation.subject)
    if subject == _key(observer):
        return False
    if any(subject == _key(agent) for agent in agents):
        return not UNAPPROACHABLE.search(observation.object or observation.description)
    state = _key(observation.object or "")
    if last_seen_state is None:
        return state not in IDLE_STATES
    return state != _key(last_seen_state)


def _state_key(observed: Observed) -> tuple[str, str]:
    """The state as (predicate, object), or the whole description when there is no triple."""
    if observed.predicate or observed.object:
        return _key(observed.predicate or ""), _key(observed.object or "")
    return "", _key(observed.description)


def _words(text: str) -> str:
    return " ".join(text.split()).rstrip(".")


def _state(text: str) -> str:
    """The state without a leading "is" the game may have written ("is reading a book.")."""
    clean = _words(text)
    if clean.casefold().startswith(f"{STATE_PREDICATE} "):
        clean = clean[len(STATE_PREDICATE) + 1 :]
    return clean


def _key(text: str) -> str:
    return _words(text).casefold()
