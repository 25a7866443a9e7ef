"""What an agent takes away from a conversation, and how it sees its day, without a model.

`conversation_notes` reads the lines for the facts the dialogue carries (`knowledge`): a
gathering someone invited to and someone accepted, news of any kind the other side told. It
writes at most two sentences, each composed from those facts:

    planning  "For Tomas Ferreira's planning: Tomas Ferreira agreed to go to Junie
               Halvorsen's Valentine's Day party at The Copper Kettle on February 14 from
               6 pm to 8 pm."   (the host's note says who is coming)
    memo      "Tomas Ferreira heard from Junie Halvorsen that the old mill bridge is
               cracked and unsafe."
    today     a gathering agreed for later today, or one open to all or in the evening
               that the other side told of, as the plan item its kind gives a guest ("go to the
               harvest market", 14:00–17:00, at Saltmarsh Green): today's outline was made
               this morning and could not hold it

`revise_currently` keeps the persona's standing description and adds what the agent's
planning notes say it will do today or tomorrow, so `currently` reflects what was agreed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, timedelta

from cognition.offline import knowledge
from cognition.offline.clock import EVENING_START
from cognition.offline.dialogue import ACCEPTED, DECLINED, INVITATION
from cognition.offline.knowledge import Fact
from cognition.offline.news import candidacy, gathering, report
from cognition.offline.news.gathering import named
from cognition.offline.text import first_name, same_person
from cognition.types import Notes, Persona, PlanItem

PLANNING_PREFIX = "For {name}'s planning: "
"""The reference code's wording of a planning thought; plan_day retrieves by it."""
_REVISION = re.compile(r"\s*On \w+, \w+ \d+, .*?(?=\s*On \w+, \w+ \d+, |$)", re.S)
"""A sentence this module appended to `currently` on an earlier day."""


def conversation_notes(
    *, name: str, other: str, lines: Sequence[tuple[str, str]], now: datetime
) -> Notes:
    """The planning note and memo of the module docstring ("" where there is none)."""
    return Notes(
        planning=_planning(name, other, lines, now),
        memo=_memo(name, other, lines, now),
        appointment=_today(name, lines, now),
    )


def _today(name: str, lines: Sequence[tuple[str, str]], now: datetime) -> PlanItem | None:
    """The gathering `name` agreed to go to later today, else one later today that the other
    side told of and everyone may go to (unless `name` said no), as the item its kind plans:
    who hears at five of the wax night at seven goes, as who heard yesterday would."""
    agreed = _accepted(lines, now)
    if agreed is not None and same_person(agreed[1], name) and agreed[0].on(now.date()):
        event: Fact | None = agreed[0]
    else:
        event = _open_today(name, lines, now)
    if event is None:
        return None
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    for slot in knowledge.kind_of(event).slots(event, name=name):
        start = midnight + timedelta(minutes=slot.start)
        if start > now:
            return PlanItem(start, slot.end - slot.start, slot.description, slot.place)
    return None


def _open_today(name: str, lines: Sequence[tuple[str, str]], now: datetime) -> Fact | None:
    """The first gathering later today that the other side told `name` of and `name` would
    drop in on: one open to all, or any this evening, when work is done (as the morning's
    plan drops in on what it heard of, `planning.drop_ins`); never `name`'s own nor one
    `name` turned down in these lines."""
    refused = _refused(name, lines, now)
    for who, text in lines:
        if same_person(who, name):
            continue
        for event in _upcoming(text, who, now):
            evening = event.start_min is not None and event.start_min >= EVENING_START
            if not (event.open_to_all or evening) or not event.on(now.date()) or event.about(name):
                continue
            if refused is None or not gathering.same_occasion(event, refused):
                return event
    return None


WONT_GO = " will not go to "
"""The words of a planning note that records a declined invitation (`declined`)."""


def declined(event: Fact, notes: Sequence[str]) -> bool:
    """Whether a planning note says the agent turned down an invitation to `event`: an open
    invitation ("everyone is welcome") does not bring back someone who said no."""
    return any(
        note.startswith("For ")
        and WONT_GO in note
        and any(gathering.same_occasion(event, f) for f in knowledge.news_in(note))
        for note in notes
    )


def _planning(name: str, other: str, lines: Sequence[tuple[str, str]], now: datetime) -> str:
    agreed = _accepted(lines, now)
    if agreed is None:
        refused = _refused(name, lines, now)
        if refused is None:
            return ""
        text = f"{name}{WONT_GO}{named(refused)}{refused.details()}."
        return PLANNING_PREFIX.format(name=name) + text
    event, guest = agreed
    if same_person(guest, name):
        text = f"{name} agreed to go to {named(event)}{event.details()}."
    elif event.about(name):
        text = f"{other} said they would come to {named(event)}{event.details()}."
    else:
        return ""
    return PLANNING_PREFIX.format(name=name) + text


def _accepted(lines: Sequence[tuple[str, str]], now: datetime) -> tuple[Fact, str] | None:
    """The timed gathering someone accepted an invitation to, and who accepted."""
    for index, (who, text) in enumerate(lines):
        if not ACCEPTED.search(text) or DECLINED.search(text):
            continue
        for speaker, earlier in reversed(lines[:index]):
            events = _upcoming(earlier, speaker, now)
            if events:
                return events[0], who
    return None


def _upcoming(text: str, speaker: str, now: datetime) -> list[Fact]:
    """The timed gatherings a line tells of that have not begun."""
    return [
        e
        for e in knowledge.spoken_news(text, speaker=speaker, now=now)
        if e.kind == gathering.NAME and e.start_min is not None and not gathering.is_over(e, now)
    ]


def _refused(name: str, lines: Sequence[tuple[str, str]], now: datetime) -> Fact | None:
    """The timed gathering `name` was invited to and declined, if the lines say so."""
    for index, (who, text) in enumerate(lines):
        if not same_person(who, name) or not DECLINED.search(text):
            continue
        for speaker, earlier in reversed(lines[:index]):
            if same_person(speaker, name) or not INVITATION.search(earlier):
                continue
            events = _upcoming(earlier, speaker, now)
            if events:
                return events[0]
    return None


def _clause(statement: str) -> str:
    """A sentence made a clause after "that": "There is a party." → "there is a party"."""
    text = statement.rstrip(".")
    text = re.sub(r"\. Everyone is invited$", ", and everyone is invited", text)
    return f"t{text[1:]}" if text.startswith(("There ", "The ")) else text


def _memo(name: str, other: str, lines: Sequence[tuple[str, str]], now: datetime) -> str:
    """News the other side told that the agent did not say itself."""
    own = {
        n.key
        for who, text in lines
        if same_person(who, name)
        for n in knowledge.spoken_news(text, speaker=who, now=now)
    }
    for who, text in lines:
        if same_person(who, name):
            continue
        for news in knowledge.spoken_news(text, speaker=who, now=now):
            if news.key not in own and not news.about(name):
                return f"{name} heard from {other} that {_clause(news.statement())}."
    return ""


def revise_currently(
    *, persona: Persona, plan_notes: Sequence[str], events: Sequence[str], now: datetime
) -> str:
    """The standing `currently` plus what the notes commit the agent to today or tomorrow,
    and the weightiest news it knows that is not its own."""
    base = _REVISION.sub("", persona.currently).strip()
    base = base if not base or base.endswith((".", "!", "?")) else f"{base}."
    added: list[str] = []
    for day in (now, now + timedelta(days=1)):
        for event in knowledge.occasions_on(plan_notes, day=day.date(), now=now):
            if not (event.about(persona.name) or agreed(event, plan_notes)):
                continue  # heard of, not agreed to
            going = (
                f"hold the {event.what}" if event.about(persona.name) else f"go to {named(event)}"
            )
            added.append(
                f"On {day:%A}, {day:%B} {day.day}, {first_name(persona.name)} plans to "
                f"{going}{_place_and_time(event)}."
            )
    heard = [
        n
        for text in events
        for n in knowledge.news_in(text, now=now)
        if n.kind in (candidacy.NAME, report.NAME) and not n.about(persona.name)
    ]
    text = " ".join([base, *dict.fromkeys(added)]).strip()
    if heard and heard[0].statement() not in text:
        text += f" {first_name(persona.name)} knows that {_clause(heard[0].statement())}."
    return text


def agreed(event: Fact, notes: Sequence[str]) -> bool:
    """Whether a planning note says the agent agreed to go (or was invited by its organiser)."""
    return any(
        note.startswith("For ")
        and WONT_GO not in note
        and any(gathering.same_occasion(event, f) for f in knowledge.news_in(note))
        for note in notes
    )


def _place_and_time(event: Fact) -> str:
    where = f" at {event.place}" if event.place else ""
    when = f" at {knowledge.clock_text(event.start_min)}" if event.start_min is not None else ""
    return where + when
