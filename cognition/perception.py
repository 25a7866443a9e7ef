"""Pure rules of perception: how an observation reads, when it repeats, when it may matter.

A game reports what an agent perceives as (subject, state): "Maria Lopez" / "reading a book",
"Juniper Cafe: kitchen: stove" / "burning". The memory stream keeps the paper's wording,
"[subject] is [state]" (the object by its own name, its full path in `subject`), with the
triple subject / "is" / state, so that:

- an observation identical to the last one of the same subject (same state) is not stored
  twice — the paper's agents perceive continuously, and a stove that stays idle is no news;
- only observations that may call for a reaction reach the Mind: another agent, or an object
  whose state differs from the last one the agent saw (a first sight of an idle object is
  not a change). Free text without a subject cannot be judged here, so it goes to the Mind.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Protocol

from cognition.grammar import progressive
from cognition.places import DEFAULT_STATE, SEPARATOR
from cognition.types import MemoryKind, MemorySource, NewMemory

STATE_PREDICATE = "is"
"""The predicate of every (subject, state) observation."""
IDLE_STATES: frozenset[str] = frozenset({"", DEFAULT_STATE})
"""States an object sits in when nothing happens to it (the paper's objects default to idle)."""


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


def observation_text(subject: str, state: str) -> str:
    """ "stove is burning", "Maria Lopez is reading a book": the paper's observation wording.

    A person's state is an action, said in the progressive whatever form the game or the plan
    gave it ("have lunch" → "Maria Lopez is having lunch"); an object's state (a place path
    is the subject) is kept as given ("idle", "in use")."""
    clean = _words(state)
    if clean.casefold().startswith(f"{STATE_PREDICATE} "):
        clean = clean[len(STATE_PREDICATE) + 1 :]
    if SEPARATOR not in subject and clean:
        clean = progressive(clean)
    return f"{subject_name(subject)} {STATE_PREDICATE} {clean}"


def subject_name(subject: str) -> str:
    """A subject by its own name: the last segment of a place path, else the subject itself."""
    parts = [p.strip() for p in subject.split(SEPARATOR) if p.strip()]
    return parts[-1] if parts else subject.strip()


def new_observation(
    subject: str, state: str, *, now: datetime | None, source: MemorySource = MemorySource.GAME
) -> NewMemory:
    """The observation of `subject` in `state` as a memory to write."""
    return NewMemory(
        description=observation_text(subject, state),
        kind=MemoryKind.OBSERVATION,
        created_at=now,
        subject=subject,
        predicate=STATE_PREDICATE,
        object=_words(state),
        source=source,
    )


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
        return True
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


def _key(text: str) -> str:
    return _words(text).casefold()
