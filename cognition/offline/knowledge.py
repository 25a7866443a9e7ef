"""What the offline mind can know for sure from a memory's words: events, candidacies, speech.

The offline mind never re-words a memory it does not understand (that is how "Hi me! I was
just thinking about how you are sleep" was born). It reads memories into a few typed facts
and composes every sentence it says about them from those facts:

- `Said`: an utterance memory, `Junie Halvorsen said to Tomas Ferreira: "…"`, split into
  speaker, listener and the words (first person in them is the speaker).
- `Event`: a gathering with a name and as much of host, place, date and time as the text
  gives — "Junie is planning a Valentine's Day party at The Copper Kettle on February 14 from
  6pm to 8pm", "I'm hosting a Valentine's Day party …" (said by Junie), "Junie Halvorsen's
  Valentine's Day party".
- `Candidacy`: someone running for an office — "Walter is running for a seat on the Larkspur
  town council".

Each fact renders itself as a complete sentence (`statement`), so retelling it is grammatical
by construction, and two readings of the same news compare equal by `key`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from cognition.offline.clock import find_times
from cognition.offline.text import same_person

EVENT_NOUNS = (
    "party",
    "celebration",
    "dinner party",
    "gathering",
    "open house",
    "concert",
    "recital",
    "poetry reading",
    "reading",
    "open mic",
    "exhibition",
    "picnic",
    "potluck",
    "fundraiser",
    "festival",
    "rally",
    "debate",
    "meeting",
)
"""Nouns that name a gathering people can be invited to; longer names first when matching."""
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
HOST_VERBS = (
    "planning|hosting|throwing|organizing|organising|holding|having|giving|arranging|"
    "putting on|running|preparing"
)
MODIFIER_WORDS = 4
"""At most this many words of an event's name before its noun ("Valentine's Day party")."""
MINUTES_PER_HOUR = 60
NOON = 12 * MINUTES_PER_HOUR

_NAME = r"[A-Z][a-z]+(?:[ -][A-Z][a-z]+)?"
_SAID = re.compile(r'^(?P<speaker>.+?) said to (?P<listener>.+?): "(?P<text>.*)"\s*$', re.S)
_NOUN_RE = "|".join(sorted((re.escape(n) for n in EVENT_NOUNS), key=len, reverse=True))
_EVENT = re.compile(
    rf"(?P<det>\b(?:a|an|the|her|his|their|my|our|{_NAME}(?:'s|’s))\s+)"
    rf"(?P<mods>(?:[\w'’-]+\s+){{0,{MODIFIER_WORDS}}}?)(?P<noun>{_NOUN_RE})\b",
)
_HOST = re.compile(
    rf"(?P<who>\bI|{_NAME})(?:'m|’m| am| is| are| was| has been| will be)?\s+"
    rf"(?:(?:also|still|now)\s+)?(?:{HOST_VERBS})\b"
)
_PLACE = re.compile(r"\b(?:at|in)\s+(?P<place>(?:The\s+)?[A-Z][\w'’]*(?:\s+[A-Z][\w'’]*)*)")
_DATE = re.compile(
    rf"\bon\s+(?:(?P<weekday>{'|'.join(WEEKDAYS)}),?\s+)?(?:the\s+)?"
    rf"(?:(?P<month>{'|'.join(MONTHS)})\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?"
    rf"|(?P<day2>\d{{1,2}})(?:st|nd|rd|th)?\s+of\s+(?P<month2>{'|'.join(MONTHS)}))"
)
_CANDIDACY = re.compile(
    rf"(?P<who>\bI|{_NAME})(?:'m|’m| am| is|'s| has been)?\s+(?:also\s+|now\s+)?"
    r"(?:running|standing|campaigning)\s+for\s+(?P<office>(?:a |the )?"
    r"(?:seat on (?:the )?)?[A-Za-z' ]*?(?:council|mayor|office|board|committee|president))\b"
)
_SENTENCE_END = re.compile(r"[.!?;](?:\s|$)")
_CLAUSE_END = re.compile(r",\s*\d+\)|,\s*(?!(?:the\s+)?\d|" + "|".join(MONTHS) + r")|;|\.\s")
_PLANNING = re.compile(r"^For .+?'s planning:\s*")
"""The head of a planning note, which names its owner, not a host."""


@dataclass(frozen=True)
class Said:
    """An utterance memory: who said what to whom."""

    speaker: str
    listener: str
    text: str


@dataclass(frozen=True)
class Event:
    """A gathering; any field but `name` may be unknown."""

    name: str
    """Without article: "Valentine's Day party"."""
    host: str | None = None
    place: str | None = None
    month: int | None = None
    day: int | None = None
    start_min: int | None = None
    end_min: int | None = None

    @property
    def key(self) -> str:
        """What makes two mentions the same event: its name and host's first name."""
        return f"{self.name.casefold()}|{first_name(self.host or '').casefold()}"

    def described(self) -> str:
        """ "a Valentine's Day party at The Copper Kettle on February 14 from 6 pm to 8 pm"."""
        return f"{article(self.name)} {self.name}{self.details()}"

    def details(self) -> str:
        """Place, date and time, each as far as known: " at … on … from … to …"."""
        parts = [f" at {self.place}" if self.place else ""]
        if self.month is not None and self.day is not None:
            parts.append(f" on {MONTHS[self.month - 1]} {self.day}")
        if self.start_min is not None and self.end_min is not None:
            parts.append(f" from {clock_text(self.start_min)} to {clock_text(self.end_min)}")
        elif self.start_min is not None:
            parts.append(f" at {clock_text(self.start_min)}")
        return "".join(parts)

    def statement(self) -> str:
        """The event as a sentence: "Junie Halvorsen is hosting a … party at … on …"."""
        if self.host:
            return f"{self.host} is hosting {self.described()}."
        return f"There is {self.described()}."

    def merged(self, other: Event) -> Event:
        """This event with any detail it lacks taken from another mention of it."""
        return replace(
            self,
            host=self.host or other.host,
            place=self.place or other.place,
            month=self.month if self.month is not None else other.month,
            day=self.day if self.day is not None else other.day,
            start_min=self.start_min if self.start_min is not None else other.start_min,
            end_min=self.end_min if self.end_min is not None else other.end_min,
        )


@dataclass(frozen=True)
class Candidacy:
    """Someone running for an office."""

    who: str
    office: str

    @property
    def key(self) -> str:
        return f"candidacy|{first_name(self.who).casefold()}"

    def statement(self) -> str:
        return f"{self.who} is running for {self.office}."


News = Event | Candidacy


def said(memory: str) -> Said | None:
    """The parts of an utterance memory, or None for any other memory."""
    match = _SAID.match(memory.strip())
    if match is None:
        return None
    return Said(match["speaker"].strip(), match["listener"].strip(), match["text"].strip())


def events_in(text: str, *, speaker: str | None = None) -> list[Event]:
    """Every event the text mentions; `speaker` is who "I" is (for spoken words)."""
    found: list[Event] = []
    for sentence in _sentences(text):
        for match in _EVENT.finditer(sentence):
            found.append(_event(sentence, match, speaker))
    return found


def _event(sentence: str, match: re.Match[str], speaker: str | None) -> Event:
    name = f"{match['mods']}{match['noun']}".strip()
    after = sentence[match.end() :]
    return Event(
        name=name,
        host=_host(sentence[: match.start()], match["det"], speaker),
        place=_place(after),
        **_date(after),
        **_times(after),
    )


def _host(before: str, det: str, speaker: str | None) -> str | None:
    """Who gives the event: a possessive ("Junie's party") or the subject of a host verb."""
    det = det.strip()
    if det.endswith(("'s", "’s")):
        return det[:-2]
    if det.lower() in {"my", "our"}:
        return speaker
    hosts = list(_HOST.finditer(before))
    if not hosts:
        return None
    who = hosts[-1]["who"]
    return speaker if who == "I" else who


def _place(after: str) -> str | None:
    match = _PLACE.search(after)
    if match is None or match["place"].split()[0] in MONTHS + WEEKDAYS:
        return None
    return match["place"].strip()


def _date(after: str) -> dict[str, int | None]:
    match = _DATE.search(after)
    if match is None:
        return {"month": None, "day": None}
    month = match["month"] or match["month2"]
    day = match["day"] or match["day2"]
    return {"month": MONTHS.index(month) + 1, "day": int(day)}


def _times(after: str) -> dict[str, int | None]:
    """Start and end from "from 6pm to 8pm" / "at 6 pm" (a bare hour up to 11 is evening),
    read only up to the end of the event's own clause (a list's next item is another thing)."""
    window = _CLAUSE_END.split(after, maxsplit=1)[0]
    times = [t for t in find_times(window) if t.minutes or not t.ambiguous]
    if not times:
        return {"start_min": None, "end_min": None}
    start = _evening(times[0].minutes, times[0].ambiguous)
    end = _evening(times[1].minutes, times[1].ambiguous) if len(times) > 1 else None
    return {"start_min": start, "end_min": end}


def _evening(minutes: int, ambiguous: bool) -> int:
    """A gathering "at 6" is at 6 pm: bare hours from 1 to 11 are read as afternoon/evening."""
    if ambiguous and 1 * MINUTES_PER_HOUR <= minutes < NOON:
        return minutes + NOON
    return minutes


def candidacies_in(text: str, *, speaker: str | None = None) -> list[Candidacy]:
    """Everyone the text says is running for an office."""
    found: list[Candidacy] = []
    for match in _CANDIDACY.finditer(text):
        who = speaker if match["who"] == "I" else match["who"]
        if who:
            found.append(Candidacy(who=who, office=" ".join(match["office"].split())))
    return found


def news_in(memory: str) -> list[News]:
    """The events and candidacies in a memory; spoken words are read as their speaker's."""
    text, speaker = _voiced(memory)
    events = [e for e in events_in(text, speaker=speaker) if is_news(e)]
    return [*events, *candidacies_in(text, speaker=speaker)]


def events_of(memory: str) -> list[Event]:
    """Every event a memory mentions, however vague ("see you at the party"); spoken words
    are read as their speaker's."""
    text, speaker = _voiced(memory)
    return events_in(text, speaker=speaker)


def _voiced(memory: str) -> tuple[str, str | None]:
    """A memory's words and who says them: the speaker of an utterance, else no one (a
    planning note's head names its owner, not a host, and is dropped)."""
    heard = said(memory)
    return (heard.text, heard.speaker) if heard else (_PLANNING.sub("", memory), None)


def about(news: News, name: str) -> bool:
    """Whether the news is the person's own: their event or their candidacy."""
    subject = news.host if isinstance(news, Event) else news.who
    return bool(subject) and same_person(subject or "", name)


def is_news(event: Event) -> bool:
    """An event worth telling someone about: it says where or on what day."""
    return event.place is not None or event.month is not None


def events_on(texts: Sequence[str], *, month: int, day: int) -> list[Event]:
    """The timed events the texts (memories: speech read as its speaker's) put on a day; a
    mention without a host is the same event as a hosted one of the same name."""
    found = [
        news
        for text in texts
        for news in news_in(text)
        if isinstance(news, Event)
        and (news.month, news.day) == (month, day)
        and news.start_min is not None
    ]
    hosts = {e.name.casefold(): e.host for e in found if e.host}
    return [
        e if e.host or e.name.casefold() not in hosts else replace(e, host=hosts[e.name.casefold()])
        for e in found
    ]


def full_names(names: Iterable[str], known: Sequence[str]) -> list[str]:
    """Each name as the fullest known spelling ("Junie" → "Junie Halvorsen")."""
    return [full_name(name, known) for name in names]


def full_name(name: str, known: Sequence[str]) -> str:
    """The first known full name sharing this first name, else the name itself."""
    first = first_name(name)
    return next((k for k in known if first_name(k) == first and len(k) > len(name)), name)


def first_name(name: str) -> str:
    parts = name.split()
    return parts[0] if parts else name


def article(noun_phrase: str) -> str:
    """ "a" or "an" for a noun phrase ("an open house", "a Valentine's Day party")."""
    return "an" if noun_phrase[:1].lower() in "aeiou" else "a"


def clock_text(minutes: int) -> str:
    """ "6 pm", "7:30 am", "noon", "midnight"."""
    minutes %= 24 * MINUTES_PER_HOUR
    if minutes == 0:
        return "midnight"
    if minutes == NOON:
        return "noon"
    hour, minute = divmod(minutes, MINUTES_PER_HOUR)
    suffix = "am" if hour < 12 else "pm"
    hour = hour % 12 or 12
    return f"{hour} {suffix}" if minute == 0 else f"{hour}:{minute:02d} {suffix}"


def _sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(text) if s.strip()]
