"""Answers to an interviewer without a model: the question's subject is looked up among the
facts of the retrieved memories (`knowledge`) and answered in a sentence built from the fact,
citing the memories it came from. Nothing the agent does not remember is claimed: with no
memory of it, the answer is no.

    question                              answer
    ------------------------------------  ------------------------------------------------
    "Did you know there is a … party?"    every mention of that event merged into one fact:
                                          "Yes. Junie Halvorsen is hosting a Valentine's Day
                                          party at … I heard about it from Tomas Ferreira."
    "Do you know who is running for …?"   "Yes. Walter Brigg is running for … I heard …"
    "Do you know of <name>?"              "Yes, I know <name>. I last saw <name> brewing coffee."
    "Why didn't you come to <event>?"     what the day's plan held at the event's start, else
                                          other plans, else that the agent never heard of it
    anything else                         the memories sharing most words with the question
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from cognition.grammar import progressive, sentence
from cognition.norms import MINUTES_PER_DAY
from cognition.offline import knowledge
from cognition.offline.clock import find_times
from cognition.offline.knowledge import Candidacy, Event, News
from cognition.offline.text import mentions, same_person, stems
from cognition.offline.voice import styled
from cognition.types import Answer, Persona

EVENT_WORDS = frozenset(stems("party celebration gathering event concert reading festival"))
ELECTION_WORDS = frozenset(stems("running election mayor council candidate vote campaign"))
KNOW_OF = re.compile(r"\b(?i:do you know)(?: of| about)? (?P<name>[A-Z][a-z]+(?: [A-Z][a-z]+)?)\b")
WHY_NOT = re.compile(r"\bwhy (?:didn't|did not|couldn't|could not|weren't|were not) you\b", re.I)
MAX_CITED = 3
_DAY_PLAN = re.compile(r"^This is .+?'s plan for (?:\w+day )?(?P<month>[A-Z][a-z]+) (?P<day>\d+):")
_PLAN_ITEM = re.compile(r"\d+\) (?P<what>.+?) at (?P<time>\d{1,2}:\d{2} [ap]m)")

Found = list[tuple[int, News]]
"""Mentions of one piece of news: (1-based memory index, the news as that memory tells it)."""


def answer(
    *,
    question: str,
    persona: Persona,
    summary: str,
    asker: str,
    memories: Sequence[str],
    now: datetime | None = None,
) -> Answer:
    """An in-character answer built from the facts of the cited memories (module docstring)."""
    words = stems(question)
    if WHY_NOT.search(question):
        text, cited = _why_not(memories, question)
    elif words & EVENT_WORDS:
        text, cited = _answer_event(persona, memories, question)
    elif words & ELECTION_WORDS:
        text, cited = _answer_candidacy(persona, memories)
    elif (person := KNOW_OF.search(question)) is not None:
        text, cited = _answer_person(persona, memories, person["name"])
    else:
        text, cited = _answer_generally(persona, memories, question)
    return Answer(styled(text, persona.speaking_style), tuple(cited))


def _answer_event(
    persona: Persona, memories: Sequence[str], question: str
) -> tuple[str, list[int]]:
    found = _event_mentions(memories, _asked(question))
    if not found:
        return "No, I haven't heard about anything like that.", []
    return _affirm(persona, memories, found)


def _answer_candidacy(persona: Persona, memories: Sequence[str]) -> tuple[str, list[int]]:
    found: Found = [
        (index, news)
        for index, memory in enumerate(memories, start=1)
        for news in knowledge.news_in(memory)
        if isinstance(news, Candidacy)
    ]
    if not found:
        return "No, I don't know who is running.", []
    first = found[0][1].key
    return _affirm(persona, memories, [(i, n) for i, n in found if n.key == first])


def _affirm(persona: Persona, memories: Sequence[str], found: Found) -> tuple[str, list[int]]:
    """ "Yes. <the fact, all its mentions merged>. I heard about it from <source>.", citing
    the source first; the agent's own news in the first person."""
    news = _merged([n for _, n in found])
    if knowledge.about(news, persona.name):
        own = (
            f"Yes, I'm hosting {news.described()}."
            if isinstance(news, Event)
            else f"Yes, I'm running for {news.office}."
        )
        return own, [found[0][0]]
    indices = [index for index, _ in found]
    for index in indices:
        heard = knowledge.said(memories[index - 1])
        if heard is not None and not same_person(heard.speaker, persona.name):
            cited = [index, *(i for i in indices if i != index)][:MAX_CITED]
            return f"Yes. {news.statement()} I heard about it from {heard.speaker}.", cited
    return f"Yes. {news.statement()}", indices[:MAX_CITED]


def _asked(question: str) -> Event | None:
    """The event a question names ("a Valentine's Day party"), if it names one."""
    asked = knowledge.events_in(question)
    return asked[0] if asked else None


def _event_mentions(memories: Sequence[str], asked: Event | None) -> Found:
    """Each memory's mention of the asked event (any concrete event when none is named)."""
    found: Found = []
    for index, memory in enumerate(memories, start=1):
        match = next((e for e in knowledge.events_of(memory) if _is_asked(e, asked)), None)
        if match is not None:
            found.append((index, match))
    return found


def _is_asked(event: Event, asked: Event | None) -> bool:
    """The same event: every word of the asked name ("Valentine's Day party") in this one's,
    and no other host."""
    if asked is None:
        return knowledge.is_news(event)
    if not stems(asked.name) <= stems(event.name):
        return False
    return not (asked.host and event.host and not same_person(asked.host, event.host))


def _merged(found: Sequence[News]) -> News:
    """One fact from every mention: an event takes each detail any mention gives, the most
    detailed mention first; a candidacy is its first mention."""
    first = found[0]
    if not isinstance(first, Event):
        return first
    events = sorted((e for e in found if isinstance(e, Event)), key=_details, reverse=True)
    merged = events[0]
    for other in events[1:]:
        merged = merged.merged(other)
    return merged


def _details(event: Event) -> int:
    return sum(value is not None for value in (event.host, event.place, event.day, event.start_min))


def _why_not(memories: Sequence[str], question: str) -> tuple[str, list[int]]:
    """Why the agent missed an event: what its plan for that day held when it started."""
    asked = _asked(question)
    found = _event_mentions(memories, asked) if asked is not None else []
    if not found:
        return "I'm afraid I didn't know about it.", []
    event = _merged([n for _, n in found])
    assert isinstance(event, Event)
    planned = _planned_at(memories, event)
    if planned is None:
        return "I'm sorry I missed it. I had other plans at the time.", [found[0][0]]
    index, what = planned
    if stems(event.name) <= stems(what):
        return "I meant to come, but I didn't make it in the end.", [index, found[0][0]]
    return f"I'm sorry I missed it. I was {progressive(what)} then.", [index, found[0][0]]


def _planned_at(memories: Sequence[str], event: Event) -> tuple[int, str] | None:
    """The item of the event day's outline under way at its start ("This is Rosa's plan for
    Tuesday February 14: 1) … at 6:00 pm, …"), with the outline's index."""
    if event.month is None or event.day is None or event.start_min is None:
        return None
    month = knowledge.MONTHS[event.month - 1]
    for index, memory in enumerate(memories, start=1):
        head = _DAY_PLAN.match(memory)
        if head is None or (head["month"], int(head["day"])) != (month, event.day):
            continue
        items = _in_day_order(
            [(find_times(m["time"])[0].minutes, m["what"]) for m in _PLAN_ITEM.finditer(memory)]
        )
        under_way = [what for start, what in items if start <= event.start_min]
        if under_way:
            return index, under_way[-1]
    return None


def _in_day_order(items: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
    """An outline's items with the ones after midnight ("go to bed at 12:00 am", last) counted
    past the day's end, so bedtime is not taken for what was under way at 6 pm."""
    ordered: list[tuple[int, str]] = []
    for start, what in items:
        while ordered and start < ordered[-1][0]:
            start += MINUTES_PER_DAY
        ordered.append((start, what))
    return ordered


def _answer_person(persona: Persona, memories: Sequence[str], name: str) -> tuple[str, list[int]]:
    """Yes with one fact from the first memory naming them (a sighting, a talk), else no."""
    for index, memory in enumerate(memories, start=1):
        if not mentions(memory, name):
            continue
        heard = knowledge.said(memory)
        seen = re.match(rf"^({re.escape(name)}[\w ]*?) is (\w+ing\b.*)$", memory.strip())
        if heard is not None:
            other = heard.listener if same_person(heard.speaker, persona.name) else heard.speaker
            detail = " We have talked with each other." if same_person(other, name) else ""
        elif seen is not None:
            detail = f" I last saw {seen[1]} {seen[2].rstrip('.')}."
        else:
            detail = ""
        return f"Yes, I know {name}.{detail}", [index]
    return f"No, I don't think I know {name}.", []


def _answer_generally(
    persona: Persona, memories: Sequence[str], question: str
) -> tuple[str, list[int]]:
    """The memory sharing most words with the question, retold as a fact it states."""
    wanted = stems(question)
    scored = [(len(wanted & stems(m)), i, m) for i, m in enumerate(memories, start=1)]
    best = [(score, i, m) for score, i, m in scored if score > 0]
    if not best:
        return "I'm not sure. Nothing comes to mind about that.", []
    best.sort(key=lambda s: (-s[0], s[1]))
    facts = [(_retold(m, persona), i) for _, i, m in best[:MAX_CITED]]
    facts = [(f, i) for f, i in facts if f]
    if not facts:
        return "I'm not sure. Nothing comes to mind about that.", []
    text = " ".join(f for f, _ in facts)
    return f"Let me think. {text}", [i for _, i in facts]


def _retold(memory: str, persona: Persona) -> str:
    """A memory as a sentence fit to say: facts restated, speech summarised, never quoted."""
    news = knowledge.news_in(memory)
    if news:
        return news[0].statement()
    heard = knowledge.said(memory)
    if heard is not None:
        other = heard.listener if same_person(heard.speaker, persona.name) else heard.speaker
        return f"I talked with {other} about it."
    if '"' in memory:
        return ""
    return sentence(memory)
