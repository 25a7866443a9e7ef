"""Answers to an interviewer without a model: the question's subject is looked up among the
facts of the retrieved memories (`knowledge`) and answered in a sentence built from the fact,
citing the memories it came from. Nothing the agent does not remember is claimed: with no
memory of it, the answer is no.

    question                              answer
    ------------------------------------  ------------------------------------------------
    "Do you know of <name>?"              "Yes, I know <name>. I last saw <name> brewing coffee."
    "Why didn't you come to <event>?"     what the day's plan held at the event's start, else
                                          other plans, else that the agent never heard of it
    about any news ("Did you hear about   the fact sharing most words with the question, every
    the wedding?", "Do you know who is    mention of it merged: "Yes. Ines's wedding is at
    running for …?", "… the bridge?")     St. Brigid's chapel on May 12 at noon. I heard about
                                          it from Tomas Ferreira."; no when none does and the
                                          question asks after news
    anything else                         the memories sharing most words with the question
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from cognition.grammar import progressive, sentence
from cognition.norms import MINUTES_PER_DAY
from cognition.offline import knowledge, topics
from cognition.offline.clock import EVENING_START, NOON, find_times
from cognition.offline.facts import MONTHS, WEEKDAYS, with_weekdays
from cognition.offline.knowledge import Fact
from cognition.offline.news import gathering
from cognition.offline.text import (
    NAME_WORD,
    content_words,
    mentions,
    same_person,
    stem,
    stems,
    words,
)
from cognition.offline.voice import styled
from cognition.places import parse_path
from cognition.types import Answer, Persona

KNOW_OF = re.compile(
    rf"^\s*(?i:do you know)(?: of| about)? (?P<name>{NAME_WORD}(?: {NAME_WORD})?)\s*\??\s*$"
)
WHY_NOT = re.compile(r"\bwhy (?:didn't|did not|couldn't|could not|weren't|were not) you\b", re.I)
ASKS_NEWS = re.compile(
    r"\b(?:did you (?:hear|know)|have you heard|do you know|are you aware|any news|"
    r"heard anything|know anything|(?:has|is) (?:any|some)thing (?:\w+ )?(?:happened|been|gone)|"
    r"(?:any|some)thing (?:has )?happened|what happened|(?:is|was) there (?:any|some)thing|"
    r"did (?:any|some)thing (?:\w+ )?happen|(?:any|some)thing (?:going on|wrong|up))\b",
    re.I,
)
QUESTION_WORDS = frozenset(
    stems(
        """did you hear heard know knew about there is are any anything news who what whether
        happening going on tell told aware event events thing something coming up upcoming
        village town around here lately recently"""
    )
)
"""Words of any question about news: they point at no news in particular."""
MAX_CITED = 3
_DAY_PLAN = re.compile(r"^This is .+?'s plan for (?:\w+day )?(?P<month>[A-Z][a-z]+) (?P<day>\d+):")
_PLAN_ITEM = re.compile(r"\d+\) (?P<what>.+?) at (?P<time>\d{1,2}:\d{2} [ap]m)")

WEEKEND = (5, 6)
"""Saturday and Sunday, as `datetime.weekday` numbers them."""
_DAY_PARTS = ((EVENING_START, "evening night tonight"), (NOON, "afternoon"), (0, "morning"))
"""Words of the part of the day a time falls in, latest first."""

_TONIGHT = re.compile(r"\btonight\b", re.I)
"""A word the stemmer drops as common, asking after the evening ("at the pub tonight?")."""

NOT_BY_THAT_NAME = "Not by that name, but perhaps you mean this:"
"""How an answer offers the one get-together known for an occasion asked after by name."""
Found = list[tuple[int, Fact]]
"""Mentions of one piece of news: (1-based memory index, the news as that memory tells it)."""


def answer(
    *,
    question: str,
    persona: Persona,
    summary: str,
    asker: str,
    memories: Sequence[str],
    now: datetime | None = None,
    known_places: Sequence[str] = (),
) -> Answer:
    """An in-character answer built from the facts of the cited memories (module docstring);
    `known_places` (paths) tell which place a question names by one of its rooms."""
    if WHY_NOT.search(question):
        text, cited = _why_not(memories, question, now)
    elif (person := KNOW_OF.search(question)) is not None:
        text, cited = _answer_person(persona, memories, person["name"])
    elif (found := _news_asked(memories, question, now, _rooms(known_places))) or ASKS_NEWS.search(
        question
    ):
        unnamed = [] if found else _unnamed_instead(memories, question, now)
        if found:
            text, cited = _affirm(persona, memories, found, now)
        elif unnamed:  # "the sake tasting?": the one get-together known, said to be that
            text, cited = _affirm(persona, memories, unnamed, now)
            text = re.sub(r"^Yes(?:, of course)?\.", NOT_BY_THAT_NAME, text)
        else:
            text, cited = "No, I haven't heard anything about that.", []
    else:
        text, cited = _answer_generally(persona, memories, question)
    return Answer(styled(text, persona.speaking_style, substance_first=True), tuple(cited))


def _news_asked(
    memories: Sequence[str], question: str, now: datetime | None, rooms: Rooms | None = None
) -> Found:
    """Every mention of the news that shares most words with the question (words any
    question about news has do not count, the rooms of a place it names count as its words);
    else of news in a memory that holds every word the question asks by; else of the news
    that shares its topic (`topics`); else nothing."""
    rooms = rooms or {}
    wanted = stems(_TONIGHT.sub("evening night", question)) - QUESTION_WORDS
    asked = [  # "Nia's workshop" names a room of Gweithdy Llechi, not a workshop to attend
        [stem(w) for w in content_words(name)]
        for name in gathering.names_in(question)
        if not any(stems(name) <= words for words in rooms.values())
    ]
    known: Found = [
        (index, fact)
        for index, memory in enumerate(memories, start=1)
        for fact in knowledge.news_in(memory, now=now, vague=True)
    ]
    mentions_ = [
        (index, fact)
        for index, fact in known
        if not asked or (fact.kind == gathering.NAME and any(_is_named(a, fact) for a in asked))
    ]
    if not mentions_ and asked:  # "the fish farm meeting", told as "an open meeting about
        # the new net pens of the fish farm": the occasion whose memory holds every word asked
        mentions_ = [
            (index, fact)
            for index, fact in known
            if fact.kind == gathering.NAME
            and any(set(a) <= _words_of(fact, now) | stems(memories[index - 1]) for a in asked)
        ]
    alone, _ = gathering.occasions()
    plain = [  # asked by a common name ("the community assembly"), not a proper one
        name
        for name in gathering.names_in(question)
        if not any(w[:1].isupper() or w.lower() in alone for w in name.split()[:-1])
    ]
    if not mentions_ and plain:  # "the community assembly", known as "the general assembly":
        # one occasion of that kind, and it is what is asked after
        heads = {stem(name.split()[-1].lower()) for name in plain}
        same_kind = [  # "the football match" is the rematch: its head ends with "match"
            (index, fact)
            for index, fact in known
            if fact.kind == gathering.NAME
            and fact.what
            and any(_headed(stem(fact.what.split()[-1].lower()), head) for head in heads)
        ]
        if len({fact.key for _, fact in same_kind}) == 1:
            mentions_ = same_kind
            wanted |= {stem(fact.what.split()[-1].lower()) for _, fact in same_kind}
    if not mentions_ and asked and all(len(a) == 1 for a in asked):
        # asked by a bare kind ("a ceremony at the station on Thursday") for an occasion
        # known by another name ("the plaque unveiling"): found by the rest of the question
        wanted -= {word for a in asked for word in a}
        mentions_ = [(index, fact) for index, fact in known if fact.kind == gathering.NAME]
    proper = _proper(question)
    scored = [
        (len(_asked_by(wanted, proper, fact) & _words_of(fact, now, rooms)), i, fact)
        for i, fact in mentions_
    ]
    best = max((score for score, _, _ in scored), default=0)
    if best == 0:  # asked by a word the memory holds but its news left out ("the post bus")
        scored = [
            (len(wanted), index, fact)
            for index, fact in mentions_
            if wanted and wanted <= _told_words(memories[index - 1])
        ]
        best = len(wanted) if scored else 0
    if best == 0:  # "people falling sick", told as "… vomiting": the news of that topic
        scored = [(1, index, fact) for index, fact in _of_topic(known, question, rooms)]
        best = 1 if scored else 0
    if best == 0:
        return []
    top = next(fact for score, _, fact in scored if score == best)
    return [(i, f) for _, i, f in scored if f.key == top.key or gathering.same_occasion(f, top)]


MIN_HEAD = 4
"""The shortest head a longer word may end with and still be of its kind ("rematch")."""


def _headed(word: str, head: str) -> bool:
    """Whether `word` is of the kind `head` names: it, or a longer word ending with it."""
    return word == head or (len(head) >= MIN_HEAD and word.endswith(head))


def _unnamed_instead(memories: Sequence[str], question: str, now: datetime | None) -> Found:
    """The one gathering known by no name of its own (a get-together someone bid people to),
    when the question asks after an occasion by a name none of the news has; else nothing."""
    if not gathering.names_in(question):
        return []
    unnamed = [
        (index, fact)
        for index, memory in enumerate(memories, start=1)
        for fact in knowledge.news_in(memory, now=now, vague=True)
        if fact.kind == gathering.NAME
        and fact.what == gathering.GET_TOGETHER
        and not gathering.is_over(fact, now)
    ]
    return unnamed if len({fact.key for _, fact in unnamed}) == 1 else []


def _is_named(asked: list[str], fact: Fact) -> bool:
    """Whether an occasion asked after by name (its words in order) is the fact: all its
    words are the fact's, or a word before its noun is ("the birthday tea" is Bridie's
    100th birthday; "the film night" is not the wax night)."""
    named = _named(fact)
    return set(asked) <= named or bool(set(asked[:-1]) & named)


def _named(fact: Fact) -> set[str]:
    """The words a gathering is called by: its name and its organiser's ("the sheepdog trial"
    is the Sheepdog Society's autumn trial)."""
    return stems(f"{fact.who or ''} {fact.what}")


def _words_of(fact: Fact, now: datetime | None = None, rooms: Rooms | None = None) -> set[str]:
    """The words a question may ask a fact by: its statement, its organiser, the weekday and
    part of the day it happens ("anything at the brewery on Thursday evening?" asks after a
    ceilidh on March 12 at 7 pm), and the rooms of the places it names ("the workshop" is a
    room of Gweithdy Llechi)."""
    words = stems(f"{fact.statement()} {fact.who or ''} {_when_words(fact, now)}")
    for place in _places_of(fact, rooms or {}):
        words |= (rooms or {})[place]
    return words


_WHEN = frozenset(
    stems("monday tuesday wednesday thursday friday saturday sunday weekend morning afternoon")
    | stems("evening night tonight today tomorrow")
)
"""Words of when: they ask after an occasion's time, not after news that has none ("on
Tuesday evening" is no "the same evening" of a notice's afterthought)."""


def _asked_by(wanted: set[str], proper: set[str], fact: Fact) -> set[str]:
    """The question's words that may find `fact`: not a name it has only in lower case, and
    no word of when for news without a time."""
    words = wanted - (proper - _proper(_said_of(fact)))
    return words if fact.kind == gathering.NAME else words - _WHEN


def _proper(text: str) -> set[str]:
    """The stems of the words a text capitalises for being names, not for opening it or for
    naming a day: asked about "San Roque Chapel", a "chapel road" is not it."""
    found = re.findall(r"(?<=[\w,;'’] )[A-Z][\w'’-]*", text)
    named = [w for w in found if w.capitalize() not in (*WEEKDAYS, *MONTHS)]
    return {stem(w) for w in words(" ".join(named))} - {"i"}


def _said_of(fact: Fact) -> str:
    return f"{fact.statement()} {fact.who or ''} {fact.place or ''}"


Rooms = dict[str, set[str]]
"""Each known place of the top level, with the stemmed words of the rooms in it."""


def _rooms(known_places: Sequence[str]) -> Rooms:
    rooms: Rooms = {}
    for path in known_places:
        parts = parse_path(path)
        words = rooms.setdefault(parts[0], set())
        if len(parts) > 1:
            words |= stems(parts[1])
    return rooms


def _places_of(fact: Fact, rooms: Rooms) -> list[str]:
    """The known places of the top level that a fact names, where it happens or in its words."""
    said = f"{fact.place or ''} {fact.statement()}".lower()
    return [place for place in rooms if place.lower() in said]


def _told_words(memory: str) -> set[str]:
    """The words of what a memory tells: a line said is its quote ("Bethan said to Nia: …"
    does not tell of Nia)."""
    line = knowledge.said(memory)
    return stems(line.text if line is not None else memory)


def _of_topic(known: Found, question: str, rooms: Rooms) -> Found:
    """The mentions of the first news (in the order the memories are put) that shares a topic
    with the question and names no other place than one the question names: asked about "the
    fire at the bakery", a cracked bridge is no answer; asked about "the water from the pump",
    septic tanks "leaking into it" may be."""
    asked = topics.topics_of(question)
    if not asked:
        return []
    words = stems(question)
    places = {place for place, room in rooms.items() if stems(place) <= words or room & words}
    for _, fact in known:
        named = set(_places_of(fact, rooms))
        if asked & topics.topics_of(fact.statement()) and (
            not places or not named or places & named
        ):
            return [(i, f) for i, f in known if f.key == fact.key]
    return []


def _when_words(fact: Fact, now: datetime | None) -> str:
    weekday = fact.weekday
    if weekday is None and now is not None and fact.month is not None and fact.day is not None:
        try:
            weekday = datetime(now.year, fact.month, fact.day).weekday()
        except ValueError:
            weekday = None
    day = WEEKDAYS[weekday] if weekday is not None else ""
    if weekday in WEEKEND:
        day = f"{day} weekend"  # "anything this weekend?" asks after Saturday and Sunday
    if fact.start_min is None:
        return day
    part = next(words for start, words in _DAY_PARTS if fact.start_min >= start)
    return f"{day} {part}"


def _affirm(
    persona: Persona, memories: Sequence[str], found: Found, now: datetime | None
) -> tuple[str, list[int]]:
    """ "Yes. <the fact, all its mentions merged>. I heard about it from <source>.", citing
    the source first; its date said with its weekday when `now` fixes the year."""
    news = _merged([n for _, n in found])
    indices = [index for index, _ in found]
    stated = news.statement() if now is None else with_weekdays(news.statement(), now)
    if news.about(persona.name):
        return f"Yes, of course. {stated}", indices[:MAX_CITED]
    for index in indices:
        heard = knowledge.said(memories[index - 1])
        if heard is not None and not same_person(heard.speaker, persona.name):
            cited = [index, *(i for i in indices if i != index)][:MAX_CITED]
            return f"Yes. {stated} I heard about it from {heard.speaker}.", cited
    if news.source and not same_person(news.source, persona.name):  # "X heard from Y that …"
        return f"Yes. {stated} I heard about it from {news.source}.", indices[:MAX_CITED]
    return f"Yes. {stated}", indices[:MAX_CITED]


def _merged(found: Sequence[Fact]) -> Fact:
    """One fact from every mention: the most detailed mention first, each detail any other
    mention gives added; a gathering keeps its longest name."""
    ordered = sorted(found, key=_details, reverse=True)
    merged = ordered[0]
    for other in ordered[1:]:
        merged = merged.merged(other)
    return merged


def _details(fact: Fact) -> int:
    known = (
        fact.who,
        fact.place,
        fact.day if fact.day is not None else fact.weekday,
        fact.start_min,
    )
    return sum(value is not None for value in known) * 100 + len(fact.what)


def _why_not(memories: Sequence[str], question: str, now: datetime | None) -> tuple[str, list[int]]:
    """Why the agent missed an event: what its plan for that day held when it started."""
    found = [(i, f) for i, f in _news_asked(memories, question, now) if f.kind == gathering.NAME]
    if not found:
        return "I'm afraid I didn't know about it.", []
    event = _merged([n for _, n in found])
    planned = _planned_at(memories, event)
    if planned is None:
        return "I'm sorry I missed it. I had other plans at the time.", [found[0][0]]
    index, what = planned
    if stems(event.what) <= stems(what):
        return "I meant to come, but I didn't make it in the end.", [index, found[0][0]]
    return f"I'm sorry I missed it. I was {progressive(what)} then.", [index, found[0][0]]


def _planned_at(memories: Sequence[str], event: Fact) -> tuple[int, str] | None:
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
