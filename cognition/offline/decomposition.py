"""Plan decomposition without a model: hour chunks and 5–15 minute actions that tile the span.

The paper recursively decomposes a day outline into hour-long chunks and those into 5–15
minute actions. Offline, the arithmetic is exact (the pieces always cover the parent span, no
gaps, no overlap) and the words come from activity templates (`activities`):

- HOUR: the first chunk runs to the next full hour, then one chunk per hour, the last one what
  remains; every chunk is at most 60 minutes and is described as the parent item (the tasks
  under it carry the detail), or, for an item doing things in turn ("have soup at the café;
  then do the flowers at the church"), as the part it is spent on.
- TASK: the template's steps in order (cycling), each taking its typical 5–15 minutes give or
  take the person's pace (`PACES`), with the last two steps adjusted so every action stays
  within 5–15 minutes and the total is exact. A meal away from home is eaten out.
  Sleep becomes 15-minute "sleeping" actions. A span shorter than 5 minutes is one action.

A generic "work" item borrows the template of the persona's occupation, read from the
clauses of its background and duties that tell of its job (`work_clauses`: "works as a
barista" → the cafe's steps; "has a beer at Dugan's Tavern" is no job), the workplace's name
first ("works the counter at Fenwick Hardware" → the shop's steps).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import timedelta

from cognition import schedule
from cognition.offline.activities import GENERIC, OCCUPATIONS, Template, template_for
from cognition.offline.clock import MINUTES_PER_HOUR
from cognition.offline.places import emoji
from cognition.offline.text import as_clause, lower_first, proper_nouns, stable_index, stems
from cognition.places import area_of
from cognition.schedule import THEN
from cognition.types import Granularity, Persona, PlanItem

MIN_TASK = 5
MAX_TASK = 15
MAX_HOUR = MINUTES_PER_HOUR
WORK_WORDS: frozenset[str] = frozenset(stems("work job shift duty duties"))
"""Items this vague take their steps from the persona's occupation instead."""


def decompose(
    *, item: PlanItem, granularity: Granularity, persona: Persona, summary: str
) -> list[PlanItem]:
    """Hour chunks or 5–15 minute actions covering `item` exactly, in time order."""
    if item.duration_min <= 0:
        return []
    template = _template(item, persona, summary)
    if granularity is Granularity.HOUR:
        lengths = _hour_lengths(item)
        texts = _hour_texts(item, template, len(lengths))
    else:
        lengths = _task_lengths(item.duration_min, template, pace=_pace(persona, item))
        texts = _task_texts(item, template, len(lengths))
    return _items(item, lengths, texts)


def _template(item: PlanItem, persona: Persona, summary: str) -> Template:
    """The item's own template, else the occupation's for vague work items, else generic; a
    job's template only for an agent whose own background or duties name that job."""
    away = bool(item.location and persona.living_area) and not (item.location or "").startswith(
        persona.living_area.split(":")[0]
    )
    clauses = work_clauses(persona)
    job = stems(" ".join(clauses))
    own = template_for(item.description, away=away)
    if own is not None and (own.name not in OCCUPATIONS or own.keywords & job):
        return own
    if WORK_WORDS & stems(item.description):
        return job_template(clauses)
    return GENERIC


_CLAUSE = re.compile(
    r";\s*|,\s+(?:and\s+|but\s+|then\s+)?|\s+and\s+(?=(?:has|have|goes|plays|drinks|"
    r"eats|spends|walks|visits|likes|loves|draws|does|reads|writes|sings)\b)"
)
WORK_VERBS: frozenset[str] = frozenset(
    stems(
        "work works working job opens open runs owns manages staffs serves teaches employed "
        "studies student attends keeps"
    )
)
"""A clause with one of these tells of the persona's job ("Danny opens Fenwick Hardware at
8am"); the rest of the persona ("has a beer at Dugan's Tavern at 7pm") does not."""
_IDENTITY = re.compile(
    r"\b(?:is|was) (?:a|an|the) (?!(?:\w+ )?(?:son|daughter|mother|father|wife|husband|brother|"
    r"sister|friend|grandson|granddaughter|grandmother|grandfather|niece|nephew|cousin|aunt|"
    r"uncle|only|best|widow|widower)\b)"
)
"""Who someone is ("Felix Moreau is a second-year art student at Wren College") tells of
their job; who they are to someone ("the son of …") does not."""


_WORKPLACE = re.compile(
    r"\b(?:works?|working|opens?|runs?|owns?|manages?|keeps?|staffs?)\b[^,;.]*?"
    r"(?P<place>[A-Z][\w'’&-]*(?:\s+[A-Z][\w'’&-]*)*)"
)
"""The workplace a job's clause names ("works the counter at Fenwick Hardware")."""
_WHERE = re.compile(r"\b(?:in|at|from|to) the [a-z]+\b")
"""Where the work is done, not what it is ("from the study at Lookout Cottage")."""


def work_clauses(persona: Persona) -> list[str]:
    """The clauses of the persona's background and duties that tell of its job."""
    texts = (persona.background, persona.daily_plan_requirement)
    return [
        c
        for text in texts
        for c in _CLAUSE.split(text)
        if WORK_VERBS & stems(" ".join(re.findall(r"\b[a-z][a-z'’-]*", c)))  # not "… Works"
        or _IDENTITY.search(c)
    ]


def job_template(clauses: Sequence[str]) -> Template:
    """The job's template: by the workplace's name first ("works the counter at Fenwick
    Hardware" is a shop's counter, not a cafe's), then by the clause's words; generic when
    no job template is named."""
    places = (m["place"] for c in clauses if (m := _WORKPLACE.search(c)) is not None)
    named = (template_for(place) for place in places)
    worded = (template_for(_WHERE.sub("", c)) for c in clauses)
    return next((t for t in (*named, *worded) if t is not None and t.name in OCCUPATIONS), GENERIC)


def _hour_lengths(item: PlanItem) -> list[int]:
    """Chunk lengths: up to the next full hour, then whole hours, then the remainder."""
    into_hour = item.start.minute % MINUTES_PER_HOUR
    first = MAX_HOUR - into_hour if into_hour else MAX_HOUR
    lengths: list[int] = []
    remaining = item.duration_min
    while remaining > 0:
        size = min(first if not lengths else MAX_HOUR, remaining)
        lengths.append(size)
        remaining -= size
    return lengths


PACES = (-5, 0, 5)
"""How much longer or shorter than a template's typical minutes a person takes per step:
chosen stably per person and item, so a town does not wash its dishes in unison."""


def _pace(persona: Persona, item: PlanItem) -> int:
    return PACES[stable_index(f"{persona.name}|{item.description}|{item.start:%F}", len(PACES))]


def _task_lengths(total: int, template: Template, *, pace: int = 0) -> list[int]:
    """Action lengths summing to `total`, each within 5–15 minutes when total ≥ 5.

    Each step takes its preferred length (shifted by `pace`, kept within 5–15) unless that
    would leave a remainder shorter than MIN_TASK; a remainder of at most MAX_TASK is taken
    whole.
    """
    lengths: list[int] = []
    remaining = total
    while remaining > 0:
        if remaining <= MAX_TASK:
            size = remaining
        else:
            preferred = min(MAX_TASK, max(MIN_TASK, template.step(len(lengths)).minutes + pace))
            size = min(preferred, remaining - MIN_TASK)
        lengths.append(size)
        remaining -= size
    return lengths


def _hour_texts(item: PlanItem, template: Template, count: int) -> list[str]:
    """One description per hour chunk: the parent item's own (the tasks carry the detail);
    an item doing things in turn (`schedule.parts`) gives each its own chunks, in order."""
    del template
    return [as_clause(text) for text in _shared_out(item, count)]


def _shared_out(item: PlanItem, count: int) -> list[str]:
    """`count` chunk texts for an item's parts: one chunk each and the rest to the part done
    where the outline put the item (a joined item is placed where most of it is spent), else
    to the last; more parts than chunks leave the last chunk the rest, still joined."""
    parts = schedule.parts(item.description)
    if len(parts) == 1:
        return [item.description] * count
    if count < len(parts):
        return [*parts[: count - 1], THEN.join(parts[count - 1 :])]
    area = set(stems(area_of(item.location))) if item.location else set()
    there = [i for i, part in enumerate(parts) if area and area <= set(stems(part))]
    main = there[0] if there else len(parts) - 1
    shares = [1 + (count - len(parts) if i == main else 0) for i in range(len(parts))]
    return [part for part, share in zip(parts, shares, strict=True) for _ in range(share)]


def _task_texts(item: PlanItem, template: Template, count: int) -> list[str]:
    """One description per action: the template's steps in order, cycling."""
    clause = as_clause(item.description)
    task = lower_first(clause, names=proper_nouns(clause))
    return [template.step(i).description.format(task=task) for i in range(count)]


def _items(parent: PlanItem, lengths: Sequence[int], texts: Sequence[str]) -> list[PlanItem]:
    """Lay the pieces end to end from the parent's start, keeping its location."""
    items: list[PlanItem] = []
    offset = 0
    for length, text in zip(lengths, texts, strict=True):
        items.append(
            PlanItem(
                start=parent.start + timedelta(minutes=offset),
                duration_min=length,
                description=text,
                location=parent.location,
                emoji=emoji(text),
            )
        )
        offset += length
    return items
