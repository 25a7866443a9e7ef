"""What an agent takes away from a conversation, and how it sees its day, without a model.

`conversation_notes` reads the lines for the facts the dialogue carries (`knowledge`): an
event someone invited to and someone accepted, news the other side told. It writes at most
two sentences, each composed from those facts:

    planning  "For Tomas Ferreira's planning: Tomas Ferreira agreed to go to Junie
               Halvorsen's Valentine's Day party at The Copper Kettle on February 14 from
               6 pm to 8 pm."   (the host's note says who is coming)
    memo      "Tomas Ferreira heard from Junie Halvorsen that Walter Brigg is running for a
               seat on the Larkspur town council."

`revise_currently` keeps the persona's standing description and adds what the agent's
planning notes say it will do today or tomorrow, so `currently` reflects what was agreed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, timedelta

from cognition.offline import knowledge
from cognition.offline.dialogue import ACCEPTED, DECLINED
from cognition.offline.knowledge import Candidacy, Event, News
from cognition.offline.text import first_name
from cognition.types import Notes, Persona

PLANNING_PREFIX = "For {name}'s planning: "
"""The reference code's wording of a planning thought; plan_day retrieves by it."""
_REVISION = re.compile(r"\s*On \w+, \w+ \d+, .*?(?=\s*On \w+, \w+ \d+, |$)", re.S)
"""A sentence this module appended to `currently` on an earlier day."""


def conversation_notes(
    *, name: str, other: str, lines: Sequence[tuple[str, str]], now: datetime
) -> Notes:
    """The planning note and memo of the module docstring ("" where there is none)."""
    del now
    return Notes(planning=_planning(name, other, lines), memo=_memo(name, other, lines))


def _planning(name: str, other: str, lines: Sequence[tuple[str, str]]) -> str:
    agreed = _accepted(lines)
    if agreed is None:
        return ""
    event, guest = agreed
    invitation = _named(event)
    if _same(guest, name):
        text = f"{name} agreed to go to {invitation}{event.details()}."
    elif event.host and _same(event.host, name):
        text = f"{other} said they would come to {invitation}{event.details()}."
    else:
        return ""
    return PLANNING_PREFIX.format(name=name) + text


def _accepted(lines: Sequence[tuple[str, str]]) -> tuple[Event, str] | None:
    """The event someone accepted an invitation to, and who accepted."""
    for index, (who, text) in enumerate(lines):
        if not ACCEPTED.search(text) or DECLINED.search(text):
            continue
        for speaker, earlier in reversed(lines[:index]):
            events = [e for e in knowledge.events_in(earlier, speaker=speaker) if e.start_min]
            if events:
                return events[0], who
    return None


def _clause(statement: str) -> str:
    """A sentence made a clause after "that": "There is a party." → "there is a party"."""
    text = statement.rstrip(".")
    return f"t{text[1:]}" if text.startswith("There ") else text


def _named(event: Event) -> str:
    """ "Junie Halvorsen's Valentine's Day party", or "the Valentine's Day party"."""
    return f"{event.host}'s {event.name}" if event.host else f"the {event.name}"


def _memo(name: str, other: str, lines: Sequence[tuple[str, str]]) -> str:
    """News the other side told that the agent did not say itself."""
    own = {n.key for who, text in lines if _same(who, name) for n in _news(text, who)}
    for who, text in lines:
        if _same(who, name):
            continue
        for news in _news(text, who):
            if news.key not in own and not _about(news, name):
                return f"{name} heard from {other} that {_clause(news.statement())}."
    return ""


def _news(text: str, speaker: str) -> list[News]:
    found: list[News] = [
        e for e in knowledge.events_in(text, speaker=speaker) if e.place or e.month
    ]
    return found + list(knowledge.candidacies_in(text, speaker=speaker))


def _about(news: News, name: str) -> bool:
    subject = news.host if isinstance(news, Event) else news.who
    return bool(subject) and _same(subject or "", name)


def revise_currently(
    *, persona: Persona, plan_notes: Sequence[str], events: Sequence[str], now: datetime
) -> str:
    """The standing `currently` plus what the notes commit the agent to today or tomorrow."""
    base = _REVISION.sub("", persona.currently).strip()
    base = base if not base or base.endswith((".", "!", "?")) else f"{base}."
    added: list[str] = []
    for day in (now, now + timedelta(days=1)):
        for event in _events_on(plan_notes, day):
            hosting = bool(event.host) and _same(event.host or "", persona.name)
            going = f"host the {event.name}" if hosting else f"go to {_named(event)}"
            added.append(
                f"On {day:%A}, {day:%B} {day.day}, {first_name(persona.name)} plans to "
                f"{going}{_place_and_time(event)}."
            )
    heard = [n for text in events for n in knowledge.news_in(text) if isinstance(n, Candidacy)]
    text = " ".join([base, *dict.fromkeys(added)]).strip()
    if heard and heard[0].statement() not in text and not _about(heard[0], persona.name):
        text += f" {first_name(persona.name)} knows that {heard[0].statement()}"
    return text


def _events_on(notes: Sequence[str], day: datetime) -> list[Event]:
    found: dict[str, Event] = {}
    for event in knowledge.events_on(notes, month=day.month, day=day.day):
        found[event.key] = found[event.key].merged(event) if event.key in found else event
    return list(found.values())


def _place_and_time(event: Event) -> str:
    where = f" at {event.place}" if event.place else ""
    when = f" at {knowledge.clock_text(event.start_min)}" if event.start_min is not None else ""
    return where + when


def _same(a: str, b: str) -> bool:
    return bool(a) and bool(b) and (a == b or first_name(a) == first_name(b))
