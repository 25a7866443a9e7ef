"""The paper's agent summary description, assembled from three retrievals instead of a model.

The paper caches a paragraph that every prompt starts with:

    Name: Eddy Lin (age: 19)
    Innate traits: friendly, outgoing, hospitable
    <core characteristics>
    <current occupation>
    <feeling about recent progress in life>

Offline, each of the last three lines is made of whole statements retrieved for it (keys
"core", "occupation", "feeling", at most STATEMENTS_PER_LINE each) that can stand as
sentences about the person: no speech (it quotes someone), no plan memory (a list), no
statement already used on an earlier line — so a summary never repeats itself. A line with
nothing usable falls back to the persona's own fields (background, currently), and the
feeling line to a sentence about the person's day.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cognition.grammar import join_words, sentence
from cognition.offline.text import first_name, sentences
from cognition.types import Persona

STATEMENTS_PER_LINE = 2
"""Enough to characterise; more turns the summary into a memory dump."""


def summarize_agent(*, persona: Persona, retrieved: Mapping[str, Sequence[str]]) -> str:
    """Five lines in the paper's shape; see the module docstring."""
    age = f" (age: {persona.age})" if persona.age is not None else ""
    traits = join_words([t.strip() for t in persona.innate.split(",") if t.strip()])
    used: set[str] = set()
    first = first_name(persona.name)
    lines = [
        f"Name: {persona.name}{age}",
        f"Innate traits: {traits or 'not yet known'}",
        _line(retrieved.get("core", ()), persona.background, used),
        _line(retrieved.get("occupation", ()), persona.currently, used),
        _line(retrieved.get("feeling", ()), "", used)
        or f"{first} is taking life one day at a time.",
    ]
    return "\n".join(line for line in lines if line)


def _line(statements: Sequence[str], fallback: str, used: set[str]) -> str:
    """Usable retrieved statements not used before, else the persona field's sentences."""
    chosen = _fresh([s for s in statements if _usable(s)], used)
    if not chosen:
        chosen = _fresh(_prose(fallback), used)
    return " ".join(chosen)


def _fresh(candidates: Sequence[str], used: set[str]) -> list[str]:
    chosen: list[str] = []
    for candidate in candidates:
        text = sentence(candidate)
        key = " ".join(text.casefold().split())
        if key and key not in used:
            used.add(key)
            chosen.append(text)
        if len(chosen) == STATEMENTS_PER_LINE:
            break
    return chosen


def _usable(statement: str) -> bool:
    """A statement that reads as a sentence about someone: no quotes, no plan list."""
    text = statement.strip()
    return bool(text) and '"' not in text and not text.startswith(("This is ", "For "))


def _prose(field: str) -> list[str]:
    """A persona field's clauses (designers separate them with ";") as sentences."""
    return [c.strip() for part in sentences(field) for c in part.split(";") if c.strip()]
