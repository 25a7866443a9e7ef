"""What a persona does with the working part of the day and with free time, from keywords.

The day planner needs a morning and an afternoon block and an evening pastime. They are read
from the persona's own words: `daily_plan_requirement` first (it is what the author asked
for), then `currently`, `background` and the summary. The first row of the table whose
keywords appear wins; the workplace is the first capitalised place named in those fields
("Hobbs Cafe", "Oak Hill College"), or the agent's home for work done at home.
"""

from __future__ import annotations

from dataclasses import dataclass

from cognition.offline.text import as_clause, first_name, is_place, lower_first, proper_nouns, stems
from cognition.types import Persona


@dataclass(frozen=True)
class Job:
    """The two working blocks of a day and where they happen (None: at home)."""

    morning: str
    afternoon: str
    place: str | None


@dataclass(frozen=True)
class _Row:
    keywords: frozenset[str]
    morning: str
    afternoon: str
    default_place: str
    at_home: bool = False


def _row(keywords: str, morning: str, afternoon: str, place: str, at_home: bool = False) -> _Row:
    return _Row(frozenset(stems(keywords)), morning, afternoon, place, at_home)


OCCUPATIONS: tuple[_Row, ...] = (
    _row(
        "cafe coffee barista",
        "open {place} and serve the morning customers",
        "work at the counter of {place}",
        "the cafe",
    ),
    _row(
        "pharmacy pharmacist prescription",
        "open {place} and fill the morning prescriptions",
        "advise customers and fill prescriptions at {place}",
        "the pharmacy",
    ),
    _row(
        "student college university class classes homework exam",
        "attend classes at {place}",
        "study and do homework at the library",
        "college",
    ),
    _row(
        "research researcher thesis paper professor scientist",
        "work on the research paper",
        "read sources and revise the research paper",
        "the library",
    ),
    _row(
        "paint painter painting artist art canvas",
        "paint in the studio",
        "work on the current canvas and sketch new ideas",
        "the studio",
        at_home=True,
    ),
    _row(
        "bar bartender pub",
        "prepare {place} for the evening: restock and clean",
        "tend the bar at {place}",
        "the bar",
    ),
    _row(
        "writer write novel poet poetry author",
        "write the next chapter",
        "revise the morning's writing",
        "home",
        at_home=True,
    ),
    _row(
        "shop store shopkeeper supply market",
        "open {place} and help customers",
        "restock shelves and help customers at {place}",
        "the store",
    ),
    _row(
        "garden gardener farm farmer",
        "tend the garden",
        "weed, water and harvest",
        "the garden",
    ),
)
"""Checked in order; rows are specific before general so a cafe owner is not a shopkeeper."""

LEISURE: tuple[tuple[frozenset[str], str], ...] = tuple(
    (frozenset(stems(keywords)), pastime)
    for keywords, pastime in (
        ("read reading books novel", "relax at home and read a book"),
        ("walk walking stroll park", "take an evening walk in the park"),
        ("music guitar piano sing", "relax at home and play some music"),
        ("friends social sociable party", "spend the evening with friends"),
        ("cook cooking bake baking", "relax at home and try a new recipe"),
        ("game games gaming", "relax at home and play games"),
    )
)
DEFAULT_LEISURE = "relax at home and unwind"


def occupation_of(persona: Persona, summary: str) -> Job:
    """The persona's working day, by the table above; a generic one when nothing matches."""
    sources = [persona.daily_plan_requirement, persona.currently, persona.background, summary]
    place = _workplace(sources)
    for source in sources:
        words = stems(source)
        row = next((r for r in OCCUPATIONS if r.keywords & words), None)
        if row is not None:
            where = None if row.at_home else place
            name = where or row.default_place
            return Job(row.morning.format(place=name), row.afternoon.format(place=name), where)
    return _generic(persona, place)


def _generic(persona: Persona, place: str | None) -> Job:
    """No known occupation: spend the working hours on whatever the persona is doing now."""
    focus = _focus(persona)
    if not focus:
        return Job("go about the morning's work", "go about the afternoon's work", place)
    if focus.split()[0].endswith("ing"):
        return Job(f"spend the morning {focus}", f"spend the afternoon {focus}", place)
    return Job(f"work on {focus}", f"continue to work on {focus}", place)


def _focus(persona: Persona) -> str:
    """The first clause of `currently`, without the persona's own name ("X is planning…")."""
    clause = as_clause(persona.currently.split(";")[0].split(".")[0])
    for name in (persona.name, first_name(persona.name) if persona.name else ""):
        for verb in (" is ", " has been "):
            prefix = f"{name}{verb}"
            if name and clause.startswith(prefix):
                clause = clause[len(prefix) :]
    return lower_first(clause, names=proper_nouns(clause)) if clause else ""


def _workplace(sources: list[str]) -> str | None:
    """The first named place in the persona's own words, if any."""
    for source in sources:
        for name in proper_nouns(source):
            if is_place(name):
                return name
    return None


def leisure_of(persona: Persona) -> str:
    """An evening pastime suggested by the persona's lifestyle, traits or current interests."""
    words = stems(" ".join([persona.lifestyle, persona.innate, persona.currently]))
    words -= stems(persona.name)  # Helen Park does not love parks by name alone
    return next((pastime for keys, pastime in LEISURE if keys & words), DEFAULT_LEISURE)
