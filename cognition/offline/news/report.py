"""Reports: plain news with no time — "the old mill bridge is cracked and unsafe", "the mayor
resigned" — kept when it matters.

A sentence is a report when, once its framing is taken off ("Ines is worried that …", "Tomas
told me that …", "I heard that …"), what remains is a statement about something or someone
other than the two talking (no "I", "you" or "we" as its subject), of at most `MAX_CLAUSE`
characters, that the importance rule (`cognition.offline.importance`) scores at least
`MIN_WEIGHT`. Whoever framed it (the worrier, the first teller) is whom it concerns. Two
mentions are the same report when they share their content words, so a report retold over
several hops stays one piece of news.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING

from cognition.offline import importance
from cognition.offline.facts import Fact, long_standing
from cognition.offline.inflection import inflect
from cognition.offline.news import gathering, story
from cognition.offline.text import NAME_WORD, STOPWORDS, first_name, stem, words

if TYPE_CHECKING:
    from cognition.offline.news import Slot

NAME = "report"
MIN_WEIGHT = 6
"""A statement scored below this (the paper's scale) is not worth passing on."""
MAX_CLAUSE = 200
"""Longer statements are not retold: a report is one plain clause, never a memory quoted."""
MAX_FRAMES = 3
"""Framings taken off one statement at most: news passed on over hops stacks them."""
_NAME = rf"{NAME_WORD}(?:[ -]{NAME_WORD}){{0,2}}"
"""A person's name of one to three words ("Teodoro Mamani Huillca")."""
_WHERE = r"(?:(?i:at|in|on|down at|up at|over at|out at) (?:the )?[\w'’ -]{1,30}?,?\s+)"
"""Where the framer learned it, before the frame ("At the depot Fiona was told that …")."""
_FRAMES = (
    re.compile(
        rf"^(?P<who>I|{_NAME})(?:'m|’m| am| is| are| was| has been| have been)?\s+"
        r"(?:really\s+|very\s+|quite\s+|a bit\s+)?(?:worried|afraid|concerned|scared|sure|"
        r"convinced|upset)[:,]?\s+(?:that\s+|about how\s+)?(?P<clause>.+)$"
    ),
    re.compile(
        rf"^(?:{_WHERE})?(?P<who>I|{_NAME})\s+(?:has\s+|have\s+|just\s+)?(?P<verb>heard|"
        r"was told|has been told|were told|noticed|found out|"
        r"learned|learnt|saw|fears|thinks|believes|knows|says|said|told \w+|mentioned|reckons|"
        r"suspects|worries|warns|warned|claims|insists|swears|decided|has decided|announced)"
        rf"(?: from (?P<source>{_NAME}))?\s+(?:that\s+)?(?P<clause>.+)$"
    ),
    re.compile(  # "Kirsty got a letter from the Flying Doctor Service yesterday: …"
        rf"^(?P<who>I|{_NAME})\s+(?:has\s+|have\s+|just\s+)?(?P<verb>got|had|received|"
        r"has had|has got)\s+(?:a|an|the)\s+(?:letter|call|phone call|message|email|e-mail|"
        r"text|note|visit|notice|warning)\s+from\s+[^:;]{1,60}?[:;]\s+(?P<clause>.+)$"
    ),
    re.compile(  # "Roin from the road department phoned Dato before six, shouting: …"
        rf"^(?P<source>{_NAME})(?: from (?:the )?[\w'’ -]{{1,40}}?)?\s+(?:just\s+)?"
        r"(?P<verb>phoned|rang|called|texted|messaged|emailed|radioed|wrote to|wired)\s+"
        rf"(?P<who>me|us|{_NAME})\b[^:;\"“]{{0,80}}?[:;]\s+(?P<clause>.+)$"
    ),
    re.compile(  # a hedge before what is told: "Between you and me, Pete's resigned"
        r"^(?:between you and me|between ourselves|don't tell anyone,? but|honestly|"
        r"to be honest|mind you|anyway|you know what|and get this|listen to this|bad news|"
        r"here(?:'s| is) (?:some )?news)[,:!]?\s+(?P<clause>.+)$",
        re.I,
    ),
    re.compile(
        r"^(?:have you heard\??|did you (?:hear|know)(?: that)?\??|guess what[:,!?]?\s*[-–—]?|"
        r"word is(?: that)?,?|"
        r"apparently,?|it seems that)\s*(?P<clause>.+?)\??$",
        re.I,
    ),
)
"""Framings taken off a report: (who frames it, optionally whom they heard it from)."""
_VIEWS = frozenset(
    {
        *("fears", "thinks", "believes", "reckons", "suspects", "worries", "decided"),
        *("warns", "warned", "claims", "insists", "swears"),
    }
)
"""Verbs of a view one holds (the news is the framer's, as a worry is), not of news passed on."""
_TELLING = frozenset(
    {"heard", "found", "learned", "learnt", "told", "said", "says", "mentioned", "noticed"}
    | {"was", "has", "were"}  # "was told", "has been told"
    | {"got", "had", "received"}  # "got a letter from … :"
    | {"phoned", "rang", "called", "texted", "messaged", "emailed", "radioed", "wrote", "wired"}
)
"""Verbs of news passed on ("Tom told me that …"); "knows" and "saw" are not."""
IRREGULAR_PASTS = (
    *("broke", "took", "fell", "burst", "went", "came", "ran", "stole", "sold", "shut"),
    *("lost", "won", "left", "blew", "froze", "caught", "struck", "sank", "split", "spent"),
    *("found", "told", "said", "got", "gave", "made", "saw", "hit", "bought", "built", "swept"),
    *("drove", "threw", "tore", "wore", "rose", "shook", "bit", "hid", "sent", "began", "grew"),
    *("sat", "stood", "lay", "hung", "slept", "flew", "dug", "fed", "led", "kept", "held"),
    *("brought", "fought", "met", "paid", "woke", "wrote", "rode", "spoke", "drew"),
    *("drank", "ate", "bled", "fled", "swam", "wept"),
)
"""Past forms without "-ed" that state what happened ("somebody broke into the hall")."""
CHANGES = (
    *("starts", "begins", "opens", "reopens", "closes", "shuts", "ends", "stops", "moves"),
    *("leaves", "retires", "arrives", "returns", "changes", "goes", "comes", "takes over"),
)
"""Present forms that tell of a change to come ("the new doctor starts at the surgery on
Monday")."""
_STATES = re.compile(
    r"\b(?:is|are|was|were|has|have|had|will|can|could|may|might|must|should|would|does|did|do)"
    r"\b|\w\w(?:ed)\b|\wn't\b|\w['’]s (?:\w+ing|gone|got|been|\w+ed|\w+en)\b|\b(?:"
    + "|".join((*IRREGULAR_PASTS, *CHANGES))
    + r")\b"
)
"""A clause that states something has a verb ("the wall has cracked"); "every gully and
cornice on the mountain", what someone knows, states nothing to retell."""
_LIFE_SINCE = re.compile(
    r"^[Ss]ince\b[^.;]{0,80}?\b(?:has|have)(?: \w+ly)? (?:lived|kept|worked|run|raised|farmed|"
    r"taught|looked after)\b"
)
"""How someone has lived since something long past ("Since his wife Gwen died he has lived
alone at Pen y Bryn"): who they are, not news, however it came."""
_WORRY = re.compile(r"\b(?:worried|afraid|concerned|scared)\b")
_TOLD_AS_QUESTION = re.compile(r"^(?:did you (?:hear|know)) (?!about\b|of\b|if\b|whether\b)", re.I)
"""News told as a question ("Did you know that the sea wall has cracked?") is still news."""
_PERSONAL = re.compile(
    r"^(?:(?:before|after|since) (?:that|this|then),?\s+|then,?\s+|later,?\s+)?"
    r"(?:I|you|we|me|my|your|our|it|this|that|there|here|he|she|they|his|her|their)\b",
    re.I,
)
"""A clause about whoever "he" is cannot be retold: the listener would not know whom it means
("Before that he was a ribera carpenter …")."""
_EXISTENTIAL = re.compile(
    r"^there (?:is|was|are|were|has been|have been)\s+(?:now\s+)?(?:a|an|some|two|three|\d+)\s",
    re.I,
)
"""Something there is, said of no one ("there was an iceberg as big as two houses …"): news."""
_THERE_WAS = re.compile(
    r",?\s+(?:and|but|when|so|then)\s+(?P<clause>there (?:is|was|are|were)\s+(?:a|an|some|two|"
    r"three|\d+)\s.+)$",
    re.I,
)
"""Where a teller's own doing gives way to what they found."""
_BUSY = re.compile(
    rf"^(?!(?:Some|No|Any|Every)(?:body|one)\b){_NAME} (?:is|are|was|were|has been|have been) "
    r"\w+ing\b"
)
"""Someone at an activity ("Tomas Okafor is preparing for his exam") is a sight, not news."""
_IDENTITY = re.compile(
    rf"^(?![Tt]here |[Hh]ere )(?:(?:Dr|Mr|Mrs|Ms|Prof|Rev)\.? )?{_NAME} (?:is|was|has been) "
    r"(?:a|an|the|his|her|their|your|my)\b"
    rf"|^{_NAME} has (?:lived|worked)\b"
)
"""Who someone is or has long been: a persona's background, not news."""
_HABIT = re.compile(
    rf"^{_NAME} (?:\w+ly )?(?!(?:is|was|has|does|says|{'|'.join(CHANGES)})\b)[a-z]+[^s\W]s\b"
)
"""What someone does, in the plain present ("Nia makes things from slate at Gweithdy Llechi",
"Gwilym grows leeks"): their life, not news; a change to come ("… retires in May") is."""
_NO_STATEMENT = re.compile(
    r"^(?:to|how|what|why|when|where|whether|if|which|hello|hi|goodbye|good\w*|thanks|"
    r"because|whenever|although|though|unless|"
    r"don't|don’t|do not|remember|the (?:purpose|aim|object|point) of)\b",
    re.I,
)
"""A clause that states nothing ("to work dogs from Wil Evans", "how to mend a net"), or only
what something is for ("the purpose of the visit is (1) to re-register all canoes")."""


def _heading(clause: str) -> bool:
    """Whether a clause is a heading in title case ("Visit of the District Fisheries Officer:
    Canoe Re-registration and Closed Season Briefing"), not a statement."""
    content = [w for w in clause.split() if w.lower() not in STOPWORDS]
    capitalised = [w for w in content if w[:1].isupper()]
    return len(content) >= 4 and len(capitalised) >= 0.8 * len(content)


_SUBJECT = re.compile(rf"^(?P<who>{_NAME})\b(?!['’]t\b)(?! (?:is|are) (?:the|a)\b)")
_FIRST_OR_SECOND = re.compile(r"\b(?:I|I'm|I've|I'll|I'd|me|my|we|our|us|you|your)\b")
"""A report is about someone or something else: not the speaker's own doings."""
_ATTRIBUTED = re.compile(
    rf",\s+(?P<who>{_NAME}) (?:says|said|reckons|tells us|told us|reports|reported|warns|warned)$"
)
"""Whom a statement is credited to after it ("…, Nora Flood says"): its teller."""
_QUOTED = re.compile(r"[\"“”]")
_SKIPPED = re.compile(r"^(?:For .+?'s planning:|This is .+?'s plan for)")


_PRONOUNS = frozenset({"He", "She", "They", "It", "We", "You"})
"""Capitalised words a name pattern takes that name no one the listener would know."""


@dataclass(frozen=True)
class _Frame:
    """What a framing says of the news it frames: whose it is, who passed it on, and
    whether it is a worry or news told (either makes it worth passing on)."""

    who: str | None = None
    source: str | None = None
    worried: bool = False
    told: bool = False


def _unframed(text: str, speaker: str | None) -> tuple[str, _Frame] | None:
    """The statement inside the text's outer framing, with what the framing says; None when
    the text is not framed."""
    for concerned, frame in enumerate(_FRAMES):
        match = frame.match(text)
        if match is None:
            continue
        framer = match.groupdict().get("who")
        framer = speaker if framer in ("I", "me", "us") else framer
        framer = None if framer in _PRONOUNS else framer  # "He says …": whoever he is
        verb = match.groupdict().get("verb") or ""
        clause = match["clause"].strip()
        if concerned == 0:  # "Ines is worried that …": her worry
            worried = _WORRY.search(match[0][: match.start("clause")]) is not None
            return clause, _Frame(who=framer, worried=worried)
        if verb in _VIEWS:  # "Mair reckons …": hers
            return clause, _Frame(who=framer, told=True)
        # "Tomas heard from Ines that …": a teller, not whom it concerns
        source = match.groupdict().get("source") or (framer if framer != speaker else None)
        source = None if source in _PRONOUNS else source
        told = not verb or verb.split()[0] in _TELLING  # "Have you heard? …" is told
        return clause, _Frame(source=source, told=told)
    return None


def _read(sentence: str, speaker: str | None, *, news: bool) -> list[Fact]:
    """The report a sentence states (module docstring); with `news`, the text is known to
    bear news, so a plain statement is kept whatever its importance."""
    text = _named_back(_THERE_IS.sub(_there_is, sentence.strip().rstrip(".!;")), speaker)
    asked = text.endswith("?") and not _TOLD_AS_QUESTION.match(text)
    if not text or asked or _QUOTED.search(text) or _SKIPPED.match(text):
        return []
    if gathering.mentions_occasion(text, speaker=speaker) or gathering.open_to_all(text):
        return []  # an occasion that is not news; who may come to one ("anyone can come")
    who: str | None = None
    source: str | None = None
    worried = told = False
    for _ in range(MAX_FRAMES):  # "Tom told me that at the depot Fiona was told that …"
        framed = _unframed(text, speaker)
        if framed is None:
            break
        text, frame = framed
        who = who or frame.who
        source = source or frame.source
        worried, told = worried or frame.worried, told or frame.told
    clause = _main_clause(_trimmed(text.rstrip(".!;")))
    done_to = speaker is not None and _DONE_TO_ME.match(clause) is not None
    own = done_to or (told and speaker is not None and _OWN_NEWS.match(clause) is not None)
    if own and speaker is not None:
        clause = _as_theirs(clause, speaker)  # "Guess what? I found a huge turtle."
    elif speaker is not None and (news or told) and _AT_MINE.match(clause):
        clause = re.sub(r"\b(?:my|our)\b", f"{first_name(speaker)}'s", clause)
        who, done_to = who or speaker, True  # "there was a bear in our orchard": at theirs
    if done_to:
        who = who or speaker  # "Someone stole Nino's sheep" is news about Nino
    seen = _THERE_WAS.search(clause)
    if seen is not None and _FIRST_OR_SECOND.search(clause[: seen.start()]):
        clause = seen["clause"]  # "I drew the curtains and there was an iceberg …": the iceberg
    if _EXISTENTIAL.match(clause):  # "there is a crack in the wall, wide enough to put your
        clause = clause.split(",", 1)[0]  # hand in": what there is, not the teller's aside
    credited = clause  # rated with its teller's name, as any news of a person is
    said_by = _ATTRIBUTED.search(clause)
    if said_by is not None:  # "…, Nora Flood says": she told it
        clause = clause[: said_by.start()]
        source = source or said_by["who"]
        told = True
    if _PLACE_PATH.match(clause):
        return []  # an object's state at a place path ("Gull Cottage: kitchen: stove …")
    if len(clause) > MAX_CLAUSE:  # "… will cost 26 pesos instead of 22, and grinding …":
        clause = _CUT.split(clause, maxsplit=1)[0].rstrip(" ,")  # the news before its aside
    if len(clause) > MAX_CLAUSE:  # "… came down in the night, mud and rocks across …"
        clause = _first_clause(clause)
    personal = _PERSONAL.match(clause) and not _EXISTENTIAL.match(clause)
    if len(clause) > MAX_CLAUSE or personal or len(clause.split()) < 3:
        return []
    busy = _BUSY.match(clause) and not (news or own)  # "is retiring" in a seed is news
    if _FIRST_OR_SECOND.search(clause) or busy or _NO_STATEMENT.match(clause):
        return []
    if _heading(clause):
        return []  # a letter's heading: what follows it says what happens
    if _SAME_TIME.search(clause):
        return []  # "Members can book … on the same evening": an aside to news told before
    if not _STATES.search(_CUT.split(clause, maxsplit=1)[0]):
        return []  # "Dennis noticed the scum last night, and …": what was noticed states nothing
    if _LIFE_SINCE.search(clause):
        return []  # "Since his wife died he has lived alone …": a life, even in a seed
    if long_standing(clause) and not (worried or told or news):
        return []  # "Sau has grown longan … for forty years": how things have long been
    habit = _HABIT.match(clause) and not _common(clause)  # "Three calves have gone": no one
    if (_IDENTITY.match(clause) or habit) and not (worried or told):
        return []  # who someone is ("Wil is a retired quarryman") is known, not news
    weight = importance.rate(credited)
    if worried or told or news or own:  # a worry, or what is passed on as news, is news
        weight = max(weight, MIN_WEIGHT)
    if weight < MIN_WEIGHT:
        return []
    clause = clause[0].lower() + clause[1:] if clause[:2].istitle() and _common(clause) else clause
    subject = _SUBJECT.match(clause)
    if who is None and subject is not None and not _common(clause):
        who = subject["who"]  # "Walter Brigg broke his leg": news about Walter
    return [Fact(kind=NAME, what=clause, who=who, weight=weight, source=source)]


_SAME_TIME = re.compile(r"\b(?:the same|that very) (?:day|evening|night|morning|afternoon)\b", re.I)
"""A time that is another news's time: what happens then belongs to that news."""

_THERE_IS = re.compile(r"\b([Tt]here)['’]s(\s+been)?\b")


_REASON_FIRST = re.compile(r"^(?:Because|As|Although|Though|Now that|Since)\s", re.I)
_MAIN_START = re.compile(r"^(?:the|a|an|this|these|our|their|[A-Z][\w'’-]+)\s")


def _main_clause(clause: str) -> str:
    """What a sentence that opens with its reason states ("Because the primary is down to 31
    pupils, and the first class has only four children, the Castelbruno school is to be merged
    into the one in Roccalba"): the clause after the reason; the sentence when none follows."""
    if not _REASON_FIRST.match(clause):
        return clause
    parts = clause.split(", ")
    for at in range(len(parts) - 1, 0, -1):
        rest = ", ".join(parts[at:])
        if _MAIN_START.match(rest) and _STATES.search(parts[at]):
            return rest
    return clause


def _first_clause(clause: str) -> str:
    """A run-on statement's first comma clause that states something, as its news; the whole
    when none does."""
    head = ""
    pieces = clause.split(", ")
    for index, piece in enumerate(pieces):
        head = f"{head}, {piece}" if head else piece
        if len(head) > MAX_CLAUSE:
            break
        if len(head.split()) >= 3 and _STATES.search(head):
            after = pieces[index + 1] if index + 1 < len(pieces) else ""
            detail = re.split(r"\s+and\s+(?=(?:the|a|an|his|her|their|its)\s)", after)[0]
            if detail and not _STATES.search(detail) and len(head) + len(detail) < MAX_DETAILED:
                return f"{head}, {detail}"  # "… came down in the night, mud and rocks across
            return head  # the road and the railing is gone": what it left, not what follows
    return clause


MAX_DETAILED = 120
"""A run-on's first clause keeps a verbless detail after it up to this length."""


def _there_is(match: re.Match[str]) -> str:
    """ "there's" spelt out, so "there's a moose by the school" states something."""
    return f"{match[1]} {'has' if match[2] else 'is'}{match[2] or ''}"


def lead(parts: Sequence[str], speaker: str | None) -> Fact | None:
    """The news a text leads with when a later sentence says it was noticed, told or feared
    ("A bloom of algae has come up on the canal. Dennis noticed the scum last night …"): its
    first sentence as a report, whatever its importance; None when nothing says so."""
    framed = (_unframed(p.strip().rstrip(".!;"), speaker) for p in parts[1:])
    if not any(f is not None and (f[1].told or f[1].worried) for f in framed):
        return None
    found = _read(parts[0], speaker, news=True)
    return found[0] if found else None


def told(parts: Sequence[str], speaker: str | None) -> Fact | None:
    """The news of a text known to be news (what an admin seeds: "Old Mr Jenkins passed away
    last night."): its first sentence as a report whatever its importance, joined by the next
    when that goes on with it, or, when that sentence only sets the scene, the story's point
    (`story.point`); None when it states nothing."""
    for index, part in enumerate(parts):
        if story.sets_scene(part):  # "Last evening Mercy was walking home when …"
            gist = story.point(parts[index:], speaker, lambda clause: stated(clause, speaker))
            if gist is not None:
                return gist
        found = _read(part, speaker, news=True)
        if found:
            after = parts[index + 1] if index + 1 < len(parts) else None
            return (continued(found[0], after) if after else None) or found[0]
        if reacts(part) or (index < MAX_OPENING and _OPENING.match(part)):
            continue
        if index >= MAX_LEAD_IN:
            return None
    return None


MAX_LEAD_IN = 8
"""Sentences that state nothing by themselves passed over before a message's news at most:
what calls it to mind ("You remember that storm …?"), what "it" did, what "I" saw ("It
ripped the net on cage seven.", "I was the first to see it"), until a sentence says it in its
own words ("The supervisor reckons fifty thousand salmon got out")."""


MAX_OPENING = 4
"""Sentences of a letter's opening passed over before its news at most."""
_OPENING = re.compile(
    r"^(?:Subject|Re|Fwd?|To|From|Date|Dear|Hi|Hello|Hey|Greetings|Good (?:morning|afternoon|"
    r"evening|day))\b|^(?:I|I'm|I am|We|We're|We are)\s+(?:am\s+|are\s+)?(?:so\s+)?(?:sorry|"
    r"writing|write|afraid|hope|wanted)\b",
    re.I,
)
"""How a letter opens before its news ("Subject: …", "Dear colleagues,", "I am sorry to write
on a Sunday, but …")."""


def stated(clause: str, speaker: str | None) -> Fact | None:
    """The report a clause of news states, whatever its importance; None when it states
    none."""
    found = _read(clause, speaker, news=True)
    return found[0] if found else None


def reacts(sentence: str) -> bool:
    """Whether a sentence only reacts or calls for attention (`_REACTION`)."""
    return _REACTION.match(sentence.strip()) is not None and not _read(sentence, None, news=True)


_REACTION = re.compile(
    r"^(?:[\w'’]+[ ,]*){0,5}[!?.…]*$|^\d{1,2}[/.-]\d{1,2}(?:[/.-]\d{2,4})?\.?$|"
    r"^(?:you (?:won't|wouldn't|will never) believe|"
    r"guess what|listen|so|well|oh|wow|omg|holy|goodness|gosh|you know what)\b",
    re.I,
)
"""A sentence that only reacts or calls for attention before the news ("Holy moly, you won't
believe it.", "Well!", "Guess what?"), or a diary's date ("14/06."): the news is in the
sentence after it."""


class Report:
    """The report kind (module docstring)."""

    name = NAME

    def recognise(self, sentence: str, *, speaker: str | None, now: datetime | None) -> list[Fact]:
        del now
        return _read(sentence, speaker, news=False)

    def key(self, fact: Fact) -> str:
        content = sorted({stem(w) for w in words(fact.what) if w.lower() not in STOPWORDS})
        return f"{NAME}|{' '.join(content)}"

    def statement(self, fact: Fact) -> str:
        return f"{_capital(fact.what)}."

    def pitch(self, fact: Fact, *, listener: str) -> str:
        """One's own worry, what one found, or big news of what is one's own, told as one's
        own ("Mercy found a huge turtle" is "Guess what? I found a huge turtle."; "Ngozi's
        UK visa has been approved …" is "Guess what? My UK visa has been approved …"); other
        news of oneself ("Walter broke his leg", "Piotr agreed to go to the planting") is not
        one's to spread."""
        del listener
        if fact.who and fact.what.startswith(fact.who):
            found = _FINDING.match(fact.what[len(fact.who) :])
            big = fact.weight >= OWN_NEWS_WEIGHT and _POSSESSED.match(fact.what[len(fact.who) :])
            opening = "Bad news:" if _LOSS.search(fact.what) else "Guess what?"
            return f"{opening} {first_person(fact.what, fact.who)}." if found or big else ""
        mine = _mine(fact)
        if mine != fact.what:  # "Someone stole Nino's sheep", said by Nino
            if _LOSS.search(mine):
                return f"Bad news: {mine}."
            return f"Guess what? {_capital(mine)}."
        return f"I'm worried: {fact.what}."

    def retell(
        self, fact: Fact, *, source: str | None, variant: int, firsthand: bool = False
    ) -> str:
        teller = first_name(source) if source else None
        if firsthand:  # known before anyone in the world told it: found, or told from outside
            options: tuple[str, ...] = (
                f"Did you know that {fact.what}?",
                f"{teller} told me that {fact.what}."
                if teller
                else f"I found out that {fact.what}.",
                f"I just learned that {fact.what}.",
                f"Listen to this: {fact.what}.",
            )
            return options[variant % len(options)]
        options = (
            f"{teller} told me that {fact.what}." if teller else f"I heard that {fact.what}.",
            f"Have you heard? {_capital(fact.what)}.",
            f"Did you know that {fact.what}?",
            f"It seems that {fact.what}.",
            f"Word is that {fact.what}.",
            f"{teller} told me that {fact.what}." if teller else f"Apparently, {fact.what}.",
            f"Listen to this: {fact.what}.",
        )
        return options[variant % len(options)]

    def welcome(self, fact: Fact, *, listener: str, variant: int) -> str:
        del fact, listener
        options = (
            "Really? I hadn't heard that.",
            "Goodness, thank you for telling me.",
            "Oh no, that's news to me!",
        )
        return options[variant % len(options)]

    def own_reply(self, fact: Fact) -> str:
        del fact
        return "Yes, I know. I've been worried about it myself."

    def slots(self, fact: Fact, *, name: str) -> list[Slot]:
        del fact, name
        return []


_CUT = re.compile(r",\s+(?:so|which|but|and|as)\b|\s+(?:while|because|so that)\b")
"""Where a sentence that goes on with the news turns to why, how long or what follows."""
_PRONOUN = re.compile(r"\b(?:it|its|they|them|their|he|she|him|his|her)\b", re.I)
"""A sentence about whoever "it" is cannot be retold alone, nor joined to other news."""


def continued(fact: Fact, sentence: str) -> Fact | None:
    """A report with the next sentence of the same text joined on when that sentence goes
    on with it ("A rockfall has cracked the wall at the hairpin. From Monday the pass road
    will be shut every night."): stated plainly, about no one the listener could not name,
    and short enough that the whole is still one report. None when it does not."""
    if fact.kind != NAME:
        return None
    text = sentence.strip().rstrip(".!")
    if not text or text.endswith("?") or _QUOTED.search(text) or _SKIPPED.match(text):
        return None
    if gathering.mentions_occasion(text) or gathering.open_to_all(text):
        return None
    clause = _CUT.split(_trimmed(text), maxsplit=1)[0].rstrip(" ,")
    if len(clause.split()) < 4 or _PERSONAL.match(clause) or _PRONOUN.search(clause):
        return None
    if _FIRST_OR_SECOND.search(clause) or _BUSY.match(clause) or _NO_STATEMENT.match(clause):
        return None
    if not _STATES.search(clause) or _IDENTITY.match(clause) or _PLACE_PATH.match(clause):
        return None
    if _common(clause) or (_plain_noun(clause) and not _named_before(clause, fact)):
        clause = clause[0].lower() + clause[1:]
    joined = f"{fact.what}, and {clause}"
    return None if len(joined) > MAX_CLAUSE else replace(fact, what=joined)


_PLACE_PATH = re.compile(r"^[^:]*:[^:]*:|^(?:[A-Z][\w'’.-]*\s*)+:")
"""A place path ("Gull Cottage: kitchen: stove is idle"), not a clause that explains itself
after a colon ("the water isn't right: it comes out cloudy")."""
_AFTERTHOUGHT = re.compile(
    r",?\s+and (?:he|she|they|I|we)(?:'s|’s|'re|’re| is| are| has| have| was| were)?\b"
    r"|;\s|\s+so (?:he|she|they|I|we)\b"
)


def _trimmed(clause: str) -> str:
    """A statement cut where its teller adds what they do about it ("…, and she's telling
    everyone to boil it"): the news is what comes before."""
    kept = _AFTERTHOUGHT.split(clause, maxsplit=1)[0]
    return _DASHED.sub(lambda m: "" if _aside(m, kept) else m[0], kept).rstrip(" ,")


def _aside(dashed: re.Match[str], clause: str) -> bool:
    """Whether what follows a dash is an aside: it states nothing, or only notes details
    with no verb of its own after a clause that states ("the back door was forced - frame
    split, padlock cut")."""
    if not _STATES.search(dashed[0]):
        return True
    return (
        _AUXILIARY.search(dashed[0]) is None
        and _STATES.search(clause[: dashed.start()]) is not None
    )


_AUXILIARY = re.compile(
    r"\b(?:is|are|was|were|has|have|had|will|can|could|may|might|must|should|would|does|did|"
    r"do)\b|\w['’](?:s|re|ve|ll|d)\b"
)
"""A verb that makes a clause of its own, not a noted detail ("padlock cut")."""


_DASHED = re.compile(r"\s+[-–—]\s+[^-–—]+?(?:\s+[-–—](?=\s)|$)")
"""An aside between dashes, or after one at the end, that states nothing ("… out of the cab
- better than twenty thousand dollars' worth"): the teller's comment, not the news ("— the
gym roof's caught fire" is the news)."""


_SAYING = "says thinks reckons worries hopes fears believes knows doubts expects wants".split()  # noqa: SIM905
_INFLECT = inflect.engine()
_OWN_VERB = {
    "is": "am",
    "has": "have",
    **{verb: str(_INFLECT.plural_verb(verb)) for verb in _SAYING},  # "says" → "say"
}
"""A verb after one's own name, said after "I": "Dai Pritchard says" is "I say"."""
_PAST = r"\w+ed|saw|rang|told|found|heard|got|went|came|said|thought|knew|took|gave|met|ran"
"""A verb after a name the speaker can say of themselves unchanged ("noticed", "rang")."""


def in_own_words(line: str, speaker: str) -> str:
    """The speaker's own name as the subject of a joined sentence said as "I" ("…, and Dennis
    Fairweather noticed the scum" → "…, and I noticed the scum"): who says their own name
    so? `_read` reads it back as the name, so the news is the same news."""
    verbs = "|".join(_OWN_VERB)
    pattern = re.compile(rf"(,\s+and\s+){re.escape(speaker)} (?P<verb>{verbs}|was|{_PAST})\b")
    return pattern.sub(lambda m: f"{m[1]}I {_OWN_VERB.get(m['verb'], m['verb'])}", line)


_FINDING = re.compile(
    r"^\s+(?:[^,;]{0,80}?\s(?:and|then)\s+)?"
    r"(?:found|discovered|spotted|saw|came across|came upon|caught|dug up|fished out)\b"
)
"""What one found is news one tells oneself ("Mercy found a huge turtle", "Teodoro went up
to the corral before dawn and found three of his alpacas dead")."""
_OWN_WORDS = {"his": "my", "her": "my", "himself": "myself", "herself": "myself"}
_THEIR_WORDS = {"my": "their", "myself": "themselves"}


OWN_NEWS_WEIGHT = 7
"""News of what is one's own ("Ngozi's UK visa") this important is one's to tell."""
_LOSS = re.compile(r"\b(?:dead|died|killed|drowned|stolen|stole|burnt|burned|destroyed|injured)\b")
"""What makes one's own news bad news, told as such rather than with "Guess what?"."""
_POSSESSED = re.compile(r"^(?:'s|’s)\s")


def _mine(fact: Fact) -> str:
    """A report of what is the concerned person's, as they say it ("someone stole my sheep")."""
    if not fact.who:
        return fact.what
    return re.sub(rf"\b{re.escape(first_name(fact.who))}['’]s\b", "my", fact.what)


def first_person(what: str, who: str) -> str:
    """News of someone said by them: "Walter broke his leg" is "I broke my leg", "Mercy
    is retiring" is "I'm retiring", "Ngozi's visa … will employ Ngozi" is "My visa … will
    employ me" (`_as_theirs` reads it back)."""
    rest = what[len(who) :].strip()
    if _POSSESSED.match(rest):
        mine = re.sub(rf"\b{re.escape(first_name(who))}\b(?!['’])", "me", rest[3:])
        return f"My {mine}"
    verb, _, after = rest.partition(" ")
    after = re.sub(r"\b(?:his|her|himself|herself)\b", lambda m: _OWN_WORDS[m[0]], after)
    if verb == "is":
        return f"I'm {after}".strip()
    return f"I {_OWN_VERB.get(verb, verb)} {after}".strip()


_OWN_NEWS = re.compile(
    r"^I(?:'m|’m| am| have| was| (?:[a-z]+ed|" + "|".join((_PAST, *IRREGULAR_PASTS)) + r"))\b"
    r"|^My \w[\w' ]*? (?:has|have|had|is|was|were) (?:been |just )?[a-z]+ed\b"
)
"""News of oneself, told as news ("Guess what? I found a huge turtle.")."""


def _stole(match: re.Match[str]) -> str:
    """What people unknown "took" from the teller, they stole."""
    return "has stolen" if match[1] else "stole"


_DONE_TO_ME = re.compile(
    r"^(?:[Tt]hey|[Ss]omeone|[Ss]omebody)(?: have| has|'ve|’ve)? (?:took|taken|stole|stolen|robbed|"
    r"broke into|broken into|killed|"
    r"poisoned|burned|burnt|smashed|wrecked|shot) (?:my|our)\b"
    r"(?! (?:advice|word|place|seat|order|photo|picture|time|name|number|point|side|breath)\b)"
)
"""Harm done to the teller by people unknown ("They took my sheep"): news however it is said,
retold as "Someone took Nino's sheep"."""


_AT_MINE = re.compile(
    r"^(?:(?i:there) (?:was|were|is|are|has been|have been) (?:a|an|some|two|three|\d+)\b"
    r"|(?i:a|an|the|some|two|three|\d+) [a-z]+(?: [a-z]+)? (?:smashed|broke|wrecked|killed|ate|"
    r"flooded|burned|burnt|damaged|destroyed|got into|came into|tore)\b)"
    r"(?!.*\b(?:I|I'm|I've|me|we|us|you|your)\b)(?=.*\b(?:my|our)\b)"
)
"""Something come to the teller's own place ("there was a bear in our orchard", "a fox got
into our hens"), in a text known to be news: news about them, told as at theirs ("there was a
bear in Maria's orchard")."""


def _as_theirs(clause: str, speaker: str) -> str:
    """One's own news said by `speaker`, as anyone would retell it: "I found a huge turtle"
    said by Mercy D'Cruz is "Mercy found a huge turtle" (`first_person` undone)."""
    name = first_name(speaker)
    unknown = re.match(r"^(?:[Tt]hey|[Ss]omeone|[Ss]omebody)\s*", clause)
    if unknown is not None:  # "They took my sheep": "Someone stole Nino's sheep"
        done = re.sub(r"^(have |has |'ve |’ve )?(took|taken)\b", _stole, clause[unknown.end() :])
        return re.sub(r"\b(?:my|our)\b", f"{name}'s", f"Someone {done}")
    text = re.sub(r"^I(?:'m|’m| am)\b", f"{name} is", clause)
    text = re.sub(r"^I have\b", f"{name} has", text)
    text = re.sub(r"^I\b", name, text)
    if text.startswith("My "):  # "My UK visa has been approved … will employ me"
        text = re.sub(r"\bme\b", name, f"{name}'s {text[3:]}")
    return re.sub(r"\b(?:my|myself)\b", lambda m: _THEIR_WORDS[m[0]], text)


def _named_back(text: str, speaker: str | None) -> str:
    """`in_own_words` undone: "…, and I noticed …" said by Dennis is "…, and Dennis … noticed"."""
    if speaker is None:
        return text
    back = {mine: theirs for theirs, mine in _OWN_VERB.items()}
    mine = "|".join(back)
    pattern = re.compile(rf"(,\s+and\s+)I (?P<verb>{mine}|was|{_PAST})\b")
    return pattern.sub(lambda m: f"{m[1]}{speaker} {back.get(m['verb'], m['verb'])}", text)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


_VERB_AFTER_NAME = frozenset(
    """is are was were has have had will would can could must should may might says said
    thinks reckons told""".split()  # noqa: SIM905
)


def _plain_noun(clause: str) -> bool:
    """Its first word is a common noun capitalised for starting the sentence ("Foot
    passengers can still turn up"), not a name ("Mair says …", "Dennis noticed …")."""
    first, *rest = clause.split(maxsplit=2)
    if not first[:1].isupper() or first.endswith(("'s", "’s")) or not rest:
        return False
    second = rest[0]
    return second.islower() and second not in _VERB_AFTER_NAME and not second.endswith("ed")


_INDEFINITE = frozenset(
    [
        *(f"{a}{b}" for a in ("some", "no", "any", "every") for b in ("body", "one")),
        *"two three four five six seven eight nine ten several many".split(),  # noqa: SIM905
    ]
)
"""Nobody in particular: "Somebody has been stealing diesel" names no one it concerns."""


def _named_before(clause: str, fact: Fact) -> bool:
    """Its first word names someone the report already named ("Arvid is married to Ingrid.
    Arvid plays chess …"): a name, however plain the word after it."""
    first = clause.split()[0]
    return first in fact.what.split() or first in (fact.who or "").split()


def _common(clause: str) -> bool:
    """Its first word is an ordinary word capitalised only for starting the sentence."""
    first = clause.split()[0].lower()
    return first in STOPWORDS or first in _INDEFINITE or first in _SUBORDINATORS


_SUBORDINATORS = frozenset({"since", "though", "although", "unless", "whereas", "whenever"})
"""Words that open a clause, never a name ("Since the storm …")."""


KIND = Report()
