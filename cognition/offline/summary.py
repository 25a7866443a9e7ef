"""The paper's agent summary description, assembled from three retrievals instead of a model.

The paper caches a paragraph that every prompt starts with:

    Name: Eddy Lin (age: 19)
    Innate traits: friendly, outgoing, hospitable
    <core characteristics>
    <current occupation>
    <feeling about recent progress in life>

Offline, each of the last three lines retells the statements retrieved for it (keys "core",
"occupation", "feeling", at most STATEMENTS_PER_LINE each); a key with nothing retrieved falls
back to the persona's own fields (background, currently) or says nothing is known yet.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cognition.offline.text import as_sentence, first_name
from cognition.types import Persona

STATEMENTS_PER_LINE = 2
"""Enough to characterise; more turns the summary into a memory dump."""


def summarize_agent(*, persona: Persona, retrieved: Mapping[str, Sequence[str]]) -> str:
    """Five lines in the paper's shape; see the module docstring."""
    age = f" (age: {persona.age})" if persona.age is not None else ""
    first = first_name(persona.name)
    lines = [
        f"Name: {persona.name}{age}",
        f"Innate traits: {persona.innate.strip() or 'not yet known'}",
        _line(
            retrieved.get("core", ()),
            persona.background,
            f"{first} is still getting to know who they are.",
        ),
        _line(
            retrieved.get("occupation", ()),
            persona.currently,
            f"{first} has no recorded occupation.",
        ),
        _line(
            retrieved.get("feeling", ()),
            "",
            f"{first} has not yet recorded how they feel about their recent progress.",
        ),
    ]
    return "\n".join(lines)


def _line(statements: Sequence[str], fallback: str, default: str) -> str:
    """The retrieved statements as one line, else the persona field, else the default."""
    chosen = [as_sentence(s) for s in statements if s.strip()][:STATEMENTS_PER_LINE]
    if chosen:
        return " ".join(chosen)
    if fallback.strip():
        return as_sentence(" ".join(fallback.split()))
    return default
