"""Near-misses a parser fixed instead of re-asking: noted, so the audit can count them.

A re-ask costs a whole second call (a minute on a CPU), and a fallback loses the model's answer,
so a parser mends what it can read unambiguously — a rating given twice to one memory in an
otherwise complete list, a memory left unrated — and says so with `note`. The adapter collects
the notes of one parse (`collecting`) and records them beside the call.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_notes: ContextVar[list[str] | None] = ContextVar("repair_notes", default=None)


def note(what: str) -> None:
    """Say that the answer being parsed was repaired, and how (dropped outside `collecting`)."""
    notes = _notes.get()
    if notes is not None:
        notes.append(what)


@contextmanager
def collecting() -> Iterator[list[str]]:
    """The repairs noted by the parsing done inside the block."""
    notes: list[str] = []
    token = _notes.set(notes)
    try:
        yield notes
    finally:
        _notes.reset(token)
