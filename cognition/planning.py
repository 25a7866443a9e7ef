"""The paper's planning (§4.3): a day outline, decomposed recursively just in time.

`plan_day` asks the Mind for the day in broad strokes and repairs what it gets (rules below),
then mirrors the outline into the memory stream as one plan memory, the paper's "This is
Eddy's plan for Tuesday February 13: 1) …" thought, so later retrievals can recall it.
`decompose_hours` splits a day item into hour chunks and `decompose_tasks` an hour chunk into
5–15 minute actions, each with a location, an emoji and the state of the object it uses.

Repair of a day outline (models drift; the game needs a usable plan every time):
  1. items without a description are dropped; none left raises `InvalidOutput`;
  2. items are sorted by start; the day begins at the first item (wake-up), clamped into the
     plan's date, and lasts 24 hours: starts before it are clamped to it, items starting after
     it are dropped;
  3. the outline is made contiguous: each item lasts until the next begins (overlaps are cut,
     gaps are filled by the item before) and the last lasts to the end of the day — so there
     is always a current item, and an agent is never left with nothing to do;
  4. more than 8 items: the adjacent pair with the shortest total is merged ("A; then B",
     keeping both texts), earliest first on ties; fewer than 5: the longest item is halved,
     earliest first on ties. A 24-hour day always splits to 5;
  5. every item is located (`cognition.locating`), from the place the outline gave it (kept
     when nothing suits it better), else from where the item before leaves the agent.

Laying the outline into the live plan (`lay_outline`): an outline made before the agent wakes
up (a late riser on the first day, when no night of a previous outline covers the morning)
would leave the agent with nothing to do until then, so it starts with sleep from now until
the wake-up, where the agent wakes. And the outline goes around what is already planned: a
reaction made before the outline keeps its span.

Plan arithmetic (spans, the current item, tiling a span, the just-in-time window of what to
decompose next) lives in `cognition.schedule`; `covering`, `active_at` and
`window_to_decompose` are re-exported here for callers that think of them as planning.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from cognition import prompting
from cognition.clamps import order_day_plan
from cognition.errors import InvalidOutput
from cognition.locating import locate
from cognition.mind import Mind
from cognition.places import SEPARATOR, KnownMap, KnownPlace, area_of
from cognition.reacting import NEWS_QUERY
from cognition.requests import Decompose, Emoji, ObjectState, PlanDay, ReviseCurrently
from cognition.schedule import (
    active_at,
    around,
    covering,
    in_turn,
    parts,
    tile,
    whole_minutes,
    window_to_decompose,
)
from cognition.store import MemoryStore
from cognition.types import (
    Granularity,
    MemoryKind,
    MemorySource,
    NewMemory,
    Persona,
    PlanItem,
)

__all__ = [
    "DayContext",
    "active_at",
    "covering",
    "day_context",
    "decompose_hours",
    "decompose_tasks",
    "lay_outline",
    "nearest_first",
    "plan_day",
    "plan_memory",
    "previous_day_summary",
    "repair_day_plan",
    "revise_currently",
    "window_to_decompose",
]

MIN_DAY_ITEMS = 5
MAX_DAY_ITEMS = 8
"""The paper's outline is "5 to 8" broad strokes."""
DAY = timedelta(days=1)
"""A day plan covers 24 hours from wake-up to the next wake-up."""
DEFAULT_DETAIL_K = 5
"""Memories shown beside an item being decomposed: what the agent recalls about it."""
DEFAULT_NOTES_K = 10
"""Memories per planning retrieval: the day's notes and recent events, a short list."""
PLAN_QUERY = "{name}'s plan for {day}"
EVENTS_QUERY = "Important recent events for {name}'s life"
"""The reference code's retrievals before a new day (its `revise_identity`)."""
ASLEEP = "sleep"
"""What an agent does before the first item of an outline made before it wakes up (not
decomposed, and a sleeper is spared routine reactions: `cognition.frugal`)."""


@dataclass(frozen=True)
class DayContext:
    """What an agent recalls before planning a day (the reference code's two retrievals)."""

    plan_notes: tuple[str, ...]
    """Retrieved for "<name>'s plan for <date>": planning notes of conversations, outlines."""
    events: tuple[str, ...]
    """Retrieved for "Important recent events for <name>'s life"."""
    news: tuple[str, ...] = ()
    """Retrieved for the news the agent could tell (`reacting.NEWS_QUERY`): the gatherings it
    heard of, which a busy day's other memories would crowd out of the two above."""
    calendar: tuple[str, ...] = ()
    """Memories whose stored news puts a gathering on this very day or the next, looked up by
    their fields (`memories.detail`) rather than retrieved by resemblance: what someone heard
    is on today is not forgotten because the day's other memories read more like the query."""

    @property
    def notes(self) -> tuple[str, ...]:
        """All four, each once, plan notes first: what `plan_day` takes into account."""
        return tuple(dict.fromkeys((*self.plan_notes, *self.events, *self.news, *self.calendar)))


def day_context(
    store: MemoryStore, *, name: str, now: datetime, k: int = DEFAULT_NOTES_K
) -> DayContext:
    """The retrievals made each new day before the outline: the reference code's two, and
    the news the agent knows."""
    plans = store.retrieve(
        PLAN_QUERY.format(name=name, day=prompting.day(now.date())), k=k, now=now
    )
    events = store.retrieve(EVENTS_QUERY.format(name=name), k=k, now=now)
    news = store.retrieve(NEWS_QUERY.format(name=name), k=k, now=now)
    return DayContext(
        plan_notes=tuple(s.memory.recalled() for s in plans),
        events=tuple(s.memory.recalled() for s in events),
        news=tuple(s.memory.recalled() for s in news),
    )


def revise_currently(mind: Mind, *, persona: Persona, context: DayContext, now: datetime) -> str:
    """The persona's `currently` for today, revised from what it recalled (never empty)."""
    revised = mind.think(
        ReviseCurrently(
            persona=persona,
            plan_notes=tuple(dict.fromkeys((*context.plan_notes, *context.calendar))),
            events=context.events,
            now=now,
        )
    )
    return revised.strip() or persona.currently


def plan_day(
    store: MemoryStore,
    mind: Mind,
    *,
    persona: Persona,
    summary: str,
    previous_day: str,
    directives: Sequence[str],
    now: datetime,
    known_places: Sequence[str | KnownPlace],
    notes: Sequence[str] = (),
) -> list[PlanItem]:
    """The day outline, repaired and located, also written to the stream as a plan memory.

    `notes` (from `day_context`) are what the agent recalled for the day: an event agreed in a
    conversation is planned at its time and place."""
    items = draft_day(
        mind,
        persona=persona,
        summary=summary,
        previous_day=previous_day,
        directives=directives,
        now=now,
        known_places=known_places,
        notes=notes,
    )
    store.add([plan_memory(items, name=persona.name, now=now)], now=now)
    return items


def draft_day(
    mind: Mind,
    *,
    persona: Persona,
    summary: str,
    previous_day: str,
    directives: Sequence[str],
    now: datetime,
    known_places: Sequence[str | KnownPlace],
    notes: Sequence[str] = (),
) -> list[PlanItem]:
    """The day outline, repaired and located, not remembered: a stand-in outline is not the
    agent's plan to recall (the model's, which replaces it, is)."""
    drafted = mind.think(
        PlanDay(
            persona=persona,
            summary=summary,
            previous_day=previous_day,
            directives=directives,
            now=now,
            notes=notes,
            known_places=[p if isinstance(p, str) else p.path for p in known_places],
        )
    )
    return _located(mind, repair_day_plan(drafted, now=now), known_places, persona)


def repair_day_plan(items: Sequence[PlanItem], *, now: datetime) -> list[PlanItem]:
    """Rules 1–4 of the module docstring: a contiguous 24-hour outline of 5–8 items."""
    usable = [item for item in items if item.description.strip()]
    if not usable:
        raise InvalidOutput("the day plan has no usable items")
    ordered = order_day_plan(usable)
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    day_start = min(max(ordered[0].start, midnight), midnight + DAY - timedelta(minutes=1))
    day_end = day_start + DAY
    clamped = [replace(i, start=max(i.start, day_start)) for i in ordered if i.start < day_end]
    return _fit_count(_contiguous(clamped, end=day_end))


def lay_outline(
    items: Sequence[PlanItem], *, now: datetime, planned: Sequence[PlanItem] = ()
) -> list[PlanItem]:
    """The outline as it goes into the live plan (module docstring): preceded by the rest of
    the night when made before wake-up, and cut around the `planned` items already there."""
    ordered = sorted(items, key=lambda i: i.start)
    now = now.replace(second=0, microsecond=0)
    if ordered and now < ordered[0].start:
        wake = ordered[0]
        home = area_of(wake.location) if wake.location else None  # in bed, not at the table
        night = PlanItem(now, whole_minutes(wake.start - now), ASLEEP, home)
        ordered.insert(0, night)
    return around(ordered, planned)


def decompose_hours(
    mind: Mind,
    item: PlanItem,
    *,
    persona: Persona,
    summary: str,
    schedule: Sequence[PlanItem] = (),
    memories: Sequence[str] = (),
    known_places: Sequence[str | KnownPlace] = (),
) -> list[PlanItem]:
    """Hour chunks (at most 60 minutes) covering the day item exactly, at the item's place.

    `schedule` (the day around the item) and `memories` (retrieved for it) give a model the
    context the paper's decomposition prompt has. A chunk that is one part of an item doing
    things in turn ("do the flowers at St. Aldhelm's Church") goes where its own words say,
    given `known_places`; the others stay at the item's place."""
    steps = mind.think(
        Decompose(
            item=item,
            granularity=Granularity.HOUR,
            persona=persona,
            summary=summary,
            schedule=schedule,
            memories=memories,
        )
    )
    chunks = tile(item, steps, Granularity.HOUR)
    if not known_places or len(parts(item.description)) == 1:
        return chunks
    places = KnownMap(known_places)
    return [
        chunk
        if chunk.description == item.description
        else replace(chunk, location=_placed(mind, chunk, places, persona) or chunk.location)
        for chunk in chunks
    ]


def _placed(mind: Mind, chunk: PlanItem, places: KnownMap, persona: Persona) -> str | None:
    """Where a chunk goes: in its item's area unless its words name another."""
    return locate(
        mind,
        action=chunk.description,
        places=places,
        at=chunk.start,
        until=chunk.end,
        here=chunk.location,
        home=persona.living_area,
        name=persona.name,
        keep_area=True,
    )


def decompose_tasks(
    mind: Mind,
    hour_item: PlanItem,
    *,
    persona: Persona,
    summary: str,
    known_places: Sequence[str | KnownPlace],
    schedule: Sequence[PlanItem] = (),
    memories: Sequence[str] = (),
) -> list[PlanItem]:
    """5–15 minute actions covering the hour chunk exactly, each located and illustrated.

    Each stays in the chunk's area unless it names another (`cognition.locating`).
    """
    steps = mind.think(
        Decompose(
            item=hour_item,
            granularity=Granularity.TASK,
            persona=persona,
            summary=summary,
            schedule=schedule,
            memories=memories,
        )
    )
    places = KnownMap(known_places)
    tasks = tile(hour_item, steps, Granularity.TASK)
    return [_dressed(mind, task, places, persona) for task in tasks]


def recalled_for(
    store: MemoryStore, item: PlanItem, *, now: datetime, k: int = DEFAULT_DETAIL_K
) -> list[str]:
    """What the agent recalls about an item it is about to detail (a model's context)."""
    return [s.memory.description for s in store.retrieve(item.description, k=k, now=now)]


def previous_day_summary(plans_of_yesterday: Sequence[PlanItem]) -> str:
    """ "1) wake up and complete the morning routine at 6:00 am, 2) …": the paper's yesterday.

    The planning prompt itself says "On Tuesday February 12, Eddy did this:"; pass the items
    that were actually lived (not the superseded ones).
    """
    ordered = sorted(plans_of_yesterday, key=lambda i: i.start)
    return ", ".join(
        f"{n}) {prompting.one_line(i.description)} at {prompting.clock(i.start)}"
        for n, i in enumerate(ordered, start=1)
    )


PLAN_MEMORY_CHARS = 560
"""Past this, the plan memory names each item by what it does first ("have a coffee at
Yamabuki Tea House", not "…; then sweep the precinct …; then drink tea …"): no memory is
a page long."""


def plan_memory(items: Sequence[PlanItem], *, name: str, now: datetime) -> NewMemory:
    """The outline as one plan memory, worded as the paper's planning thought."""
    day = items[0].start.date() if items else now.date()
    text = f"This is {name}'s plan for {prompting.day(day)}: {previous_day_summary(items)}."
    if len(text) > PLAN_MEMORY_CHARS:  # each item by what it does first
        firsts = [replace(i, description=i.description.split("; then ")[0]) for i in items]
        text = f"This is {name}'s plan for {prompting.day(day)}: {previous_day_summary(firsts)}."
    return NewMemory(
        description=text,
        kind=MemoryKind.PLAN,
        created_at=now,
        subject=name,
        source=MemorySource.AGENT,
    )


def nearest_first(location: str | None, known_places: Sequence[str]) -> list[str]:
    """Known places sorted by how much of `location`'s path they share, most first (stable)."""
    here = _path(location or "")
    return sorted(known_places, key=lambda place: -_shared_prefix(here, _path(place)))


def _located(
    mind: Mind, items: Sequence[PlanItem], known: Sequence[str | KnownPlace], persona: Persona
) -> list[PlanItem]:
    """Each item at a known place: in the area where the outline put it when that is a known
    place (the outline's own idea, as an appointment's place is), found deeper within it;
    else from where the item before leaves the agent (the first from home)."""
    places, here, located = KnownMap(known), persona.living_area, []
    for item in items:
        outlined = places.canonical(item.location)
        place = locate(
            mind,
            action=item.description,
            places=places,
            at=item.start,
            until=item.end,
            here=outlined or here,
            home=persona.living_area,
            name=persona.name,
            keep_area=outlined is not None,
            outlined=outlined is not None,
        )
        located.append(replace(item, location=place or item.location))
        here = place or here
    return located


def _dressed(mind: Mind, task: PlanItem, places: KnownMap, persona: Persona) -> PlanItem:
    """A task with its place (in its hour chunk's area unless it names another), emoji, and
    the state of the object it uses."""
    chosen = _placed(mind, task, places, persona)
    location = chosen or task.location
    obj = _path(chosen)[-1] if chosen and places.is_object(chosen) else None
    state = mind.think(ObjectState(task.description, obj)) if obj else None
    emoji = mind.think(Emoji(task.description))
    return replace(task, location=location, emoji=emoji, object_state=state)


def _contiguous(items: Sequence[PlanItem], *, end: datetime) -> list[PlanItem]:
    """Each item runs until the next starts, the last until `end`; empty items vanish."""
    nexts = [i.start for i in items[1:]] + [end]
    stretched = [
        replace(i, duration_min=whole_minutes(n - i.start))
        for i, n in zip(items, nexts, strict=True)
    ]
    return [i for i in stretched if i.duration_min > 0]


def _fit_count(items: Sequence[PlanItem]) -> list[PlanItem]:
    """Merge the shortest adjacent pair while over 8, halve the longest item while under 5."""
    result = list(items)
    while len(result) > MAX_DAY_ITEMS:
        i = min(range(len(result) - 1), key=lambda k: _pair_length(result, k))
        result[i : i + 2] = [_merged(result[i], result[i + 1])]
    while len(result) < MIN_DAY_ITEMS:
        i = max(range(len(result)), key=lambda k: (result[k].duration_min, -k))
        if result[i].duration_min <= 1:
            break  # cannot happen for a 24-hour day; guards the loop all the same
        result[i : i + 1] = _halves(result[i])
    return result


def _pair_length(items: Sequence[PlanItem], k: int) -> tuple[int, int]:
    return items[k].duration_min + items[k + 1].duration_min, k


def _merged(a: PlanItem, b: PlanItem) -> PlanItem:
    """One item doing both, at the place of the longer (the first on a tie, else any known)."""
    longer, shorter = (a, b) if a.duration_min >= b.duration_min else (b, a)
    return PlanItem(
        start=a.start,
        duration_min=a.duration_min + b.duration_min,
        description=in_turn(a.description, b.description),
        location=longer.location or shorter.location,
    )


def _halves(item: PlanItem) -> list[PlanItem]:
    half = item.duration_min // 2
    second = replace(
        item, start=item.start + timedelta(minutes=half), duration_min=item.duration_min - half
    )
    return [replace(item, duration_min=half), second]


def _path(place: str) -> list[str]:
    return [part.strip() for part in place.split(SEPARATOR) if part.strip()]


def _shared_prefix(a: Sequence[str], b: Sequence[str]) -> int:
    shared = 0
    for x, y in zip(a, b, strict=False):
        if x.casefold() != y.casefold():
            break
        shared += 1
    return shared
