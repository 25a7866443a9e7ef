"""Prompt rendering: one pure function from a template name and values to the prompt text.

Templates live in `cognition/prompts/<name>.txt` (string.Template syntax, `$name`). Every value
is *data*: the templates fence it between a line `<<<label` and a line `>>>`, and `render`
defuses any fence markers inside values so game or player text cannot close a fence early
and smuggle instructions. The small formatting helpers below shape values (numbered lists,
persona blocks, times) so that the adapters never assemble prompt text themselves.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from functools import cache
from importlib import resources
from string import Template

from cognition.types import Persona, PlanItem

PROMPTS_PACKAGE = "cognition"
PROMPTS_FOLDER = "prompts"

EMPTY = "(none)"
"""What a fenced block shows when there is nothing to show, so the model never sees a bare fence."""

HOURS_PER_HALF_DAY = 12
"""The paper writes times on a 12-hour clock with am/pm."""

_FENCE_RUN = re.compile(r"<{3,}|>{3,}")
_WHITESPACE = re.compile(r"\s+")


class TemplateError(KeyError):
    """A template was rendered with missing or unexpected values: a programming error."""


@cache
def template(name: str) -> Template:
    """The template `name`, read once per process from the package data (final newline dropped)."""
    path = resources.files(PROMPTS_PACKAGE).joinpath(PROMPTS_FOLDER).joinpath(f"{name}.txt")
    return Template(path.read_text(encoding="utf-8").removesuffix("\n"))


def render(name: str, /, **values: object) -> str:
    """The prompt `name` with every `$placeholder` filled; missing or extra values raise."""
    tmpl = template(name)
    expected = set(tmpl.get_identifiers())
    missing, extra = expected - values.keys(), values.keys() - expected
    if missing or extra:
        raise TemplateError(f"{name}: missing {sorted(missing)}, unexpected {sorted(extra)}")
    return tmpl.substitute({key: defuse(str(value)) for key, value in values.items()})


COPIED_RUN = 5
"""Words in a row that an answer shares with its request's instructions before it counts as
copied from them ("has to take into account her plans and recent events")."""
_WORD = re.compile(r"[a-z0-9']+")


@cache
def instruction_runs(name: str) -> frozenset[tuple[str, ...]]:
    """Every run of COPIED_RUN words of template `name`'s own instructions: its text without
    the fenced data and the placeholders, which are the game's words, not the request's."""
    fenced, words = False, []
    for line in template(name).template.splitlines():
        if line.startswith("<<<"):
            fenced = True
        elif line.startswith(">>>"):
            fenced = False
        elif not fenced:
            words += _WORD.findall(re.sub(r"\$\w+", " ", line).casefold())
    return frozenset(zip(*(words[i:] for i in range(COPIED_RUN)), strict=False))


def copies_instructions(text: str, name: str) -> bool:
    """Whether `text` repeats COPIED_RUN words in a row of template `name`'s instructions: a
    small model asked for its plans sometimes writes the question back as an answer."""
    words = _WORD.findall(text.casefold())
    runs = zip(*(words[i:] for i in range(COPIED_RUN)), strict=False)
    return not instruction_runs(name).isdisjoint(runs)


def defuse(text: str) -> str:
    """`text` with runs of 3+ `<` or `>` spaced apart, so it can neither open nor close a fence."""
    return _FENCE_RUN.sub(lambda match: " ".join(match.group()), text)


def one_line(text: str) -> str:
    """`text` on a single line, so one item cannot pose as several numbered items."""
    return _WHITESPACE.sub(" ", text).strip()


def numbered(items: Iterable[str]) -> str:
    """`1. first` / `2. second` …: the paper's numbered statements, cited back by number."""
    lines = [f"{i}. {one_line(item)}" for i, item in enumerate(items, start=1)]
    return "\n".join(lines) or EMPTY


def bulleted(items: Iterable[str]) -> str:
    """`- item` lines, for lists whose order means nothing."""
    return "\n".join(f"- {one_line(item)}" for item in items) or EMPTY


def text_or_empty(text: str) -> str:
    """`text`, or the EMPTY marker when it is blank."""
    return text.strip() or EMPTY


def dialogue(history: Sequence[tuple[str, str]]) -> str:
    """`Speaker: line` per turn, the paper's dialogue history."""
    return "\n".join(f"{one_line(who)}: {one_line(said)}" for who, said in history) or EMPTY


def sections(groups: Mapping[str, Sequence[str]]) -> str:
    """Headed groups of numbered statements (`About <key>:`), one per retrieval query."""
    blocks = [f"About {one_line(key)}:\n{numbered(items)}" for key, items in groups.items()]
    return "\n".join(blocks) or EMPTY


def persona_block(persona: Persona) -> str:
    """The paper's persona header (`Name: Eddy Lin (age: 19)`, traits …), blank fields left out."""
    age = f" (age: {persona.age})" if persona.age is not None else ""
    fields = [
        ("Innate traits", persona.innate),
        ("Background", persona.background),
        ("Currently", persona.currently),
        ("Lifestyle", persona.lifestyle),
        ("Living area", persona.living_area),
        ("Daily plan requirement", persona.daily_plan_requirement),
        ("Speaking style", persona.speaking_style),
    ]
    lines = [f"Name: {one_line(persona.name)}{age}"]
    lines += [f"{label}: {one_line(value)}" for label, value in fields if value.strip()]
    return "\n".join(lines)


def areas(places: Iterable[str]) -> list[str]:
    """The distinct areas (first segments) of place paths, in first-seen order."""
    return list(dict.fromkeys(p.split(":")[0].strip() for p in places if p.strip()))


def schedule(items: Iterable[PlanItem]) -> str:
    """ "7:00 am–12:00 pm: work at the counter (The Copper Kettle)", one line an item."""
    lines = [
        f"{clock(i.start)}–{clock(i.end)}: "
        f"{one_line(i.description)}" + (f" ({one_line(i.location)})" if i.location else "")
        for i in items
    ]
    return "\n".join(lines) or EMPTY


def persona_line(persona: Persona) -> str:
    """One line about a person: "Junie Halvorsen (38): warm, energetic. Junie is planning …"."""
    age = f" ({persona.age})" if persona.age is not None else ""
    about = " ".join(p for p in (one_line(persona.innate), one_line(persona.currently)) if p)
    return f"{one_line(persona.name)}{age}: {about}" if about else f"{one_line(persona.name)}{age}"


def character(persona: Persona, summary: str = "") -> str:
    """The persona header followed by the agent's summary description, when there is one."""
    block = persona_block(persona)
    return f"{block}\n{summary.strip()}" if summary.strip() else block


def clock(moment: datetime) -> str:
    """`4:56 pm`, the paper's time of day."""
    hour = moment.hour % HOURS_PER_HALF_DAY or HOURS_PER_HALF_DAY
    suffix = "am" if moment.hour < HOURS_PER_HALF_DAY else "pm"
    return f"{hour}:{moment.minute:02d} {suffix}"


def day(when: date) -> str:
    """`Wednesday February 13`, the paper's day."""
    return f"{when:%A %B} {when.day}"


def moment(when: datetime) -> str:
    """`February 13, 2023, 4:56 pm`, the paper's date and time."""
    return f"{when:%B} {when.day}, {when.year}, {clock(when)}"
