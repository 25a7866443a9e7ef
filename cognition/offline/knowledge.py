"""What the offline mind can know for sure from a memory's words: news, and who said what.

The offline mind never re-words a memory it does not understand (that is how "Hi me! I was
just thinking about how you are sleep" was born). It reads memories into structured facts
(`facts.Fact`, read by the kinds of `cognition.offline.news`) and composes every sentence it
says about them from those facts:

- `Said`: an utterance memory, `Junie Halvorsen said to Tomas Ferreira: "…"`, split into
  speaker, listener and the words (first person in them is the speaker).
- `news_in`: the facts a memory states, spoken words read as their speaker's: a gathering
  ("Ines's wedding at St. Brigid's chapel on Friday at noon"), a candidacy, a report ("the
  old mill bridge is cracked and unsafe").

Each fact renders itself as a complete sentence through its kind, so retelling it is
grammatical by construction, and two readings of the same news compare equal by `key`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import date, datetime

from cognition.offline.facts import MONTHS, Fact, clock_text, full_name
from cognition.offline.news import facts_in, gathering, kind_of, report
from cognition.offline.text import first_name, same_person
from cognition.types import LineSaid, MemoryDetail, Recalled

_SAID = re.compile(r'^(?P<speaker>.+?) said to (?P<listener>.+?): "(?P<text>.*)"\s*$', re.S)
_PLANNING = re.compile(r"^For .+?'s planning:\s*")
"""The head of a planning note, which names its owner, not a host."""
_HEARD_FROM = re.compile(r"^[^.:\"]{1,60}? heard from (?P<source>[^.:\"]{1,60}?) that ")
"""The head of a conversation's memo ("Tomas Ferreira heard from Junie Halvorsen that …")."""
_OUTLINE = re.compile(r"^This is .+?'s plan for ")
"""A day outline: what the agent meant to do, not news (its items' times are its own)."""

__all__ = [
    "MONTHS",
    "Fact",
    "Said",
    "clock_text",
    "first_name",
    "full_name",
    "full_names",
    "kind_of",
    "line_detail",
    "news_in",
    "occasions_on",
    "read_detail",
    "said",
    "spoken_news",
]


@dataclass(frozen=True)
class Said:
    """An utterance memory: who said what to whom."""

    speaker: str
    listener: str
    text: str


def said(memory: str) -> Said | None:
    """The parts of an utterance memory, or None for any other memory: from its stored detail
    when it has one (`Recalled`), else read from the words."""
    detail = _stored(memory)
    if detail is not None:
        line = detail.said
        return None if line is None else Said(line.speaker, line.listener, line.quote)
    return _said_in(memory)


def _said_in(memory: str) -> Said | None:
    match = _SAID.match(memory.strip())
    if match is None:
        return None
    return Said(match["speaker"].strip(), match["listener"].strip(), match["text"].strip())


def news_in(memory: str, *, now: datetime | None = None, vague: bool = False) -> list[Fact]:
    """The news of a memory; spoken words are read as their speaker's. With `vague`, also
    mentions of a gathering that say neither where nor when ("Daniel is going to Junie's
    party"): enough to know of it, not to tell or plan for. A memory with stored detail is
    not read again: its facts were read when it was written, on its own day."""
    detail = _stored(memory)
    found = _facts_in(memory, now=now) if detail is None else [Fact.of(f) for f in detail.news]
    return found if vague else [f for f in found if gathering.is_news(f)]


def _facts_in(memory: str, *, now: datetime | None) -> list[Fact]:
    """Every fact the words state, vague mentions included."""
    heard = _said_in(memory)
    if heard is not None:
        return spoken_news(heard.text, speaker=heard.speaker, now=now, vague=True)
    if _OUTLINE.match(memory):
        return []
    told = _HEARD_FROM.match(memory)
    if told is not None:  # a note of what someone said: its news has them as its source
        found = facts_in(memory[told.end() :], now=now)
        return [f if f.source else replace(f, source=told["source"]) for f in found]
    return facts_in(_PLANNING.sub("", memory), now=now)


def read_detail(
    text: str, *, now: datetime | None, told: bool = False, speaker: str | None = None
) -> MemoryDetail:
    """A memory's fields, read once as it is stored (`now`: when it happened, so "tomorrow"
    is its own tomorrow): the line it records, the news it carries. `told`: the memory is
    news by how it came (an admin's seed), whatever its words weigh, written by `speaker`
    (its "I")."""
    heard = _said_in(text)
    line = None if heard is None else LineSaid(heard.speaker, heard.listener, heard.text)
    found = facts_in(text, now=now, told=True, speaker=speaker) if told and heard is None else None
    news = found if found is not None else _facts_in(text, now=now)
    return MemoryDetail(said=line, news=tuple(f.record() for f in news))


def line_detail(speaker: str, listener: str, quote: str, *, now: datetime) -> MemoryDetail:
    """The fields of a line as its conversation stores it: who said it to whom, and the news
    in the words, read as the speaker's."""
    news = spoken_news(quote, speaker=speaker, now=now, vague=True)
    return MemoryDetail(
        said=LineSaid(speaker, listener, quote), news=tuple(f.record() for f in news)
    )


def _stored(memory: str) -> MemoryDetail | None:
    return memory.detail if isinstance(memory, Recalled) else None


def spoken_news(
    text: str, *, speaker: str, now: datetime | None = None, vague: bool = False
) -> list[Fact]:
    """The news of a line said by `speaker` ("my wedding" is the speaker's)."""
    found = facts_in(text, speaker=speaker, now=now)
    return found if vague else [f for f in found if gathering.is_news(f)]


def occasions_on(texts: Sequence[str], *, day: date, now: datetime | None = None) -> list[Fact]:
    """The timed gatherings the texts put on a day, mentions of one merged; a mention without
    an organiser takes the organiser another mention of the same occasion names."""
    found = [
        fact
        for text in texts
        for fact in news_in(text, now=now)
        if fact.kind == gathering.NAME and fact.start_min is not None and fact.on(day)
    ]
    merged: list[Fact] = []
    for fact in found:
        same = next((i for i, m in enumerate(merged) if gathering.same_occasion(m, fact)), None)
        if same is None:
            merged.append(fact)
            continue
        longer, shorter = sorted((merged[same], fact), key=lambda f: len(f.what), reverse=True)
        merged[same] = replace(longer.merged(shorter), what=longer.what)
    return merged


def firsthand(texts: Sequence[str], *, name: str, now: datetime | None = None) -> list[Fact]:
    """The news the texts tell of that `name` knew before anyone told them: a notice they
    read, a thing they saw or were born knowing ("…, Nora Flood says" in Nora's own memory).
    Whoever knows news first is the one to spread it, and tells it as their own. Being told
    it later does not change that; a line that tells it back to them ("Gethin told me that the
    concert …", said to Gethin) never counts, and a line of unknown time counts as earlier. A
    plan to go is not knowing it."""
    told = [
        (_at(text), fact)
        for text in texts
        if ((line := said(text)) is not None and not _told_back(line, name))
        or _PLANNING.match(text)
        for fact in news_in(text, now=now)
    ]
    first: list[Fact] = []
    for at, fact in own_news(texts, name=name, now=now):
        earlier = (t for when, t in told if at is None or when is None or when <= at)
        if not any(_same_news(fact, t) for t in earlier):
            first.append(fact)
    return first


def own_news(
    texts: Sequence[str], *, name: str, now: datetime | None = None
) -> list[tuple[datetime | None, Fact]]:
    """The news of memories no one said to `name` in the world (a seed, a notice, a sighting,
    a call from someone outside it), with when each was remembered when known; a memo of
    what someone in the world said ("X heard from Y that …") is theirs."""
    return [
        (_at(text), fact)
        for text in texts
        if said(text) is None and not _PLANNING.match(text) and not _HEARD_FROM.match(text)
        for fact in news_in(text, now=now)
        if not _theirs(fact, name)
    ]


def _at(text: str) -> datetime | None:
    return text.at if isinstance(text, Recalled) else None


def _told_back(line: Said, name: str) -> bool:
    """A line by which `name` is told their own news back: said by them, or to them naming
    them as whom it was heard from."""
    if same_person(line.speaker, name):
        return True
    return same_person(line.listener, name) and (
        re.search(
            rf"\b{re.escape(first_name(name))}\b(?: \w+)? (?:told|tells|said|says)\b", line.text
        )
        is not None
    )


def _theirs(fact: Fact, name: str) -> bool:
    """Plain news that is someone else's ("Ines worries the bridge is cracked"): learned
    from them, whoever wrote it down."""
    return fact.kind == report.NAME and bool(fact.who) and not fact.about(name)


def _same_news(a: Fact, b: Fact) -> bool:
    return a.key == b.key or gathering.same_occasion(a, b)


def full_names(names: Iterable[str], known: Sequence[str]) -> list[str]:
    """Each name as the fullest known spelling ("Junie" → "Junie Halvorsen")."""
    return [full_name(name, known) for name in names]
