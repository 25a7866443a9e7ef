"""Kinds of news the offline mind understands, each a small plug-in behind one protocol.

A kind recognises its facts in a sentence, says what makes two mentions the same news, and
says the fact again — as a statement, as its organiser's pitch, as gossip with its source, as
a welcome on hearing it, as an interview answer — and what it puts in the plans of those who
go. A new kind is one module in this package, added to `KINDS`:

    gathering   any occasion with a name, place and time: a wedding, a farewell bake sale,
                a poetry night, a funeral, a match (the demo's Valentine's Day party is one)
    candidacy   someone running for an office (the demo's council candidacy is one)
    report      plain news with no time: "the old mill bridge is cracked and unsafe", "the
                mayor resigned" — kept when it matters (its importance)

`facts_in` reads every kind over a text's sentences; the kinds are tried in order and a
sentence one kind explained is not read again as a report.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import lru_cache
from typing import Protocol

from cognition.offline import importance
from cognition.offline.clock import numeric_times
from cognition.offline.facts import WEEKDAYS, Fact, sentences
from cognition.offline.news import candidacy, gathering, report, story
from cognition.offline.shorthand import written_out
from cognition.offline.text import (
    NAME_WORD,
    STOPWORDS,
    first_name,
    people,
    possessive,
    same_person,
    word_set,
    words,
)


@dataclass(frozen=True)
class Slot:
    """What a fact puts in the plan of someone who goes: minutes of the day, what, where."""

    start: int
    end: int
    description: str
    place: str | None


class NewsKind(Protocol):
    """One kind of news (module docstring)."""

    name: str

    def recognise(self, sentence: str, *, speaker: str | None, now: datetime | None) -> list[Fact]:
        """The facts of this kind a sentence states; `speaker` is who "I" is."""
        ...

    def key(self, fact: Fact) -> str:
        """What makes two mentions the same news."""
        ...

    def statement(self, fact: Fact) -> str:
        """The fact as a complete sentence."""
        ...

    def pitch(self, fact: Fact, *, listener: str) -> str:
        """Its organiser (or subject) telling someone: an invitation, an appeal, a worry."""
        ...

    def retell(
        self, fact: Fact, *, source: str | None, variant: int, firsthand: bool = False
    ) -> str:
        """Someone else passing it on, naming whom they heard it from; with `firsthand`, one
        who knew it before anyone told them (no "I heard that …")."""
        ...

    def welcome(self, fact: Fact, *, listener: str, variant: int) -> str:
        """Hearing it for the first time (`listener`: who told it)."""
        ...

    def own_reply(self, fact: Fact) -> str:
        """Being told one's own news."""
        ...

    def slots(self, fact: Fact, *, name: str) -> list[Slot]:
        """What it puts in the day plan of `name`, who goes (none for news without a time)."""
        ...


KINDS: tuple[NewsKind, ...] = (gathering.KIND, candidacy.KIND, report.KIND)
"""Tried in this order on each sentence."""
_BY_NAME = {kind.name: kind for kind in KINDS}


def kind_of(fact: Fact) -> NewsKind:
    return _BY_NAME[fact.kind]


def facts_in(
    text: str, *, speaker: str | None = None, now: datetime | None = None, told: bool = False
) -> list[Fact]:
    """Every fact the text states, in order; spoken words are read as `speaker`'s. With
    `told`, the text is known to be news (an admin's seed), so a plain statement with nothing
    else in it is a report whatever its importance ("Old Mr Jenkins passed away last night")."""
    if _ACQUAINTANCE.match(text):
        return []  # "Shirley Dyck knows Harvey: her cribbage partner; lonely since Olga died"
    message = quoted_message(text, speaker)
    if message is not None:  # "Kayla texted the group chat: \"ok so TRIVIA …\"": the message
        inner = facts_in(message[0], speaker=message[1], now=now, told=told)
        medium = _MEDIUM.search(text[: text.find(message[0])])  # "An email Agata found …:"
        if medium or any(_news(f) for f in inner):  # an occasion its writer announces is theirs
            return [_written_by(f, message[1]) for f in inner]
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0) if now else None
    found = list(_facts_in(text, speaker, midnight))
    if not told:
        return found
    parts = _parts(text)
    first = next((p for p in parts if not report.reacts(p)), parts[0] if parts else "")
    lead = _facts_in(first, speaker, midnight) if parts else ()
    planned = any(f.kind == gathering.NAME and f.timed for f in found)
    scene = story.sets_scene(first)  # "Three days ago, after a long shift, …": a story
    if parts and (scene or not any(_news(f) for f in lead)) and not planned:
        plain = report.told(parts, speaker)  # news leads: its first sentence is the news
        if plain is not None and plain.key not in {f.key for f in found}:
            rest = [f for f in found if f.kind != report.NAME]  # what follows tells of it
            weight = max((f.weight for f in found), default=plain.weight)
            found = [replace(plain, weight=max(plain.weight, weight)), *rest]
    return found


@lru_cache(maxsize=8192)
def _facts_in(text: str, speaker: str | None, now: datetime | None) -> tuple[Fact, ...]:
    """Cached by the day (the facts of a text change only with the day that "Friday" means):
    the same memories are read again at every turn of every conversation."""
    found: list[Fact] = []
    origins: list[int] = []  # the sentence each fact was read from
    parts = _parts(text)
    reported = False  # the sentence before stated a report: the next may go on with it
    dated_by = -1  # the sentence that gave the one before it its day
    for index, sentence in enumerate(parts):
        if index == dated_by:
            continue
        if found and gathering.bids(sentence):  # "… offered to teach CPR. Come on Wednesday at 6."
            more = gathering.continued(found[-1], sentence, now=now)
            if more is not None:
                found[-1], reported = more, False
                continue
        for kind in KINDS:
            facts = kind.recognise(sentence, speaker=speaker, now=now)
            if facts:
                found.extend(facts)
                origins.extend([index] * len(facts))
                reported = kind is report.KIND
                break
        else:
            after = parts[index + 1] if index + 1 < len(parts) else ""
            dated = _dated_by_next(sentence, after, speaker, now)
            if dated is not None:  # "… the dugnad at the boathouse. Friday, half past five."
                found.append(dated)
                origins.append(index)
                dated_by, reported = index + 1, False
                continue
            more = report.continued(found[-1], sentence) if reported else None
            if more is None and found:  # "… offered to teach CPR. Come on Wednesday at 6."
                more = gathering.continued(found[-1], sentence, now=now)
            if more is not None:
                found[-1] = more
            elif (held := _last_gathering(found)) is not None:
                purposed = gathering.for_purpose(found[held], sentence)  # "We must vote on …"
                found[held] = purposed or found[held]
            reported = False
    for at, (fact, origin) in enumerate(zip(found, origins, strict=True)):
        title = gathering.heading(parts[origin - 1]) if origin > 0 else None
        if fact.what == gathering.WORK and title is not None:  # the notice's title names it
            found[at] = replace(fact, what=title)
    for at, (fact, origin) in enumerate(zip(found, origins, strict=True)):
        if fact.what not in gathering.MEETINGS or fact.who is not None:
            continue  # only a meeting no one holds is named by the news before it
        lead = next((f for f in found[:at] if f.kind == report.NAME), None)
        lead = lead or next(filter(None, (_states(p, speaker) for p in parts[:origin])), None)
        if lead is not None:  # "NOTICE: salinity … has reached 4 per mille. Meeting … at 7"
            found[at] = gathering.about(fact, lead.what)
    found = _for_milestone(found, origins, parts, speaker)
    titled = {f.what for f in found if f.timed}
    kept = [  # the title read alone before the call under it is not news of its own
        (f, o) for f, o in zip(found, origins, strict=True) if f.timed or f.what not in titled
    ]
    found, origins = [f for f, _ in kept], [o for _, o in kept]
    if not found and len(parts) > 1 and (led := report.lead(parts, speaker)) is not None:
        found, origins = [report.continued(led, parts[1]) or led], [0]
    if gathering.open_to_all(text):
        if not any(f.kind == gathering.NAME for f in found):  # a doing everyone may come to
            found = _with_activity(found, origins, parts, text, speaker, now)
        found = [gathering.opened(f) for f in found]
    return tuple(gathering.at_part_of_day(f, text) for f in found)


def _last_gathering(found: list[Fact]) -> int | None:
    """The index of the last gathering found so far, if any."""
    return next((i for i in range(len(found) - 1, -1, -1) if found[i].kind == gathering.NAME), None)


def _for_milestone(
    found: list[Fact], origins: list[int], parts: list[str], speaker: str | None
) -> list[Fact]:
    """The one occasion a text times, named for the birthday it tells without a time ("He turns
    seventy this week … So on Tuesday, at six, we're having a curanto en olla at Hilda's" is
    the curanto en olla for Segundo's 70th birthday); "he" is whom the sentence before names."""
    timed = [i for i, f in enumerate(found) if f.kind == gathering.NAME and f.timed]
    milestones = [
        (f, o)
        for f, o in zip(found, origins, strict=True)
        if f.kind == gathering.NAME and not f.timed and f.what.endswith(_MILESTONES)
    ]
    if len(timed) != 1 or len(milestones) != 1 or found[timed[0]].what.endswith(_MILESTONES):
        return found
    (milestone, origin), at = milestones[0], timed[0]
    whose = milestone.who
    if whose in ("He", "She", "he", "she") or whose is None:
        named = [p for i in range(origin, -1, -1) for p in people(parts[i])]
        named = [p for p in named if speaker is None or not same_person(p, speaker)]
        whose = named[0] if named else None
    if whose is None or (speaker is not None and same_person(whose, speaker)):
        return found
    what = f"{found[at].what} for {possessive(whose)} {milestone.what}"
    return [replace(found[at], what=what) if i == at else f for i, f in enumerate(found)]


_MILESTONES = ("birthday", "anniversary", "retirement", "engagement")
"""What a gathering may be held for, told apart from it ("He turns seventy this week")."""


_ACQUAINTANCE = re.compile(rf"^{NAME_WORD}(?: {NAME_WORD}){{0,3}} knows {NAME_WORD}[^:.]*[:.]")
"""A persona's seeded acquaintance ("X knows Y: how."): what someone is to someone, not news."""


def _states(part: str, speaker: str | None) -> Fact | None:
    """The report a sentence states, or what follows its last colon does ("Forwarded by Sau:
    >> NOTICE: salinity on the river has reached …")."""
    return report.stated(part, speaker) or (
        report.stated(part.rsplit(": ", 1)[1], speaker) if ": " in part else None
    )


_NARRATED = re.compile(
    r"^(?:[^\"“”,:]{1,40},\s+|(?i:this|last|yesterday|earlier|today)\b"
    r"(?: (?:morning|afternoon|evening|night|week))?\s+|[Oo]n [A-Z][a-z]+\s+)?"
    r"(?:(?P<who>I|[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)\s+)?"
    r"(?P<narration>[^\"“”]{2,400}?)[:,]?\s*[\"“](?P<message>[^\"“”]{12,})[\"”]\s*[.!]?\s*$"
)
"""A message quoted whole after who wrote or said it ("Suma put up this notice on the church
gate: \"NOTICE. …\"", "This morning, Shaji posted on the group: \"carrom FINAL tonight …\"")."""
_NARRATED_FIRST = re.compile(
    _NARRATED.pattern.removesuffix(r"[\"”]\s*[.!]?\s*$") + r"[\"”](?P<after>.*[\"“].*)$", re.S
)
"""A narration around more than one quote in the same voice ("… she said the same thing:
\"Listen …\" And as they went down the steps, she called after them: \"…\"")."""
_QUOTE = re.compile(r"[\"“]([^\"“”]+)[\"”]")
_NARRATED_BLOCK = re.compile(
    r"^(?:(?P<who>I|[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)\s+)?"
    r"(?P<narration>[^\"“”\n:]{2,400}?):[ \t]*\n\s*(?P<message>\S.{11,})$",
    re.S,
)
"""A message set out on its own lines after who wrote it, unquoted ("Zurab wrote this on a
sheet to pin on the board at the Spring:\nNADI!\nFRIDAY …")."""
_TAGGED = re.compile(rf"^(?P<who>{NAME_WORD}(?: {NAME_WORD})?),\s[^\"“”:]{{2,200}}:\s*[\"“]")
"""A quote tagged with its speaker's name and what they were doing, then a colon: theirs."""
_NARRATING = re.compile(
    r"\b(?:posted|put up|pinned|stuck up|wrote|written|photocopied|printed|texted|messaged|"
    r"sent|emailed|e-mailed|said|says|shouted|called out|announced|told|tells|read out|"
    r"put out|left|chalked|scrawled|typed|rang|phoned|wrote up|read|broadcast|called|writes|"
    r"post|note|notice|poster|sign|message|letter|email|text)\b",
    re.I,
)
_MEDIUM = re.compile(
    r"\b(?:post|note|notes|notice|poster|sign|message|letter|email|e-mail|text|notebook|diary|"
    r"journal|postcard|card|flyer|leaflet|voicemail|telephone|phone call|the phone|group chat|"
    r"page|facebook|whatsapp|instagram|feed|forum|noticeboard|notice board|bulletin|newsletter)\b",
    re.I,
)
"""What a narration says the message came in ("An email Agata found on her phone …:", "Written
in pencil … in the small notebook …:"): the narration tells of the message, not news."""


_DETERMINERS = frozenset("the a an this that his her my our their".split())  # noqa: SIM905
"""Words after a narration's capitalised head that make it a place ("Behind the bar")."""
_NO_ONE = frozenset(("The", "This", "That", "A", "An", "Our", "My", "Yesterday"))
"""Words at a narration's head after which no one's own words are quoted."""
_NO_WRITER = frozenset(
    ("Written", "Typed", "Scrawled", "Posted", "Pinned", "Sent", "Shouted", "Printed", "What")
)
"""Words at a narration's head that name no writer ("Written in pencil in the notebook Pacita
keeps …:", "What Nino shouted down the telephone …:"): whoever the narration names is."""


def quoted_message(text: str, speaker: str | None) -> tuple[str, str | None] | None:
    """The message a text quotes after saying who wrote or said it, and whose words they
    are (the writer, or `speaker` when that is who "I" or the writer's first name is); None
    when the text is no narration around one message."""
    match = _NARRATED.match(text.strip()) or _NARRATED_BLOCK.match(text.strip())
    later = ""  # what the same voice says in quotes after the narration goes on
    if match is None:
        match = _NARRATED_FIRST.match(text.strip())
        if match is None:
            return None
        later = " ".join(q for q in _QUOTE.findall(match["after"]) if len(q) >= 12)
    before = text.strip()[: match.start("message")]  # all that is said of the message
    tagged = _TAGGED.match(text.strip())  # "Marisol, leaning over the wall: …"
    if not (_NARRATING.search(before) or _MEDIUM.search(before) or tagged):
        return None
    writer: str | None = tagged["who"] if tagged else match["who"]
    if writer is not None and writer.endswith(("'s", "’s")):
        writer = writer[:-2]  # "Priya's post on the Community Board: …" is Priya's
    if writer is not None and writer.split()[0] in _NO_ONE:
        if _writes(speaker, before):  # "A message Fiifi typed …": Fiifi's
            return _said(match, later), speaker
        if writer.split()[0] in ("A", "An") and _NARRATING.search(writer + match["narration"]):
            return _said(match, later), None  # "A letter …, which Kwesi has had …:"
        return None  # "The council posted: …": no one's own words to read as "I"
    narration = match["narration"].split()
    placed = narration[0].lower() in _DETERMINERS if narration else False
    unnamed = writer is not None and writer.split()[0] in _NO_WRITER
    if (
        writer is not None
        and writer != "I"
        and (writer.split()[0].lower() in STOPWORDS or placed or unnamed)
    ):
        # "At the counter … Shinji leaned over … and said:", "Behind the bar …": a place at
        # the head, no writer; the teller's own first name in the narration makes it theirs
        named = speaker is not None and first_name(speaker) in (*narration, *writer.split())
        writer = speaker if named else None
    if writer is None:  # "a promoter paid Consuelo to read …": the message, no one's "I"
        return _said(match, later), speaker if _writes(speaker, before) else None
    mine = speaker is not None and first_name(speaker) in writer.split()  # "Alhaja Kudirat"
    if writer == "I" or mine:
        writer = speaker
    return _said(match, later), writer


def _said(match: re.Match[str], later: str) -> str:
    """The quoted message, and what the same voice says in quotes after it."""
    message = match["message"].strip()
    return f"{message} {later}" if later else message


def _writes(speaker: str | None, narration: str) -> bool:
    """Whether the narration has the speaker write or say the message ("A message Fiifi
    typed late on Sunday night into the group")."""
    if speaker is None:
        return False
    verbs = (
        r"(?:typed|wrote|posted|texted|sent|messaged|put up|pinned|printed|scrawled|said|left|"
        r"recorded)"
    )
    return (
        re.search(rf"\b{re.escape(first_name(speaker))}\s+(?:\w+\s+)?{verbs}\b", narration)
        is not None
    )


def _written_by(fact: Fact, writer: str | None) -> Fact:
    if fact.kind != gathering.NAME or fact.who is not None or writer is None:
        return fact
    return replace(fact, who=writer)


def _parts(text: str) -> list[str]:
    """The text's sentences as the kinds read them: shorthand and spelt times written out,
    "Have you heard?" joined to its news, a subjectless note given its "I"."""
    return [with_subject(p) for p in _joined(sentences(numeric_times(written_out(text))))]


_SUBJECTLESS_DOING = re.compile(r"^(?P<verb>[A-Z][a-z]{2,}ing)\s+(?=(?:my|our|the|a|an|some)\b)")
_SUBJECTLESS_PAST = re.compile(
    r"^(?P<verb>(?:Went|Came|Got|Saw|Heard|Found|Had|Took|Made|Put|Ran|Left|Bought|Sold|Caught|"
    r"[A-Z][a-z]+ed))\s+(?=[a-z])"
)


_TELEGRAPHIC = re.compile(
    rf"^(?P<thing>[A-Z][a-z]+(?: [a-z]+){{0,2}}) (?P<done>{'|'.join(story.DAMAGE)})\b"
    r"(?! (?:the|a|an|my|his|her|their|our|its|it|them|him|me|us|some|off|up|down)\b)"
)
"""A note's passive without its verb ("Back door forced - frame split"): what was done."""
_NOT_A_THING = STOPWORDS | word_set("have has had is are was were been got get gets being")
"""Words by which what comes before a participle is a clause ("Three calves have gone")."""
_COUNTS = word_set("two three four five six seven eight nine ten twelve twenty both all several")


def with_subject(sentence: str) -> str:
    """A note in the writer's own shorthand with its "I" put back: "Putting my new boat in the
    water Tuesday" is "I'm putting …", "Went to draw the curtains and …" is "I went to …"
    (a gerund that is the subject, "Swimming is cancelled", is left alone); and its passive
    with its verb ("Back door forced" is "The back door was forced")."""
    bare = sentence.lstrip('"“')  # a note quoted whole opens with its quote mark
    done = _TELEGRAPHIC.match(bare)
    if done is not None and not set(done["thing"].lower().split()) & _NOT_A_THING:
        thing = done["thing"][:1].lower() + done["thing"][1:]
        many = thing.split()[0] in _COUNTS or (thing.endswith("s") and not thing.endswith("ss"))
        return f"The {thing} {'were' if many else 'was'} {done['done']}{bare[done.end() :]}"
    if _SUBJECTLESS_PAST.match(bare):  # '"Went back up to the workshop …'
        sentence = bare
    doing = _SUBJECTLESS_DOING.match(sentence)
    if doing is not None and doing["verb"].lower() in gathering.NOT_GERUNDS:
        doing = None  # "During the storm …", "Nothing the matter"
    if doing is not None and not re.search(r"\b(?:is|was|are|were|has|will)\b", sentence[:60]):
        return f"I'm {doing['verb'].lower()} {sentence[doing.end() :]}"
    past = _SUBJECTLESS_PAST.match(sentence)
    if past is not None:
        return f"I {past['verb'].lower()} {sentence[past.end() :]}"
    return sentence


def _dated_by_next(
    sentence: str, after: str, speaker: str | None, now: datetime | None
) -> Fact | None:
    """An occasion whose day opens the next sentence, read as one sentence ("We're doing the
    spring dugnad at the boathouse. Friday, half past five, once the ferry's gone."): its name
    is no known occasion, so without its day it was not one."""
    if not _WHEN_FIRST.match(after):
        return None
    joined = f"{sentence.rstrip(' .!')}, {after}"
    return next(
        (f for f in gathering.KIND.recognise(joined, speaker=speaker, now=now) if f.timed), None
    )


def _with_activity(
    found: list[Fact],
    origins: list[int],
    parts: Sequence[str],
    text: str,
    speaker: str | None,
    now: datetime | None,
) -> list[Fact]:
    """The facts with the first doing everyone may come to (`gathering.activity`) added; a
    sentence that only gave it its hours ("Fire goes on around 6 … packed up by 9") is part
    of it, not news of its own."""
    for index, sentence in enumerate(parts):
        after = parts[index + 1] if index + 1 < len(parts) else ""
        doing = gathering.activity(sentence, text=text, speaker=speaker, now=now, after=after)
        if doing is None:
            continue
        alone = gathering.activity(sentence, text=text, speaker=speaker, now=now)
        kept = [f for f, o in zip(found, origins, strict=True) if alone or o != index + 1]
        return [*kept, doing]
    return found


_ASKS_IF_HEARD = re.compile(
    r"^(?:[\w\s,!]*?[,!]\s*)?(?:have you heard|did you hear|guess what|you know what|"
    r"listen to this)\W*$",
    re.I,
)
"""A sentence that only says news follows ("Have you heard? The sea wall has cracked.")."""


_ONLY_WHEN = re.compile(
    r"^\s*(?:(?:on\s+)?(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|today|"
    r"tomorrow|tonight|this (?:morning|afternoon|evening))\b|\d{1,2}(?::\d{2})?\s*(?:am|pm)?\s*"
    r"(?:-|–|to|till|until)\s*\d)[^.!?]{0,40}[.!]*\s*$",
    re.I,
)
"""A sentence that only says when ("Tuesday 7/10, 16:00-19:00.")."""


_TITLE = re.compile(r"^\s*[A-Za-z][\w'’-]*(?:\s+[\w'’-]+){0,3}\s*!+\s*$")
"""A notice's short title shouted on a line of its own ("NADI!", "Barn dance!")."""
_CALLS_OUT = word_set(
    """hi hello hey hiya wow oh ah yes yay no ok okay right well thanks cheers dear great good
    listen guess news everyone everybody all folks guys friends morning evening"""
)
"""Words of a line that only calls out ("Hi all!", "Great news!"), which titles nothing."""
_WHEN_FIRST = re.compile(
    rf"^\s*(?:(?:on|this|next)\s+)?(?:{'|'.join(WEEKDAYS)}|today|tomorrow|tonight)\b", re.I
)
"""A line of a notice that opens with its day ("Friday (tomorrow) on the Upper Meadow")."""


_CLAUSE = re.compile(
    r"\b(?:I|we|you|he|she|they|it|is|are|was|were|will)\b|['’](?:re|m|ll|s|ve)\b", re.I
)
"""A line that says something of someone ("tomorrow we're doing …"), not a notice's when."""


def _titles(line: str) -> bool:
    """Whether a line is a notice's shouted title (`_TITLE`), not a call ("Hi all!")."""
    return _TITLE.match(line) is not None and not set(words(line)) & _CALLS_OUT


def _joined(parts: Sequence[str]) -> list[str]:
    """The sentences, each "Have you heard?" joined to the news it announces, so the news is
    read as told (`report` keeps what is passed on as news), not as a bare remark; a
    notice's head joined to the line that says when ("Dugnad at the churchyard!! Tuesday,
    16:00-19:00.", "NADI! Friday on the Upper Meadow.")."""
    joined: list[str] = []
    for part in parts:
        if joined and _ASKS_IF_HEARD.match(joined[-1].strip()):
            joined[-1] = f"{_ASKS_IF_HEARD.match(joined[-1].strip())[0]} {part}"  # type: ignore[index]
        elif (
            joined and _titles(joined[-1]) and _WHEN_FIRST.match(part) and not _CLAUSE.search(part)
        ):
            joined[-1] = f"{joined[-1].strip().rstrip('!')}! {part}"  # "NADI!" "Friday on …"
        elif joined and joined[-1].rstrip().endswith("!") and _ONLY_WHEN.match(part):
            joined[-1] = f"{joined[-1].rstrip().rstrip('!')}, {part}"
        else:
            joined.append(part)
    return joined


def rate_all(texts: Sequence[str]) -> list[int]:
    """Poignancy of each memory (`importance.rate`), at least the weight of the news it
    states: a sheepdog trial on Tuesday at 10 matters to whoever organises it, whatever its
    words."""
    return [
        max([importance.rate(text), *(f.weight for f in facts_in(text) if _news(f))])
        for text in texts
    ]


def _news(fact: Fact) -> bool:
    return fact.kind != gathering.NAME or gathering.is_news(fact)


def merged(facts: Sequence[Fact]) -> list[Fact]:
    """The facts with the mentions of one news merged into one, in first-mention order."""
    by_key: dict[str, Fact] = {}
    for fact in facts:
        by_key[fact.key] = by_key[fact.key].merged(fact) if fact.key in by_key else fact
    return list(by_key.values())


__all__ = ["KINDS", "Fact", "NewsKind", "Slot", "facts_in", "kind_of", "merged", "rate_all"]
