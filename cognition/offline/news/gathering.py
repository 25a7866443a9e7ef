"""Gatherings: any occasion with a name that people go to at a place and a time.

Recognised in a sentence when a determiner ("a", "the", "our", "Ines's", "the bakery's") is
followed by at most four modifiers and an occasion noun of `data/occasions.txt` ("a wedding",
"the farewell bake sale", "a poetry night", "Junie's Valentine's Day party"), or when someone
"is getting married". Who organises it is a possessive ("Ines's wedding", "my party") or the
subject of a host verb ("Marta is holding …"); where, when and whether everyone is welcome
are read from the rest of the sentence (`facts.read_day`, `facts.read_time`). A mention is
news when it says where or on what day ("see you at the party" is not). A bidding to come to a
place at a time names its gathering by what is had or done there (`_bidden`: "Come round the
back of the kura tomorrow, half six, we'll have a drink" is the drinks evening).
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, timedelta
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING

from cognition.norms import MINUTES_PER_DAY
from cognition.offline.facts import (
    MONTHS,
    NOON,
    WEEKDAYS,
    Fact,
    article,
    long_standing,
    read_day,
    read_time,
    recurs,
)
from cognition.offline.inflection import inflect
from cognition.offline.text import (
    ABBREVIATIONS,
    NAME_WORD,
    STOPWORDS,
    first_name,
    same_person,
    stable_index,
    stems,
)

_INFLECT = inflect.engine()
_NUMBERS = {str(_INFLECT.number_to_words(str(n))).replace(",", ""): n for n in range(1, 121)}
"""Ages in words ("ninety", "one hundred") to numbers, from inflect."""

if TYPE_CHECKING:
    from collections.abc import Sequence

    from cognition.offline.news import Slot

NAME = "gathering"
OCCASIONS_FILE = "occasions.txt"
MODIFIER_WORDS = 4
"""At most this many words of an occasion's name before its noun ("Valentine's Day party")."""
OWNER_WORDS = 4
"""At most this many words of an organiser's name ("the Glenmore Ski Club's")."""
WEIGHT = 6
"""A gathering one is told of: worth remembering and passing on."""
EVENT_MINUTES = 120
"""An occasion with a start and no end lasts this long."""
PREPARATION_MINUTES = 60
"""Its organiser gets ready this long before it starts."""
PERSONAL = frozenset({"wedding", "birthday", "birthday party", "christening", "retirement party"})
"""Occasions that are their organiser's own ("my wedding"); others are organised ("I'm
organising a funeral")."""
_TAIL = re.compile(
    r"^\s+(?:of|for)\s+(?:(?:old|young|little|poor|dear|baby|late)\s+)?"
    r"(?:(?:Dr|Mr|Mrs|Ms|Miss)\.?\s+)?(?!(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|"
    r"Sunday|January|February|March|April|May|June|July|August|September|October|November|"
    r"December|Easter|Christmas)\b)[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?"
)
"""Whom an occasion is for: "the funeral of old Walter Penrose", "a supper for Dr. Hale"."""
_ABOUT = re.compile(
    r"^\s+about\s+(?:the\s+)?(?!(?:it|this|that|them|what|how|why|when|where|who)\b)"
    r"[a-z][\w'’-]*(?:\s+(?!(?:is|are|was|were|will|has|have|had|at|on|in|from|this|today|"
    r"tonight|tomorrow|and|or|but|with|to|for)\b)[a-z][\w'’-]*){0,3}"
)
"""What an occasion is about: "the meeting about the salt water" (small words only, up to
the first verb or preposition, so a retelling reads back the same name)."""
_DANGLING = re.compile(r"(?:\s+(?:of|the|a|an|and|or|to|in|at|for|on|with|from|by))+$")
"""Small words a name cannot end with."""
_OF_WHAT = re.compile(
    r"^\s+of\s+(?:(?:this year['’]s|the year['’]s|the new|the|this)\s+)?(?!(?:it|this|that|them|"
    r"us|you|our|my|his|her|their|all|everyone|everybody|those|these)\b)(?:[a-z][\w'’-]*|"
    r"[A-Z]{2,5}\b)(?:\s+(?!(?:on|at|in|to|for|from|with|and|or|but|is|are|was|were|will|be|tonight|today|"
    r"tomorrow|this|next|every|by|so|that|which|who|where|when|has|have|had|starts?|begins?|"
    r"opens?)\b)[a-z][\w'’-]*)?"
)
"""What an occasion is of, in small words ("the first tasting of this year's oil", "the
blessing of the boats", "the assembly of the water committee"): without it the tasting is any
tasting."""
MEETINGS = frozenset({"meeting", "public meeting", "assembly", "town meeting"})
"""Occasions that say nothing of which one they are until told what they are about."""


def about(fact: Fact, lead: str) -> Fact:
    """A meeting no one holds, named by what the news before it is about ("salinity on the
    river has reached 4 per mille … Meeting for all growers at 7" is the meeting about
    salinity); the fact as it was for any other, or when the lead gives nothing to name."""
    if fact.what not in MEETINGS or fact.who is not None:
        return fact
    topic = _ABOUT.match(f" about {lead}")
    if topic is None or len(topic[0].split()) < 2:
        return fact
    return replace(fact, what=f"{fact.what}{topic[0].rstrip()}")


SOMBER = frozenset({"funeral", "memorial", "vigil", "wake"})
"""Occasions no one calls lovely."""
EVENING_WORDS = frozenset(
    "night evening supper dinner party ball dance disco concert ceilidh gala banquet".split()  # noqa: SIM905
)
"""An occasion of the evening: a bare hour before noon is read as the evening's."""
DETERMINERS = frozenset(
    ["a", "an", "the", "my", "our", "his", "her", "their", "its", "this", "next", "your"]
)
PLAIN_WORDS = frozenset(
    """good long busy nice great lovely quiet hard slow big wonderful whole same other last
    first rainy sunny cold warm late early fine beautiful normal usual typical entire
    productive relaxing lazy bad rough tough full half""".split()  # noqa: SIM905
)
"""Words that make "a long day" or "a good night" an ordinary span, not an occasion; before
a noun that names an occasion alone ("the big tasting") they are passed over."""
_ORDINAL_PLAIN = frozenset({"first", "last"})
"""Plain words kept in an occasion's name: which one of its kind it is ("the first tasting")."""
_NAME = rf"{NAME_WORD}(?:[ -]{NAME_WORD}){{0,2}}"
"""A person's name of one to three words ("Marisol Yupanqui Ccori")."""
_ADVERB = r"(?:\s+(?:[a-z]+ly|also|still|just|now|even|all|at last))?"
"""A word between a subject and its verb ("we're finally doing …")."""
_HOST = re.compile(
    rf"(?P<who>\bI|\b[Ww]e|{_NAME})"
    r"(?:'m|’m|'s|’s| am| is| are|'re|'ll|’ll| was| has been| will be| will| had| has)?\s+"
    r"(?:(?:also|still|now|busy)\s+)?(?:planning|hosting|throwing|organizing|organising|"
    r"holding|having|giving|arranging|putting on|running|preparing|leading|conducting|"
    r"officiating|lead|host|hold|organise|organize|run|throw|give|conduct|agreed(?! to)|arranged|"
    r"fixed up|set up)\b"
)
_MARRYING = re.compile(
    rf"(?P<who>\bI|{_NAME})(?: and (?:I|{_NAME}))?(?:'m|’m| am| is| are|'re| will be)?\s+"
    r"(?:getting married|gets married|get married|marrying|to be married|tying the knot|"
    r"ties the knot|will marry)\b"
)
_PURPOSE = re.compile(
    r"\b(?P<purpose>(?:in order )?to (?:vote on|vote|decide|settle|discuss|debate|talk about|"
    r"raise money for|raise funds for|celebrate|mark|remember|honour|honor|plan|choose|elect|"
    r"welcome|bless|say goodbye to|protest|agree|hear)\b[^,.;!?]*)"
)
"""What a gathering is for ("to settle whether the quarry lorries get banned"), as said."""
GROUP_NOUNS = frozenset(
    """council committee club society group board association guild union choir band team
    residents trustees circle league lodge congregation parish trust institute school church
    brigade""".split()  # noqa: SIM905
)
"""Nouns of groups that hold gatherings and meet ("the Sheepdog Society", "the parish council")."""
_GROUP_MEETS = re.compile(
    rf"\b[Tt]he\s+(?P<group>(?:[\w'’-]+\s+){{0,3}}(?:{'|'.join(sorted(GROUP_NOUNS))}))\s+"
    r"(?:is\s+meeting|are\s+meeting|will\s+meet|meets|sits|will\s+sit|"
    r"is\s+sitting|convenes|will\s+convene|"
    r"is\s+going\s+to\s+meet|(?:is|are|will\s+be)\s+gathering|will\s+gather)\b"
)
"""A group that meets ("the parish council is meeting in the schoolroom"): its meeting."""
_GROUP_SUBJECT = re.compile(
    rf"\b[Tt]he\s+(?P<who>(?:[\w'’-]+\s+){{0,3}}(?:{'|'.join(sorted(GROUP_NOUNS))}|"
    rf"{'|'.join(sorted(n.title() for n in GROUP_NOUNS))}))\s+(?:holds|is holding|will hold|"
    r"runs|is running|hosts|is hosting|puts on|is putting on|gives|is giving|stages|"
    r"is staging|presents|is presenting|are (?:holding|running|hosting|putting on|giving|"
    r"staging|doing))\b"
)
"""A group holding an occasion ("the Glenmore Ski Club holds its wax-and-mend night")."""
WORK = "work party"
"""What a call for hands at a time is called: "Catriona wants the village to come and dig the
snow off the school roof on Friday at 10" is Catriona's work party, for what it is to do."""
_HANDS = (
    r"(?:(?:come|turn out|turn up|gather|meet)\s+(?:along\s+)?(?:and|to)\s+(?:help\s+(?:to\s+)?)?"
    r"|(?:help|lend a hand|pitch in|join in)\s+(?:(?:to|us|out|with|and)\s+)?)"
)
_CALL = re.compile(
    rf"(?P<who>\bI|\b[Ww]e|{_NAME})(?:'s|’s|'m|’m| is| are|'re| has| have| had)?\s+"
    r"(?:wants|would like|needs|need|is asking|asks|asked|calls on|called on|is calling on|"
    r"invites|is inviting|invited|urges|is urging|begs)\s+"
    rf"(?P<whom>[\w'’ -]{{1,40}}?)\s+to\s+{_HANDS}(?P<task>[a-z][\w'’ -]*)"
    r"|\b(?:[Vv]olunteers|[Hh]elpers|[Hh]ands|[Hh]elp)\s+(?:are|is)\s+(?:needed|wanted|asked for)"
    rf"\s+to\s+(?:{_HANDS})?(?P<task2>[a-z][\w'’ -]*)"
    rf"|^\s*(?:[Pp]lease\s+)?[Cc]ome\s+(?:along\s+)?(?:and|to)\s+(?:help\s+(?:to\s+)?)?"
    r"(?P<task3>[a-z][\w'’ -]*)"
    r"|\b(?:are|is)\s+(?:all\s+)?(?:invited|asked|welcome|encouraged|urged|needed|wanted)\s+to\s+"
    rf"(?:come\s+(?:along\s+)?(?:and\s+)?)?(?:help|lend a hand|pitch in|join in)\s+"
    r"(?:(?:to|us|out|with|and)\s+)?(?P<task4>[a-z][\w'’ -]*)"
)
"""A call for hands: someone asking people to come and do something, volunteers needed to
do it, "Come and help …", or whoever is invited to help ("Neighbors of all ages are invited
to help plant twelve new street trees"); its task runs to the first word of when or where."""
LESSONS = frozenset({"class", "lesson", "lessons", "course", "workshop", "session", "talk"})
_TEACHING = re.compile(
    rf"(?P<who>\bI|{_NAME})(?:'s|’s|'m|’m| is| has| will| had| am)?\s+(?:offered|offering|agreed|"
    r"volunteered|going|planning|decided|promised)\s+to\s+(?:teach|give|run|lead|hold)\s+"
    r"(?:a\s+|an\s+)?(?P<subject>[A-Za-z][\w&'’-]*(?:\s+[A-Za-z][\w&'’-]*){0,2}?)"
    r"(?=\s+(?:and|to|for|at|in|on|from|this|next|tomorrow|tonight)\b|[,.;]|$)"
)
"""Someone offering to teach ("Maureen has offered to teach CPR"): a class in it."""
_TASK_END = re.compile(
    r"\s+(?:on|at|from|this|next|tomorrow|tonight|today|by|before|after|starting|between|"
    r"until|till|in the (?:morning|afternoon|evening))\b"
)
_COLLECTIVE = re.compile(
    r"\b(?:every|any|all|people|folk|folks|village|town|city|island|parish|hollow|valley|"
    r"community|neighbou?rs|volunteers|hands|helpers|us|whole|members|residents|families|"
    r"grown-ups|adults|locals|crew|lads|team)",
    re.I,
)
"""Whom a call is to when everyone may answer it ("the village", "anyone with a shovel")."""
_ANTECEDENT = re.compile(
    r"^\s*(?:so much |so many |such |all the |a lot of |lots of |some |the )?"
    r"(?P<np>[a-z][\w'’-]*(?: [a-z][\w'’-]*){0,2})\s+(?:has|have|had|is|are|was|were|will|"
    r"keeps|kept)\b",
    re.I,
)
"""What "it" of a call's task is: the subject its sentence began with ("So much snow has
piled up on the roof … come and dig it off")."""
_WORK_PURPOSE = re.compile(r"\b(?P<purpose>to (?!noon\b|midnight\b|\d)[a-z][^,.;!?]*)")
"""What a work party is for, as retold after its place and time ("… from 10 am to noon to
dig the snow off")."""
DAY_PARTS = frozenset({"morning", "afternoon", "evening", "night"})
"""Parts of a day: "Tuesday evening" says when, it names no occasion."""
_TURNING = re.compile(
    rf"(?P<who>\bI|{_NAME})(?:'s|’s| is| will be|'ll be)?\s+(?:turning|turns|will turn)\s+"
    r"(?P<age>a hundred|\d{1,3}|[a-z]+(?:[ -][a-z]+)?)\b"
)
"""Someone's birthday told by their age ("Bridie turns a hundred on Thursday")."""
_SIDE = (
    r"(?!(?:The|A|An|Our|Their|My|This|That)\b)[A-Z][\w-]*"
    r"(?: (?:[A-Z0-9][\w-]*|de|del|da|of|the)){0,3}"
)
_FIXTURE = re.compile(
    rf"(?<![\w'’-])(?P<home>{_SIDE})\s+(?:vs\.?|v\.?|versus|against)\s+(?P<away>{_SIDE})"
    r"(?=[\s,.;:!?]|$)"
)
"""A fixture said as its two sides ("Purok Uno vs Purok Tres, this Thursday May 14, 7PM"): a
game, when it has a day or a time."""
_SPORT = frozenset({"friendly", "match", "game", "final", "derby", "fixture", "semi-final"})
"""Occasions played against another side, which say whom they are against."""
_OPPONENT = re.compile(
    r"\b(?:play|plays|playing|face|faces|facing|take on|takes on|taking on|meet|meets|meeting)"
    rf"\s+(?P<side>{_SIDE})\s+(?:in|at)\s+(?:a|an|the|their|our|its)\s"
)


def _against(fact: Fact, sentence: str) -> Fact:
    """A game named with whom it is against ("our colts are playing Amoakwa Stars in a
    friendly" is the friendly against Amoakwa Stars): without it, a game is every game."""
    opponent = _OPPONENT.search(sentence)
    if opponent is None or fact.what.split()[-1].lower() not in _SPORT or " vs " in fact.what:
        return fact
    return replace(fact, what=f"{fact.what} against {opponent['side']}")


_NTH = re.compile(rf"(?P<who>{_NAME})(?:'s|’s) (?P<age>\d{{1,3}}(?:st|nd|rd|th))\b(?! birthday)")
"""A birthday by its number alone ("Mum's 70th is on Friday night")."""
_OPEN = re.compile(
    r"\b(?:every(?:one|body)(?: (?:in|from|at|on) [\w ]+?)?(?:'s| is| are)? (?:invited|welcome)|"
    r"all (?:are )?welcome|open to (?:all|everyone|everybody|the public)|"
    r"\bthe (?:general )?public (?:is|are) (?:(?:very|most|all) )?(?:welcome|invited)\b|"
    r"wants every(?:one|body)\b[^.;]* to come|inviting every(?:one|body)|"
    r"the (?:whole|rest of the) [a-z]+(?:(?:'s|’s| is| are)? (?:invited|welcome)|"
    r" (?:can|may) (?:come|join|turn up))|"
    r"\bevery(?:one|body) (?:come|bring)\b|\bthe more the merrier\b|"
    r"\b(?:be there|see (?:you|everyone|y'all|ya|you all) there)\b|\ball hands\b|"
    r"\bcome one,? come all\b|\bbring (?:the|your) (?:whole )?(?:family|kids|crew|gang)\b|"
    r"\b(?:don't|don’t|do not|no) need to be a member\b|\bnon-members (?:welcome|too)\b|"
    r"(?:every|any)(?:one|body)(?: (?:from|in|on|with) [\w' ]{1,30}?| who [^.;:]{1,60}?)? "
    r"(?:can|may|is welcome to|"
    r"is free to) (?:come|go|turn up|join|attend|drop in|pop in)|"
    r"(?:every|any)(?:one|body) who [^.;:]{1,60}? (?:is|are) (?:very |most )?welcome)|"
    # nothing asked of whoever comes: no ticket, nothing to pay, just turn up
    r"\bno tickets? (?:needed|required|necessary)\b|\bnothing to pay\b|"
    r"\byou (?:can )?(?:just|simply) (?:turn up|show up|come along)\b|"
    r"\bfor (?:any|every)(?:one|body) who (?:stops|comes|calls|drops|pops|turns up|wants)\b|"
    # said to whoever hears it: "Come early, the jam ones always go first."
    r"(?:^|[.!?,]\s+)come (?:early|along|down|by|over|and|to)\b|"
    # what to bring, said to whoever comes: "bring something to burn", "Bring gloves."
    r"\bmany hands\b|(?:^|[.!?]\s+)bring [a-z]+ (?:\+|and|&|or) [a-z]+|"
    r"\bbring (?:whoever|whomever|any(?:one|body)) (?:you|ye|y'all) (?:like|want)\b|"
    r"\bthere(?:'s|’s| is| will be) (?:food|room|enough|plenty) for every(?:one|body)\b|"
    r"\btell (?:every(?:one|body)|all (?:the )?[a-z]+)(?! of)\b|"
    r"\bfor every (?:house|household|family|home)\b|"
    r"\b(?:one|somebody|someone|a person|one person) from (?:each|every) "
    r"(?:house|household|family|home)\b|"
    r"\bso (?:do )?come\b(?=[,.!])|"
    r"(?:^|[.!?,;]\s+)bring (?:a|an|some|something|anything|your|yer|the kids|the family|"
    r"friends|gloves|a chair|a plate|a dish)\b|"
    # a price at the door or a ticket sold is a welcome to anyone who pays
    r"\b(?:\d+|free|euros?|pounds?|dollars?|quid|a head|each) (?:on|at) the door\b|"
    r"\bpay(?:s|ing)? (?:on|at) the door\b|\bno need to book\b|"
    r"\b(?:£|\$|€)?[\w.]+ (?:pounds?|euros?|dollars?|quid)? ?(?:a|per) (?:head|person|bowl|plate|"
    r"ticket|adult|family|dozen|slice|cup|jar|bag|box|bunch|loaf|bottle)\b|"
    r"\b(?:free|no) (?:entry|admission)\b|"
    r"\b(?:tickets?|entry|a head) (?:a|are|is) (?:fiver|tenner)\b|"
    r"\b(?:entry|admission|entrance|tickets?) (?:is |are )?(?:free|£|\$|€|\d|costs?|from|at)|"
    r"\bpublic (?:meeting|talk|lecture|screening|consultation|debate|hearing)s?\b|"
    # a group message asking who will come: "who's coming??", "who wants to join?"
    r"\bwho(?:'s|’s| is) (?:coming|in|up for it|joining|keen)\b|\bwho wants to (?:come|join)\b|"
    # a notice's call on a whole body of people: "All voters of the ward are requested to attend"
    r"\b(?:all|every) [\w' ]{1,40}? (?:are|is) (?:kindly )?(?:requested|asked|invited|urged|"
    r"encouraged|expected|welcome) to (?:attend|come|be present|join|take part)\b",
    re.I,
)
PLACE_NOUNS = frozenset(
    """hall church school park club centre center hotel pub inn field green square library
    chapel basement room barn farm beach harbour harbor station store shop cafe café market
    ground grounds oval rink arena legion grange house yard garden gardens lodge institute
    theatre theater museum gym pavilion reserve domain marae wharf quay pier""".split()  # noqa: SIM905
)
"""Last words of a place's name, by which a name listed alone in a notice is a place."""
_PLACE = re.compile(
    r"\b(?i:at|in|inside|outside|on|down at|down|up at|over at|round at|round|around|behind|"
    r"beside|near|next to|opposite)\s+"
    r"(?=(?P<place>(?:the\s+)?[\w'’.&-]+(?:\s+[\w'’.&-]+){0,6}))"
    # "for Oke-Ayo Community Hall": "for" a named place, as West African English says "at"
    rf"|\bfor\s+(?=(?P<named>(?:[A-Z][\w'’.&-]*\s+){{0,4}}(?i:{'|'.join(sorted(PLACE_NOUNS))})\b))"
)
"""Each "at/in <words>" of a text, overlapping: "at 8 on Friday in the church hall" holds
three candidates, and the words it reads never hide the next one."""
_PLACE_STOP = frozenset(
    """on at from to until till this next tomorrow today tonight and with for by where when
    which who that starting beginning after before around about so but or if because is are
    was were will would has have had once""".split()  # noqa: SIM905
)
_WHEN_STOP = frozenset(
    [
        *(w.lower() for w in WEEKDAYS),
        *"morning afternoon evening night afterwards afterward later then first".split(),  # noqa: SIM905
    ]
)
"""Words of when that end a place named without "on" ("at the chapel Friday morning")."""
_NOT_A_PLACE = frozenset(
    [
        *(w.lower() for w in MONTHS + WEEKDAYS),
        *(f"{w.lower()}s" for w in WEEKDAYS),  # "on Wednesdays": when it recurs, not where
        "weekdays",
        "weekends",
        "every",
        "noon",
        "midnight",
        "midday",
        "home",
        "the morning",
        "the afternoon",
        "the evening",
        "the night",
        "the day",
        "time",
        "least",
        "all",
        "front",
        "town",
        "the end",
        "the meantime",
        "fact",
        "general",
        "person",
        "public",
        "again",
        "now",
    ]
)
_SUBJECT = re.compile(rf"^\s*(?P<who>{_NAME})\s+(?!is\b|are\b)[a-z]")
"""The person a sentence is about, whom "her party" belongs to."""
_WHEN_WORDS = frozenset(
    [*(w.lower() for w in WEEKDAYS + MONTHS), "tomorrow", "tonight", "next", "last", "this"]
)
_LEADING_PLACE = re.compile(r"^\s*(?:at|in)\s", re.I)
_HELP = re.compile(
    r"\b(?:any|every)(?:one|body) (?:who|that) (?:wants|can|would like) to help\b", re.I
)
"""A call for hands is open to whoever answers it."""
_TITLED = re.compile(
    r"\b[Tt]he\s+(?P<name>(?:[A-Z][\w'’-]+\s+){0,3}[A-Z][\w'’-]+)\s+"
    r"(?:is|will be|takes place|starts|begins|opens)\b"
)
"""An occasion known by its own name: "the Harvest Moot is on Saturday at 2 pm"."""
_STARTS = re.compile(
    r"\b[Tt]he\s+(?P<name>[a-z][\w'’-]*(?:\s+(?!starts|begins)[\w'’.-]+){0,5}?)\s+"
    r"(?:starts|begins|kicks off|gets going|gets under way)\b"
)
"""Anything said to start at a place and hour, with a call for whoever hears it, is a
gathering by its own words: "Anyone who wants to help, the search for Mrs Doyle's dog starts
at the post office at 10 this morning" (not "the new doctor starts at the surgery at 9")."""
_CLAUSE_END = re.compile(
    "".join(rf"(?<!\b{a})" for a in ABBREVIATIONS)
    + r"\.\s|;|,\s*\d+\)|,\s*(?:and |but |so )|\band (?:she|he|they|I|we) \b"
)


@lru_cache(maxsize=1)
def occasions() -> tuple[frozenset[str], frozenset[str]]:
    """(nouns that name an occasion alone, nouns that need a modifier), from the data file."""
    text = (
        resources.files("cognition.offline")
        .joinpath("data", OCCASIONS_FILE)
        .read_text(encoding="utf-8")
    )
    alone: set[str] = set()
    modified: set[str] = set()
    for line in text.splitlines():
        line = line.strip().lower()
        if not line or line.startswith("#"):
            continue
        (modified if line.startswith("+") else alone).add(line.lstrip("+"))
    return frozenset(alone), frozenset(modified)


@lru_cache(maxsize=1)
def _noun_pattern() -> re.Pattern[str]:
    alone, modified = occasions()
    nouns = sorted(alone | modified, key=len, reverse=True)
    return re.compile(rf"\b(?P<noun>{'|'.join(re.escape(n) for n in nouns)})\b", re.I)


def mentions_occasion(sentence: str, *, speaker: str | None = None) -> bool:
    """Whether the sentence names an occasion at all, news or not ("see you at the party")."""
    return any(_named(sentence, m, speaker) for m in _noun_pattern().finditer(sentence))


def is_news(fact: Fact) -> bool:
    """A mention worth telling or planning for: it says where or on what day ("see you at
    the party" is not); any other kind always is."""
    return fact.kind != NAME or any(v is not None for v in (fact.place, fact.day, fact.weekday))


def is_over(fact: Fact, now: datetime | None) -> bool:
    """Whether it is too late to tell of a gathering with a day, or to ask someone to it: it
    has begun by `now` (a gathering of a day with no hour, once that day is over). "The
    christening is at 10 am, you should come along", said at 11, is old news."""
    if fact.kind != NAME or now is None or fact.month is None or fact.day is None:
        return False
    begins = fact.start_min if fact.start_min is not None else MINUTES_PER_DAY
    try:
        begun = datetime(now.year, fact.month, fact.day) + timedelta(minutes=begins)
    except ValueError:
        return False
    return begun <= now


def dated(fact: Fact, known: Sequence[Fact]) -> Fact:
    """A gathering said with no day with the day of a dated mention of it among `known`, if
    any ("Astrid is organising the annual meeting" is the one on Thursday at 7, and over once
    it has begun); anything else as it is."""
    if fact.kind != NAME or fact.day is not None or fact.weekday is not None:
        return fact
    dated = next((k for k in known if k.day is not None and same_occasion(fact, k)), None)
    return fact if dated is None else fact.merged(dated)


def names_in(sentence: str) -> list[str]:
    """The occasions a sentence names, news or not ("Did you know there is a poetry night?")."""
    found = (_named(sentence, m, None) for m in _noun_pattern().finditer(sentence))
    return [named[0] for named in found if named is not None]


def open_to_all(text: str) -> bool:
    """Whether the text says everyone is welcome."""
    return _OPEN.search(text) is not None


def opened(fact: Fact) -> Fact:
    """A gathering of a text that welcomes everyone, marked so (other kinds unchanged)."""
    return replace(fact, open_to_all=True) if fact.kind == NAME else fact


WELCOMES = ("Everyone is welcome.", "All are welcome.", "Anyone can come.", "It's open to all.")
"""Saying that everyone may come, in turn: one fixed sentence opened a tenth of all lines."""
URGINGS = (
    "Everyone is welcome, you should come!",
    "You should come along, all are welcome!",
    "Anyone can go, so do come!",
    "It's open to everyone, I hope you'll come.",
)
ASKINGS = (
    "Would you like to come?",
    "Will you come?",
    "I hope you can come.",
    "Do you want to come along?",
    "Can you make it?",
)
"""Asking the listener along, in turn (each read as an invitation by `dialogue.INVITATION`)."""


def _welcome(options: tuple[str, ...], variant: int) -> str:
    return f" {options[variant % len(options)]}"


class Gathering:
    """The gathering kind (module docstring)."""

    name = NAME

    def recognise(self, sentence: str, *, speaker: str | None, now: datetime | None) -> list[Fact]:
        if recurs(sentence) or long_standing(sentence) or _MEET_AT.match(sentence):
            return []  # "the pottery class is on Wednesdays": a habit, no news; "Please meet
            # at the front gate": where, for the occasion before it (`continued`)
        if _RETIMED.search(sentence):
            return []  # "the Saturday launch leaves at 8:30 instead of 8:00": a timetable
        spans: list[tuple[int, int, Fact]] = []
        for match in _noun_pattern().finditer(sentence):
            named = _named(sentence, match, speaker)
            if named is None:
                continue
            what, who, start = named
            end = match.end()
            tail = (
                _TAIL.match(sentence[end:])
                or _ABOUT.match(sentence[end:])
                or _OF_WHAT.match(sentence[end:])
            )
            if tail is not None:  # "a school play about the sulphur miners of the old days"
                said = _DANGLING.sub("", tail[0].rstrip())  # is no play "… miners of the"
                what, end = f"{what}{said}", end + len(said)
            elif (honoured := _honoured(sentence[:start])) is not None:
                what = f"{what} for {honoured}"  # "Dr. Hale is retiring, … give him a send-off"
            fact = _fact(sentence, what=what, who=who, before=start, after=end, now=now)
            spans.append((start, end, fact))
        if len(spans) > 1:  # "the feast … after the morning liturgy": a time, not news
            spans = [span for span in spans if not _WHEN_AFTER.search(sentence[: span[0]])]
        found = [  # "the book club meeting", not also "the book club"
            fact
            for start, end, fact in spans
            if not any(s <= start and end <= e and (s, e) != (start, end) for s, e, _ in spans)
            and not any(o.who and o.who.lower() == fact.what.lower() for _, _, o in spans)
            and not any(o.place and fact.what.lower() in o.place.lower() for _, _, o in spans)
        ]  # nor "the Rowing Club" of "the Rowing Club's regatta": it holds the occasion; nor
        # "the cricket club" where "the retirement do" is
        titled = _TITLED.search(sentence)
        if titled is not None and _SHUT.match(sentence[titled.end() :]):
            titled = None  # "the Parish Office will be closed Thursday": news of a place
        if titled is not None and not found:
            fact = _fact_at(titled, sentence, what=titled["name"], who=None, now=now)
            if fact.start_min is not None and (fact.day is not None or fact.weekday is not None):
                found.append(fact)
        starts = _STARTS.search(sentence) if not found else None
        if starts is not None:
            fact = _fact_at(starts, sentence, what=starts["name"], who=None, now=now)
            if fact.day is None and fact.weekday is None and now is not None:
                fact = replace(fact, month=now.month, day=now.day)  # "at 10 this morning"
            bidden = _HELP.search(sentence) is not None or open_to_all(sentence)
            if fact.timed and fact.place is not None and bidden:
                found.append(replace(fact, open_to_all=True))
        meets = _GROUP_MEETS.search(sentence)
        if meets is not None and not found:
            what = f"{meets['group']} meeting"
            found.append(_fact_at(meets, sentence, what=what, who=None, now=now))
        fixture = _FIXTURE.search(sentence)
        if fixture is not None:  # "the Purok Uno vs Purok Tres game", not "Purok Tres game"
            found = [f for f in found if not f.what.startswith(fixture["away"])]
        if fixture is not None and not found:
            what = f"{fixture['home']} vs {fixture['away']} game"
            owner = re.search(rf"(?P<who>{_NAME})(?:'s|’s)\s+$", sentence[: fixture.start()])
            who = owner["who"] if owner else None  # "Jerome Dalisay's Purok Uno vs …"
            fact = _fact_at(fixture, sentence, what=what, who=who, now=now)
            if fact.day is not None or fact.weekday is not None:
                found.append(replace(fact, place=fact.place or _named_place(sentence)))
        nth = _NTH.search(sentence) if not found else None
        if nth is not None:
            who = speaker if nth["who"] in ("My", "my") else nth["who"]
            found.append(_fact_at(nth, sentence, what=f"{nth['age']} birthday", who=who, now=now))
        turning = _TURNING.search(sentence)
        if turning is not None and not any(f.what.endswith("birthday") for f in found):
            age = _ordinal(turning["age"]) or _ordinal(turning["age"].split()[0])  # "ninety on"
            if age is not None:
                who = speaker if turning["who"] == "I" else turning["who"]
                found.append(_fact_at(turning, sentence, what=f"{age} birthday", who=who, now=now))
        taught = _TEACHING.search(sentence) if not found else None
        if taught is not None:
            subject = taught["subject"]
            what = subject if subject.split()[-1].lower() in LESSONS else f"{subject} class"
            who = speaker if taught["who"] == "I" else taught["who"]
            found.append(_fact_at(taught, sentence, what=what, who=who, now=now))
        gerund = _gerund_named(sentence, speaker=speaker, now=now) if not found else None
        if gerund is not None:
            found.append(gerund)
        visit = _visit(sentence, now=now) if not found else None
        if visit is not None:
            found.append(visit)
        called = _called(sentence, speaker=speaker, now=now) if not found else None
        if called is not None:
            found.append(called)
        invited = _bidden(sentence, speaker=speaker, now=now) if not found else None
        if invited is not None:
            found.append(invited)
        framed = _framed(sentence, speaker=speaker, now=now) if not found else None
        if framed is not None:
            found.append(framed)
        marrying = _MARRYING.search(sentence)
        if marrying is not None and not any(f.what.endswith("wedding") for f in found):
            who = speaker if marrying["who"] == "I" else marrying["who"]
            found.append(_fact_at(marrying, sentence, what="wedding", who=who, now=now))
        far = _FAR_OFF.search(sentence) is not None
        found = [
            _against(_owned_place(f, sentence), sentence) for f in _afterwards(found, sentence)
        ]
        return [_far_off(_placed_as_theirs(f, speaker), far) for f in found]

    def key(self, fact: Fact) -> str:
        if fact.what in GENERIC and fact.who:  # Shinji's get-together is not Bo's
            return f"{NAME}|{fact.what.casefold()}|{first_name(fact.who).casefold()}"
        return f"{NAME}|{fact.what.casefold()}"

    def statement(self, fact: Fact) -> str:
        welcome = " Everyone is invited." if fact.open_to_all else ""
        return f"{_capital(named(fact))}{_is_on(fact)}.{welcome}"

    def pitch(self, fact: Fact, *, listener: str) -> str:
        welcome = _welcome(WELCOMES, stable_index(f"{fact.what}|{listener}", len(WELCOMES)))
        welcome = welcome if fact.open_to_all else ""
        asking = _welcome(ASKINGS, stable_index(f"{listener}|{fact.what}|ask", len(ASKINGS)))
        if fact.what in PERSONAL:  # the bride's own wedding, not one she organises
            return f"{_capital(_mine(fact))}{_is_on(fact)}.{welcome}{asking}"
        what = (
            f"the {fact.what}"
            if _for_someone(fact.what) or _proper_name(fact.what)
            else f"{article(fact.what)} {fact.what}"
        )
        return f"I'm organising {what}{fact.details()}.{welcome}{asking}"

    def retell(
        self, fact: Fact, *, source: str | None, variant: int, firsthand: bool = False
    ) -> str:
        said = f"{named(fact)}{_is_on(fact)}"
        invite = _welcome(URGINGS, variant // 6) if fact.open_to_all else ""
        told = f"{first_name(source)} told me that {said}" if source else f"I heard that {said}"
        if source and fact.who and same_person(source, fact.who) and not _proper_name(fact.what):
            told = f"{first_name(source)} told me that their {fact.what}{_is_on(fact)}"  # own
        options: tuple[str, ...] = (
            f"Have you heard? {_capital(said)}.{invite}",
            f"{told}.{invite}",
            f"Did you hear about {named(fact)}{fact.details()}?{invite}",
            f"Sad news: {said}.{invite}"
            if _somber(fact)
            else f"Guess what? {_capital(said)}.{invite}",
            f"Word is that {said}.{invite}",
            f"{told}.{invite}" if source else f"Apparently, {said}.{invite}",
            f"Here's some news: {said}.{invite}",
        )
        if firsthand:
            found = f"I found out that {said}.{invite}"
            options = (options[2], options[3], found, options[6])
        return options[variant % len(options)]

    def welcome(self, fact: Fact, *, listener: str, variant: int) -> str:
        del listener
        if _somber(fact):
            return "Oh, I hadn't heard. Thank you for telling me."
        options = (
            f"Oh, I hadn't heard about {_the(fact)}!",
            "Really? That sounds lovely!",
            "How exciting, thank you for telling me!",
            f"{_capital(article(fact.what))} {fact.what}? I had no idea!",
        )
        return options[variant % len(options)]

    def own_reply(self, fact: Fact) -> str:
        if fact.what in PERSONAL:
            return f"That's {_mine(fact)}, actually! I'd love to see you there."
        return f"I'm organising the {fact.what}, actually! I'd love to see you there."

    def slots(self, fact: Fact, *, name: str) -> list[Slot]:
        from cognition.offline.news import Slot

        if fact.start_min is None:
            return []
        start = fact.start_min
        end = fact.end_min if fact.end_min and fact.end_min > start else start + EVENT_MINUTES
        what = fact.what
        if fact.about(name):
            return [
                Slot(start - PREPARATION_MINUTES, start, f"get ready for the {what}", fact.place),
                Slot(start, end, f"hold the {what}", fact.place),
            ]
        return [Slot(start, end, f"go to {named(fact)}", fact.place)]


def _is_on(fact: Fact) -> str:
    """ " is at the chapel on May 10 at noon", or " is coming up" when nothing is known."""
    return f" is{fact.details()}" if fact.details() else " is coming up"


_FAR_OFF = re.compile(
    r"\b(?:next|this coming|in the) (?:summer|winter|spring|autumn|fall|year)\b|\bsome ?day\b",
    re.I,
)
"""A season or a year off: an occasion only hoped for, not one to tell or plan for now."""


def _owned_place(fact: Fact, sentence: str) -> Fact:
    """A gathering's noun someone has, keeps or runs, with no day ("Marcus has a workshop in
    the garage of Webb House"): a place of theirs, no news (it says no place)."""
    if fact.day is not None or fact.weekday is not None or fact.start_min is not None:
        return fact
    owned = re.search(
        rf"\b(?:has|have|owns|keeps|runs|rents) (?:a|an|his|her|their|its) (?:[\w'’-]+ ){{0,2}}"
        rf"{re.escape(fact.what.split()[-1])}\b",
        sentence,
    )
    return fact if owned is None else replace(fact, place=None)


def _far_off(fact: Fact, far: bool) -> Fact:
    """A gathering said of a season or a year off with no day ("a beer and cawl festival in
    the pub car park next summer") as no news: it says no place either."""
    if not far or fact.day is not None or fact.weekday is not None:
        return fact
    return replace(fact, place=None)


def named(fact: Fact) -> str:
    """ "Ines Duarte's wedding", "the bakery's farewell bake sale", "the poetry night"; an
    occasion with a proper name keeps it alone ("the Hachiman Shrine Autumn Grand Festival":
    "Hideo Kuroda's Hachiman …" would read back as a name holding "Kuroda's")."""
    if _OWNED_BY_NAME.match(fact.what):  # "Father Ioane's Giorgoba feast", as heard
        return fact.what
    if _proper_name(fact.what):
        return f"the {fact.what}"
    if fact.who and not _possessive_in(fact.what) and not _for_someone(fact.what):
        last = fact.who.split()[-1].lower()
        group = (last in GROUP_NOUNS or last in ROLES) and " " in fact.who  # "the … Officer's"
        return f"{'the ' if group else ''}{fact.who}'s {fact.what}"
    return f"the {fact.what}"


_OWNED_BY_NAME = re.compile(
    r"^(?!(?:St|Saint|All|New)\b)(?:[A-Z][\w.-]*\s+){0,3}[A-Z][\w-]*(?:'s|’s)\s(?!Day\b|Eve\b)"
)
"""An occasion already named by its owner's name: no "the" before it, no second owner ("the
St. George's Day fair" and "the New Year's Eve dance" are named for a day, not an owner)."""


ROLES = frozenset(
    """officer minister mayor inspector director commissioner president governor superintendent
    secretary chairman chairwoman warden councillor councilor surveyor engineer bishop""".split()  # noqa: SIM905
)
"""Last words of an office's title ("the District Fisheries Officer"), said with "the"."""
_OUR_PLACE = re.compile(r"^(?:our|my)\s+(?P<noun>house|place|home|flat|farm|yard|garden)$", re.I)


def _placed_as_theirs(fact: Fact, speaker: str | None) -> Fact:
    """ "at our house", said by Pham Thi Hanh, is at Pham Thi Hanh's house: whoever retells it
    does not live there."""
    found = _OUR_PLACE.match(fact.place or "")
    if found is None or speaker is None:
        return fact
    noun = "house" if found["noun"].lower() in ("place", "home") else found["noun"].lower()
    return replace(fact, place=f"{speaker}'s {noun}")


def _proper_name(what: str) -> bool:
    """A name of capitalised words ("Ward Sabha", "Hachiman Shrine Autumn Grand Festival")."""
    words = what.split()
    return len(words) > 1 and all(w[:1].isupper() for w in words)


def _for_someone(what: str) -> bool:
    """ "the funeral of old Walter Penrose": whom it is for is named, not its organiser."""
    return bool(re.search(r" (?:of|for) ", what))


def same_occasion(a: Fact, b: Fact) -> bool:
    """Two mentions of one gathering: every word of the shorter name in the longer one ("the
    party" and "Junie's Valentine's Day party"), and no two different organisers."""
    if a.kind != NAME or b.kind != NAME:
        return False
    if a.who and b.who and not same_person(a.who, b.who):
        return False
    short, long = sorted((stems(a.what), stems(b.what)), key=len)
    return (bool(short) and short <= long) or _same_time_and_place(a, b)


def _same_time_and_place(a: Fact, b: Fact) -> bool:
    """Two names for what happens at one place on one day at one hour ("Clar's fish fry" and
    "the fry evening", both at the Legion Hall on June 17 at 6:30 pm)."""
    if a.start_min is None or a.start_min != b.start_min or not (a.place and b.place):
        return False
    dated = a.day is not None and (a.month, a.day) == (b.month, b.day)
    weekly = a.day is None and b.day is None and a.weekday is not None and a.weekday == b.weekday
    here, there = stems(a.place), stems(b.place)
    return (dated or weekly) and bool(here) and (here <= there or there <= here)


def _mine(fact: Fact) -> str:
    return f"the {fact.what}" if _possessive_in(fact.what) else f"my {fact.what}"


def _the(fact: Fact) -> str:
    return f"the {fact.what}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _somber(fact: Fact) -> bool:
    return bool(set(fact.what.lower().split()) & SOMBER)


def _possessive_in(what: str) -> bool:
    return bool(re.search(r"\b[a-z][\w-]*(?:'s|’s)\b", what))


def _named(
    sentence: str, match: re.Match[str], speaker: str | None
) -> tuple[str, str | None, int] | None:
    """(name, organiser, where the mention starts) for an occasion noun, walking back over
    its modifiers to a determiner; None when the words before it are no occasion's name."""
    noun = match["noun"]
    alone, _ = occasions()
    if _compounded(sentence[match.end() :]) or _in_proper_name(noun, sentence[match.end() :]):
        return None  # "a new launch trolley", "the concert hall": the noun names a thing
    if _with_object(noun, sentence[match.end() :]):
        return None  # "Just opening The Copper Kettle": a verb, not an opening
    if _APPOSITION.search(sentence[: match.start()]):
        return None  # "at Gweithdy Llechi, a workshop in the old quarry office": what it is
    clause = _CLAUSE_BREAK.split(sentence[: match.start()])[-1]  # "…, children free, tea"
    words = re.findall(r"[\w'’-]+", clause)
    mods: list[str] = []
    who: str | None = None
    determined = False
    while words and len(mods) <= MODIFIER_WORDS:
        word = words.pop()
        lower = word.lower()
        if lower in DETERMINERS:
            determined = True
            if lower in ("my", "our"):
                who = speaker
            elif lower == "its" and (owner_match := _GROUP_SUBJECT.search(sentence)):
                who = owner_match["who"]  # "the Ski Club holds its wax night"
            elif lower in ("his", "her", "their") and (owner_match := _SUBJECT.match(sentence)):
                who = owner_match["who"]  # "Junie hopes everyone comes to her party"
            break
        if re.search(r"(?:'s|’s)$", word):
            owner = word[:-2]
            follows = mods[0] if mods else ""
            # "Valentine's Day party": a title-case word after it names the occasion; not an
            # acronym ("Maureen Hollis's CPR class" is Maureen's class)
            in_name = follows.istitle() and not re.search(r"(?:'s|’s)$", follows)
            if owner[:1].isupper() and not in_name:  # "Ines's wedding", not "Valentine's Day"
                while (  # "the Glenmore Ski Club's": every word of the owner's name
                    words
                    and len(owner.split()) < OWNER_WORDS
                    and words[-1][:1].isupper()
                    and words[-1].lower() not in DETERMINERS
                ):
                    owner = f"{words.pop()} {owner}"
                who = speaker if owner == "I" else owner
                determined = True
                break
            mods.insert(0, word)  # "the bakery's farewell bake sale": part of the name
            continue
        named_before = words and words[-1][:1].isupper() and not _possessive_in(words[-1])
        if lower.endswith("s") and named_before and not word[:1].isupper():
            break  # "Ryoken chants monthly memorials": what the named one does
        if lower in _PRONOUN_WORDS:
            return None  # "We do Lile and the Kviria": someone doing, not "a do"
        if lower in _PRAISE and not word[:1].isupper():
            continue  # "a proper send-off" is the send-off
        if lower in ("and", "&") and mods and _joined_modifier(words):
            mods.insert(0, word)  # "a soup and pudding supper", "a bring and buy sale"
            continue
        if lower in PLAIN_WORDS and noun.lower() in alone and words:
            if lower in _ORDINAL_PLAIN:  # "the first tasting of this year's oil"
                mods.insert(0, word)
            continue  # "the big tasting" is the tasting; "a long day" is no occasion
        if (
            (lower in STOPWORDS and not word[:1].isupper())
            or lower in PLAIN_WORDS
            or word.isdigit()
        ):
            break
        mods.insert(0, word)
    opening = not words and not sentence[: match.start() - sum(len(m) + 1 for m in mods)].strip()
    if not determined and not opening and not (mods and all(m[:1].isupper() for m in mods)):
        return None  # "Open mic at the Bluebell tonight": a notice opens with its occasion
    if determined and words and words[-1].lower() in _MEMBERSHIP:
        return None  # "get the twins into the nursery class": a place in a group, no occasion
    if (words and words[-1].lower() in _ENDING) or _CALLED_OFF.match(sentence[match.end() :]):
        return None  # "cutting the Tuesday service", "the fête is cancelled": news of it, a report
    if determined and _organisation(noun, mods, words):
        return None  # "a letter from the Royal Flying Doctor Service": who sent it
    if noun.lower() in _VERBS_TOO and words and words[-1].lower() in _CAUSATIVE:
        return None  # "Frank lets the Block Association meet in the back room": they meet
    if noun.lower() not in alone and (not mods or mods[-1].lower() in PLAIN_WORDS):
        return None
    if noun.lower() in DAY_PARTS and mods and mods[-1].lower() in _WHEN_WORDS:
        return None  # "on Tuesday evening", "Come Friday night"
    what = " ".join([*mods, noun if noun[:1].isupper() and mods else noun.lower()])
    if who is None:
        host = list(_HOST.finditer(sentence[: match.start()]))
        if host:
            host_name = host[-1]["who"]
            who = speaker if host_name in ("I", "We", "we") else host_name
    start = match.start() - sum(len(m) + 1 for m in mods)
    return what, who, max(0, start)


_GIVEN_TO = re.compile(
    r"\b(?:give|giving|gives|throw|throwing|throws)\s+(?:him|her|them)\s+(?:a|an|the)\s+"
    r"(?:[\w'’-]+\s+){0,3}$"
)
"""An occasion given to someone named before ("we'll give him a proper …")."""
_PERSON = re.compile(
    r"\b(?P<name>(?:(?:Dr|Mr|Mrs|Ms|Miss|Father|Sister|Auntie|Uncle|Old)\.?\s+)?"
    r"[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)(?:'s|’s)?\s+(?:is|was|has|will|turns|retires|"
    r"leaves|'s|’s)\b"
)
"""Someone a sentence is about ("Dr. Hale is retiring"), whom "him" or "her" may mean."""


def _honoured(before: str) -> str | None:
    """Whom an occasion is given to, named as the subject before ("Dr. Hale is retiring to
    the coast, so … we'll give him a proper send-off" → "Dr. Hale"); None otherwise."""
    if _GIVEN_TO.search(before) is None:
        return None
    named = [m["name"] for m in _PERSON.finditer(before) if m["name"].split()[0] not in _NO_NAME]
    return named[-1] if named else None


_NO_NAME = frozenset(("The", "This", "That", "It", "He", "She", "They", "We", "I", "There"))
"""Capitalised words at a subject's head that name no one."""
_PRAISE = frozenset("proper real right decent".split())  # noqa: SIM905
"""Words that praise an occasion without naming it."""
_VERBS_TOO = frozenset("meet run walk race swim dance sing show do ride".split())  # noqa: SIM905
"""Occasion nouns that are also verbs."""
_CAUSATIVE = frozenset(
    "let lets letting make makes made making help helps helped watch watched see saw".split()  # noqa: SIM905
)
"""Verbs after which "the choir … sing" is what someone does, not an occasion."""
_ENDING = frozenset(
    """cutting cut cancelling canceling cancelled canceled scrapping scrapped axing axed
    stopping stopped ending ended closing closed dropping dropped postponing postponed
    losing lost""".split()  # noqa: SIM905
)
"""Verbs that end or change an occasion: what they are said of is no gathering to go to."""
_SHUT = re.compile(r"^\s*(?:closed|shut|open|reopened|cancelled|canceled|postponed)\b", re.I)
_CALLED_OFF = re.compile(
    r"^(?:\s+[\w'’-]+){0,6}?\s+(?:is|are|was|were|has been|have been|'s|’s|got|will be)\s+"
    r"(?:now\s+|been\s+)?(?:cancelled|canceled|called off|postponed|scrapped|axed|off)\b",
    re.I,
)


def _organisation(noun: str, mods: list[str], before: list[str]) -> bool:
    """A capitalised name ending in an occasion noun, after "from" or "by": the body that
    sends or does something ("a letter from the Royal Flying Doctor Service"), not a date."""
    named = noun[:1].isupper() and len(mods) >= 2 and all(m[:1].isupper() for m in mods)
    return named and bool(before) and before[-1].lower() in ("from", "by")


_MEMBERSHIP = frozenset({"into"})
"""The word before an occasion's determiner that makes it a group one joins, not a date."""


def _joined_modifier(before: list[str]) -> bool:
    """Whether the word before an "and" among an occasion's modifiers is one too, with a
    determiner before it ("a soup and pudding supper"), not the end of a clause ("the café
    and dinner at the hall")."""
    if len(before) < 2:
        return False
    word, determiner = before[-1], before[-2].lower()
    return word.lower() not in STOPWORDS and determiner in DETERMINERS


_APPOSITION = re.compile(r"[A-Z][\w'’-]*,\s+(?:a|an)\s+(?:[a-z][\w'’-]*\s+){0,2}$")
"""A noun after a name and a comma says what the named is ("Gweithdy Llechi, a workshop")."""
_CLAUSE_BREAK = re.compile(r"[,;:]\s|\s[-–—]\s")
"""Where the words before an occasion's noun stop naming it: no modifier crosses a comma."""
_NEXT_WORD = re.compile(r"^[ \t]+(?P<word>[a-z][a-z'’-]*)\b")
_VERB_ENDING = re.compile(r"(?:s|ed|ing)$")


def continued(fact: Fact, sentence: str, *, now: datetime | None) -> Fact | None:
    """A gathering that says no time, with the next sentence's day, time and
    place ("Maureen has offered to teach CPR. Come to the library on Wednesday at 6 pm."),
    or one that says no place, with where the next sentence bids people meet ("Please meet
    at the front gate of Fenwick Street Park."); None when that sentence adds neither."""
    if fact.kind != NAME:
        return None
    if fact.timed:
        meet = _MEET.match(sentence)
        where = _place(sentence[meet.end() :]) if meet is not None and not fact.place else None
        return None if where is None else replace(fact, place=where)
    more = _fact(sentence, what=fact.what, who=fact.who, before=0, after=0, now=now)
    dated = fact.day is not None or fact.weekday is not None
    if ((more.day is None and more.weekday is None) or dated) and more.start_min is None:
        return None  # nothing it lacks: a dated one takes only hours ("Kicks off about half six")
    bidden = open_to_all(sentence) or _BIDDING.match(sentence) is not None
    merged = fact.merged(more)
    if more.place and _HELD_AT.match(sentence):  # "It will take place … in the school hall"
        merged = replace(merged, place=more.place)  # the venue, not where its topic lies
    return replace(merged, open_to_all=fact.open_to_all or bidden)


def for_purpose(fact: Fact, sentence: str) -> Fact | None:
    """A gathering that says no purpose, with what a later sentence says will be done at it
    ("We must vote on rationing by sectors …" is "to vote on rationing by sectors …"); None
    when the sentence says none or the gathering has one."""
    said = _TO_BE_DONE.match(sentence)
    if fact.kind != NAME or fact.purpose is not None or said is None:
        return None
    return replace(fact, purpose=f"to {said['act']}{said['rest']}".rstrip(" ."))


_TO_BE_DONE = re.compile(
    r"^\s*we(?:'ll| will| must| need to| have to| are going to| shall| are to)\s+"
    r"(?P<act>vote on|vote|decide|discuss|choose|elect|debate|agree on|plan)\b"
    r"(?P<rest>[^.;!?(]*)",
    re.I,
)
"""What those who come will do, said after the gathering ("We must vote on …")."""


_HELD_AT = re.compile(
    r"^\s*(?:it|this|the meeting|the event)\s+(?:will\s+)?(?:take|takes|is taking|be|is|will be)"
    r"\s+(?:place|held|hosted|on)\b",
    re.I,
)
"""A sentence that says where and when the occasion before it is held."""


_MEET = re.compile(
    r"^\s*(?:please\s+)?(?:meet|gather|assemble|come|report|we(?:'ll| will) meet|"
    r"we(?:'re| are) meeting|meeting point is)\b",
    re.I,
)
"""A sentence saying where whoever comes should meet."""
_MEET_AT = re.compile(r"^\s*(?:please\s+)?meet\s+(?:us\s+)?(?:at|in|outside|by|on|inside)\b", re.I)
_BIDDING = re.compile(r"^\s*(?:please\s+)?(?:come|drop in|pop in|join us)\b", re.I)
"""A sentence bidding whoever hears it to come ("Come to the library on Wednesday at 6")."""


_OBJECT = re.compile(
    r"^[ \t]+(?:(?:the|a|an|his|her|my|our|their|your|its|this|that|these|those)\b|"
    r"(?P<proper>[A-Z][\w'’]*))"
)


def _with_object(noun: str, after: str) -> bool:
    """Whether an -ing occasion word takes an object, and so is a verb ("opening the shop",
    "meeting Tom"); a day or month after it is when ("the christening Saturday")."""
    following = _OBJECT.match(after) if noun.lower().endswith("ing") else None
    if following is None:
        return False
    proper = following["proper"]
    return proper is None or proper.capitalize() not in (*WEEKDAYS, *MONTHS)


AFTER_CEREMONY = 60
"""Minutes from the start of an occasion to what follows it "afterwards" when no end is said
(a wedding service, then the reception)."""


_WHEN_AFTER = re.compile(
    r"\b(?i:after|before|following|until|till)\s+(?:(?i:the|this|our|their)\s+)?(?:\w+\s+)?$"
)
"""An occasion named to say when another one is ("the supra … after the morning liturgy",
"the dance after the harvest supper"): where another occasion is in the sentence, it is not
news of its own."""


def _afterwards(found: list[Fact], sentence: str) -> list[Fact]:
    """A gathering said to come "afterwards" starts when the other one of its sentence ends,
    not at that one's hour: "married at St. Mary's at two …, the reception in the Memorial
    Hall afterwards"."""
    first = next((f for f in found if f.start_min is not None and not _follows(f, sentence)), None)
    if first is None or first.start_min is None:
        return found
    begins = first.end_min if first.end_min is not None else first.start_min + AFTER_CEREMONY
    return [
        replace(f, start_min=begins, end_min=None)
        if f is not first and _follows(f, sentence)
        else f
        for f in found
    ]


def _follows(fact: Fact, sentence: str) -> bool:
    return (
        re.search(rf"\b{re.escape(fact.what)}\b[^.;]*?\bafter(?:wards?| that)\b", sentence, re.I)
        is not None
    )


_NEXT_NAME = re.compile(r"^[ \t]+(?P<word>[A-Z][\w'’-]*)")


def _in_proper_name(noun: str, after: str) -> bool:
    """Whether a capitalised occasion noun is part of a place's name ("the Memorial Hall",
    "Market Square"): another capitalised word follows that is no day or month."""
    following = _NEXT_NAME.match(after)
    return (
        noun[:1].isupper()
        and following is not None
        and following["word"] not in (*WEEKDAYS, *MONTHS)
    )


def _compounded(after: str) -> bool:
    """Whether the occasion noun is followed by a noun that it only modifies ("launch
    trolley", "market stalls are up" is not caught): a plain lowercase word that is no
    function word, no word of when, and no verb by its ending ("the dance starts")."""
    following = _NEXT_WORD.match(after)
    if following is None:
        return False
    word = following["word"]
    return not (
        word in STOPWORDS
        or word in _WHEN_WORDS
        or word in DAY_PARTS
        or word in _PREPOSITIONS
        or _VERB_ENDING.search(word)
    )


_PREPOSITIONS = frozenset(
    """along across around round through past over under beside near behind towards toward
    into onto outside inside between beyond up down off out""".split()  # noqa: SIM905
)
"""Words after an occasion noun that begin where it is ("a litter pick along the river")."""


def _fact_at(
    match: re.Match[str], sentence: str, *, what: str, who: str | None, now: datetime | None
) -> Fact:
    """`_fact` of the words a pattern matched: what comes before and after them."""
    return _fact(sentence, what=what, who=who, before=match.start(), after=match.end(), now=now)


def _fact(
    sentence: str, *, what: str, who: str | None, before: int, after: int, now: datetime | None
) -> Fact:
    rest = sentence[after:]
    clause = _CLAUSE_END.split(rest, maxsplit=1)[0]
    timing = read_time(clause)
    if timing["start_min"] is None:
        timing = read_time(sentence[:before])
    if timing["start_min"] is None:  # "… on Thursday, and there is tea from noon till three"
        timing = read_time(rest)
    day = read_day(clause, now=now)
    if day["day"] is None and day["weekday"] is None:
        day = read_day(sentence, now=now)
    leading = _place(sentence[:before]) if _LEADING_PLACE.match(sentence) else None
    purpose = (_WORK_PURPOSE if what == WORK else _PURPOSE).search(sentence[after:])
    evening = set(what.lower().split()) & EVENING_WORDS and what != WORK
    if evening and not re.search(r"\b(?:am|a\.m\.)", clause):
        timing = {k: _evening(v) for k, v in timing.items()}
    return Fact(
        kind=NAME,
        what=what,
        who=who,
        place=(
            _place(clause)
            or leading
            or _place(rest)
            or _proper_place(sentence)
            or _listed_place(rest)
            or _place_after_hour(rest)
            or _place_bidden(sentence[:before])
            or _place_announced(sentence[:before])
        ),
        month=day["month"],
        day=day["day"],
        weekday=day["weekday"],
        start_min=timing["start_min"],
        end_min=timing["end_min"],
        weight=WEIGHT,
        purpose=purpose["purpose"].strip() if purpose else None,
    )


def _called(sentence: str, *, speaker: str | None, now: datetime | None) -> Fact | None:
    """The work party of a call for hands on a day (`_CALL`): its caller organises it, its
    task ("to dig the snow off") is what it is for, and a call to everyone is open to all.
    None when the call names no day: "we need people to help" is no occasion."""
    call = _CALL.search(sentence)
    if call is None:
        return None
    group = next(g for g in ("task", "task2", "task3", "task4") if call[g] is not None)
    task = _TASK_END.split(call[group], maxsplit=1)[0].strip(" -")
    if not task or task.split()[0].lower() in DETERMINERS:
        return None  # "Come to the community room …" says where, not what to do
    task_end = call.start(group) + len(task)
    named_it = _ANTECEDENT.match(sentence[: call.start()])
    if named_it is not None and re.search(r"\b(?:it|them)\b", task):
        task = re.sub(r"\b(?:it|them)\b", f"the {named_it['np'].lower()}", task, count=1)
    who = call["who"]
    who = speaker if who in ("I", "We", "we") else who
    whom: str | None = call["whom"]
    if call["task4"] is not None:  # "Neighbors … are invited to help plant": whom it invites
        whom = sentence[: call.start()].strip()
    fact = _fact(sentence, what=WORK, who=who, before=call.start(), after=task_end, now=now)
    if fact.day is None and fact.weekday is None:
        return None
    return replace(
        fact,
        place=fact.place or _place(sentence[: call.start()]),
        purpose=f"to {task}",
        open_to_all=whom is None or _COLLECTIVE.search(whom) is not None,
    )


_WHEN_OR_WHERE = (
    r"(?=(?:at|@|on|in|this|tonight|tomorrow|today|tmrw|next|from|along|beside|behind|near|"
    r"down|up at|over at|round at|outside|inside|"
    r"(?i:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?)\b)"
)
_NP = (
    r"(?P<name>[A-Za-z][\w'’-]*(?:\s+(?:(?:of|of the|and|on the|for the)\s+(?=[A-Z]))?"
    r"[A-Za-z][\w'’-]*){0,4}?(?:\s+of\s+(?:the\s+)?[a-z][\w'’-]*)?)"
)
_FOR = r"(?:\s+for\s+the\s+[\w'’-]+(?:\s+(?:of\s+)?[\w'’-]+){0,4}?)?"
"""What an occasion is for, between its name and "is" ("the Ward Sabha for the second half
of 2025-26 will be held …"): not part of its name."""
_OF_TAIL = re.compile(r"\s+of\s+(?:the\s+)?[a-z][\w'’-]*$")
"""What an occasion is of ("the blessing of the boats")."""
_FRAMES = (
    # "the corn boil is at Memorial Park today at 6 pm", "… told me that the quiz night is on"
    re.compile(
        rf"(?:\b(?:[Tt]he|[Oo]ur|[Tt]heir|[Tt]his)\s+|^){_NP}{_FOR}\s+(?:is|are|will be|'s|’s|"
        r"takes place|will take place|is taking place|is happening|will happen|happens|"
        r"goes ahead|is going ahead|will go ahead|(?:is|will be|is being) held|is on|"
        r"runs|will run|(?:is|are) (?i:back)(?:\s+[-–—,])?|returns(?:\s+[-–—,])?)"
        rf"\s+{_WHEN_OR_WHERE}"
    ),
    # "Did you hear about the perogy bee at the hall on Thursday at 9 am?"
    re.compile(rf"\babout\s+(?:the|a|an)\s+{_NP}\s+{_WHEN_OR_WHERE}", re.I),
    # "The Ladies' Auxiliary will hold a perogy bee in the church basement on Thursday …"
    re.compile(
        r"(?P<verb>\b(?:holding|holds|hold|hosting|hosts|host|having|have|has|putting on|puts on|"
        r"put on|organising|organizing|organises|organizes|organise|organize|throwing|throws|"
        r"throw|running|runs|run|staging|stages|stage|doing|do|starting|calls|calling|called)\s+)"
        rf"(?P<det>a|an|the|our|their|its|his|her|my|(?-i:[A-Z][\w-]+)['’]s)\s+{_NP}"
        rf"(?:\s+[-–—]\s+[^,.;:!?-]{{1,40}},)?\s+(?:for\s+)?{_WHEN_OR_WHERE}",
        re.I,
    ),
    # "there's a barn raising up at the Hendersons' place on Saturday"
    re.compile(
        r"(?P<verb>\b[Tt]here(?:'s|’s| is| will be|'ll be|’ll be| are)\s+(?:going to be\s+)?)"
        rf"(?P<det>a|an|another|some)\s+{_NP}\s+{_WHEN_OR_WHERE}"
    ),
    # a notice that opens with what it is: "corn boil at Memorial Park tonight!!", or says
    # it after a dash ("Right, it's decided - NOSON LAWEN in the Neuadd Goffa this Friday")
    re.compile(rf"(?:^\s*|\s[-–—]\s+(?=[A-Z])){_NP}(?:!|\s*[:—–]|\s+-)?\s+{_WHEN_OR_WHERE}"),
    # a notice that says when and where first: "Tonight, at 7 pm, in the Plaza, the great
    # show of Lucha Libre!"
    re.compile(rf",\s+(?:the|a|an)\s+{_NP}\s*[!.]*\s*$"),
    # an occasion retold by its owner's name: "Guess what? Ana's dinner is at …", "Word is
    # that Hiro Sato's drinks evening is …", "Did you hear about Ana's dinner at …?"
    re.compile(
        r"(?:(?<=\bthat )|(?<=[?!:] )|(?<=\babout ))"
        r"(?=(?:[A-Z][\w'’-]*\s+){0,2}[A-Z][\w'’-]*(?:'s|’s)\s)"
        rf"{_NP}(?:\s+(?:is|are|will be))?\s+{_WHEN_OR_WHERE}"
    ),
)
_HOSTED, _NOTICE, _LAST = 2, 4, 5
"""The frames of what someone holds and of a notice's head."""
_PAST = re.compile(r"\b(?:was|were|went|had|last|yesterday|ago)\b", re.I)
"""An occasion told of as over ("Karaoke at the RSL was a right laugh on Saturday")."""
_LISTED_PLACE = re.compile(
    r"(?:^|[,;:—–]\s*)(?P<place>(?:[A-Z][\w'’.-]*\s+){0,4}(?:[A-Z][\w'’-]*)(?:\s+[a-z]+)?)"
    r"\s*(?=[,;.!]|$)"
)
"""A place listed in a notice between commas ("Fish Fry — Friday, 5 to 7:30 pm, Parish Hall.")."""
"""Where any words are an occasion's name by where they stand, whatever the noun: before
"is at/on …" (as a gathering is told again), after "about", as what someone holds, or at the
head of a notice; `_framed` keeps it only when a day and an hour or a place follow."""
_NOT_IN_NAME = frozenset(
    [
        *(w.lower() for w in WEEKDAYS + MONTHS),
        "tonight",
        "tomorrow",
        "today",
        "everyone",
        "everybody",
        "anyone",
        "anybody",
        "someone",
        "somebody",
        "nobody",
        "something",
        "thing",
        "things",
        "time",
        "day",
        "week",
        "lot",
        "bit",
        "way",
        "place",
        "one",
        "people",
        "folks",
        "please",
        "meet",
    ]
)
"""Words that make the words before "is at …" no occasion's name ("everyone is at the hall")."""


@lru_cache(maxsize=1)
def _all_occasions() -> frozenset[str]:
    alone, modified = occasions()
    return alone | modified


def _listed_place(text: str) -> str | None:
    """A capitalised name listed on its own between commas that is no day, month or hour."""
    for match in _LISTED_PLACE.finditer(text):
        place = match["place"].strip()
        words = {w.lower().strip(".") for w in place.split()}
        if words & _WHEN_WORDS or words & STOPWORDS or words & _NOT_PLACE_WORDS:
            continue
        if place.split()[-1].lower() not in PLACE_NOUNS:
            continue  # "…, Priya.": whom it is said to, not where
        return place
    return None


_RETIMED = re.compile(r"\binstead of (?:at )?(?:\d|noon|midnight|midday)", re.I)
"""A time said as a change from another: what runs by a timetable, not an occasion."""
_AFTER_HOUR = re.compile(
    r"\d(?::\d\d)?\s*(?:hrs?|h|[ap]\.?m\.?)?,\s*"
    r"(?P<place>(?:[A-Z][\w'’.-]*\s+){1,4}[A-Z][\w'’-]*)\s*(?=[,;.!]|$)",
    re.I,
)


def _place_after_hour(text: str) -> str | None:
    """A name of two or more words listed after the hour, as a notice sets out when and then
    where ("MONDAY 10 AUGUST, 19:00 HRS, SEDE SOCIAL."), said as a name is written."""
    found = _AFTER_HOUR.search(text)
    if found is None or not all(w[:1].isupper() for w in found["place"].split()):
        return None
    place = found["place"]
    if {w.lower() for w in place.split()} & (_WHEN_WORDS | STOPWORDS | _NOT_PLACE_WORDS):
        return None
    return place.title() if place.isupper() else place


_NOT_PLACE_WORDS = frozenset(
    "members only admission free adults children everyone welcome all tickets rsvp".split()  # noqa: SIM905
)


def _framed(sentence: str, *, speaker: str | None, now: datetime | None) -> Fact | None:
    """An occasion named by any words (`_FRAMES`): "corn boil", "perogy bee", "tractor
    run" need not be in the list of occasions when the sentence says when and where they
    are. None unless a day and an hour, or a day and a place (a notice: a place and an hour
    or day), are said, and unless the name's words are a name (no function words, no verb)."""
    for index, frame in enumerate(_FRAMES):
        for match in frame.finditer(sentence):
            name = match["name"]
            of = _OF_TAIL.search(name)
            words = name[: of.start() if of else len(name)].split()
            lowered = [w.lower().strip("'’") for w in words]
            inner = [
                w
                for i, (w, t) in enumerate(zip(lowered, words, strict=True))
                if not t[:1].isupper()
                and not _connects(words, i)
                and not (i == len(words) - 1 and i > 0 and w in _all_occasions())
            ]  # "a big do": an occasion's noun may be a small word
            function = any(w in STOPWORDS or w in _PRONOUN_WORDS for w in inner)
            if function and not _TITLE_CASED.fullmatch(name):
                continue
            if any(w in _NOT_IN_NAME or w in _PRONOUN_WORDS for w in lowered):
                continue
            if lowered[0] in STOPWORDS:
                continue  # "The Fall Supper is …" is named from the word after "The"
            if any(w.endswith("ed") or w.endswith("n't") for w in lowered[-1:]):
                continue  # "the hall got flooded on Monday": what happened to it
            person = index == 0 and match.start("name") == 0 and len(words) <= 2
            if person and re.fullmatch(_NAME, name):
                continue  # "Tom is at the hall on Friday": a person, not an occasion
            if index == _NOTICE and lowered[0] in BID_VERBS:
                continue  # "Come down to the quay": a bidding (`_bidden`), not a name
            if index == _NOTICE and match.start("name") > 0 and lowered[-1] in PLACE_NOUNS:
                continue  # "ZIP WIRE - THURS 6.30 - SCHOOL HALL in marker pen": a place
            lone = index == _NOTICE and len(words) < 2 and lowered[0] not in occasions()[0]
            if lone and lowered[0] in _DAILY:
                continue  # "lunch at the café at noon": a day's routine, not an occasion
            who: str | None = None
            owner = re.match(rf"^(?P<who>{_NAME})(?:'s|’s)\s+", name)
            if owner is not None and len(words) > len(owner["who"].split()):
                who = speaker if owner["who"] == "I" else owner["who"]  # "Kate's corn boil"
                words = words[len(owner["who"].split()) :]
                lowered = lowered[-len(words) :]
            if index == _HOSTED:
                det = match["det"].lower()
                host = list(_HOST.finditer(sentence[: match.end("verb")]))
                subject = sentence[: match.start("verb")].strip()
                if det in ("our", "my") or re.search(
                    rf"\b(?:I|[Ww]e)(?:'m|’m|'re|’re|'ll|’ll| am| are| will)?{_ADVERB}\s*$", subject
                ):
                    who = speaker
                elif host:
                    who = host[-1]["who"]
            capitalised = len(words) > 1 and all(w[:1].isupper() for w in words)  # "NOSON LAWEN"
            what = (
                " ".join(words)
                if words[0][:1].isupper() and (index != _NOTICE or capitalised)
                else " ".join([lowered[0], *words[1:]])
            ) + (of[0] if of else "")
            fact = _fact(
                sentence,
                what=what,
                who=who,
                before=match.start("name"),
                after=match.end("name"),
                now=now,
            )
            if _PAST.search(sentence[match.end("name") :]):
                continue
            if fact.place is None:
                fact = replace(fact, place=_listed_place(sentence[match.end("name") :]))
            if fact.place is None and (beside := _ALONG.match(sentence[match.end("name") :])):
                fact = replace(fact, place=_place(f"at {beside['place']}"))  # "along the creek"
            dated = fact.day is not None or fact.weekday is not None
            if index == _LAST and fact.place is None:
                fact = replace(fact, place=_place(sentence[: match.start("name")]))
            if index == _LAST and not (dated and fact.start_min is not None and fact.place):
                continue  # said after its day, hour and place, all three
            if index == _NOTICE:
                timed = dated and fact.start_min is not None
                if not timed and (fact.place is None or not (dated or fact.start_min is not None)):
                    continue
                titled = sentence[match.end("name") : match.end("name") + 1] == "!"
                if lone and (not (timed or (titled and dated)) or fact.place is None):
                    continue  # "darts at the Anchor tonight, 8ish": one word, said in full,
                    # or a notice's title ("NADI! Friday on the Upper Meadow")
                if not dated and now is not None:
                    fact = replace(fact, month=now.month, day=now.day)
            elif not dated or (fact.start_min is None and fact.place is None):
                continue
            return fact
    return None


_HEADING = re.compile(
    r"^\s*(?P<name>[A-Z][\w'’-]*(?:\s+(?:(?:of|the|and|for|on|&)\s+)*[A-Z][\w'’-]*){1,5})"
    r"\s*[.!:]?\s*$"
)


def heading(sentence: str) -> str | None:
    """A notice's title standing as a sentence of its own ("Community Tree Planting."):
    what a call for hands under it is called. None for anything else."""
    match = _HEADING.match(sentence)
    if match is None:
        return None
    name = match["name"]
    lowered = {w.lower() for w in name.split()}
    if lowered & _WHEN_WORDS or lowered & {"notice", "reminder", "update", "agenda"}:
        return None
    return name


_DAILY = frozenset(
    "breakfast lunch dinner tea supper brunch work school bed home shift class church".split()  # noqa: SIM905
)
"""A notice's one word that names a day's routine, not an occasion."""


def _connects(words: list[str], index: int) -> bool:
    """Whether a small word joins two capitalised ones ("Blessing of the Boats")."""
    if words[index].lower() not in ("of", "the", "and", "for", "on"):
        return False
    before = any(w[:1].isupper() for w in words[:index])
    after = next((w for w in words[index + 1 :] if w.lower() not in ("the", "of")), "")
    if words[index].lower() == "of" and index > 0 and after[:1].isupper():
        return True  # "the great show of Lucha Libre": what it is a show of
    return before and after[:1].isupper()


_ALONG = re.compile(r"\s+(?:along|beside|behind|by|near)\s+(?P<place>the\s+[^,.;!?]+)")
"""Where a notice's occasion is when no "at" says so ("Tree planting along the creek …")."""
_TITLE_CASED = re.compile(
    r"[A-Z][\w'’-]*(?:\s+(?:(?:of|of the|and|on the|for the)\s+)?[A-Z][\w'’-]*)*"
)
"""A name in title case may hold "of the" ("the Blessing of the Fleet")."""
_PRONOUN_WORDS = frozenset("it they he she we you i this that there here".split())  # noqa: SIM905


PART_OF_DAY_HOURS = {"morning": 10, "afternoon": 14, "evening": 19, "night": 19, "tonight": 19}
"""The hour an occasion said only by its part of the day is taken to start ("corn boil at
Memorial Park tonight!!" is at 7 pm): when people come to an evening do with no hour given."""
_ONLY_PART = re.compile(
    r"\b(?:(?P<tonight>tonight)|(?:this|tomorrow|on\s+\w+day|\w+day)\s+"
    r"(?P<part>morning|afternoon|evening|night))\b",
    re.I,
)


def at_part_of_day(fact: Fact, text: str) -> Fact:
    """A dated gathering with no hour, given the hour of the part of the day its text names
    (`PART_OF_DAY_HOURS`), so those who go have a time to plan; unchanged otherwise."""
    if fact.kind != NAME or fact.start_min is not None:
        return fact
    if fact.day is None and fact.weekday is None:
        return fact
    said = _ONLY_PART.search(text)
    if said is None:
        return fact
    part = "tonight" if said["tonight"] else said["part"].lower()
    return replace(fact, start_min=PART_OF_DAY_HOURS[part] * 60)


def _ordinal(age: str) -> str | None:
    """ "100th" for "a hundred", "100" or "one hundred"; None for words that are no age."""
    words = age.lower().replace("a hundred", "one hundred")
    number = int(words) if words.isdigit() else _NUMBERS.get(words)
    return None if number is None or not 1 <= number <= 120 else str(_INFLECT.ordinal(str(number)))


def _evening(minutes: int | None) -> int | None:
    """An evening occasion "at 8" is at 8 pm."""
    return minutes + NOON if minutes is not None and minutes < NOON else minutes


_PROPER = re.compile(r"(?<=[a-z,] )The(?: [A-Z][\w'’-]+){1,3}")
"""A name with a capital "The" inside a sentence ("the back lounge of The Anchor")."""


_PLACE_NOUN = re.compile(
    r"\b(?P<place>(?:[A-Z][\w'’-]*\s+){1,4}(?:Court|Hall|Field|Ground|Grounds|Park|Stadium|"
    r"Gym|Gymnasium|Arena|Pitch|Church|Chapel|Centre|Center|Plaza|Square|Pier|Beach|School))\b"
)


def _named_place(sentence: str) -> str | None:
    """A place named by what it is, with no "at" before it ("7PM sa Pangdan Covered Court")."""
    found = _PLACE_NOUN.search(sentence)
    return found["place"] if found else None


def _proper_place(sentence: str) -> str | None:
    """Where a gathering is when no "at/in <place>" says so: a name that begins with a
    capital "The" within the sentence, as inns and halls are named ("The Anchor")."""
    found = _PROPER.search(sentence)
    return found[0] if found else None


_WITHIN = frozenset("at of and & on by near behind beside above below".split())  # noqa: SIM905
"""Words that join a place to the named place it lies in or by: "the taproom at Millrace
Brewery", "the fold on Dealul Florii" (where a guest finds it), not "the hall on Friday"."""


def _a_name(word: str) -> bool:
    """A capitalised word that is no day or month: the name of a place."""
    bare = word.strip(".,;:!?")
    return bare[:1].isupper() and bare.capitalize() not in (*WEEKDAYS, *MONTHS)


def _place(text: str) -> str | None:
    """The first "at/in <place>" of a text that names no time ("at the old chapel")."""
    for match in _PLACE.finditer(text):
        if match["named"]:
            return match["named"]
        words: list[str] = []
        given = match["place"].split()
        for index, word in enumerate(given):
            follows = given[index + 1] if index + 1 < len(given) else ""
            within = word.lower() in _WITHIN and _a_name(follows) and bool(words)
            if word in ("-", "–", "—") and words:
                break  # "the Upper Meadow - Gabliani hay": an aside after the dash
            if word.lower().rstrip(".,;:!?") in _PLACE_STOP and words and not within:
                break  # "the taproom at Millrace Brewery" is one place; "the hall at 7" is not
            named = word[:1].isupper() and follows[:1].isupper()  # "the Sunday School"
            if word.lower().strip(".,;:!?") in _WHEN_STOP and words and not named:
                break  # "the chapel Friday morning", "the Memorial Hall afterwards"
            words.append(word)
            if word[-1:] in ",;:":
                break
        place = " ".join(words).rstrip(".,;:!?")
        lowered = place.lower()
        if lowered.split()[:1] in (["at"], ["in"], ["on"]):
            continue  # "back on at the Fox": the next candidate reads "the Fox and Hounds"
        bare = re.sub(r"^the\s*", "", lowered)
        if not bare or lowered in _NOT_A_PLACE or lowered.split()[0] in _NOT_A_PLACE:
            continue
        if re.match(r"^(?:the\s+)?\d", lowered) or re.search(
            r"\b(?:am|pm|noon|midnight)$", lowered
        ):
            continue
        if re.match(r"^[a-z]+ing\b", place):
            continue  # "on closing the quarry road": what is done, not where
        return place
    return None


LIGHT_VERBS = frozenset(
    """bringing setting putting taking having doing getting making running holding going
    coming giving heading organising organizing planning hosting throwing arranging preparing
    laying""".split()  # noqa: SIM905
)
"""Verbs that say little of what happens ("bringing their telescopes over"): the activity
is named by their object and the part of the day ("the telescope evening")."""
NOT_GERUNDS = frozenset(
    """building morning evening ceiling clothing wedding pudding something nothing anything
    everything thing king ring string spring sibling during bring sing swing wing sting
    ping darling shilling farthing""".split()  # noqa: SIM905
)
"""Words ending in "-ing" that are no activity's name."""
_ACTIVITY = re.compile(
    rf"(?P<who>\bI|\b[Ww]e|\b[HhSs]h?e|\b[Tt]he(?:\s+[a-z][\w'’-]*){{1,3}}|{_NAME})"
    r"(?:'m|’m|'s|’s|'re|’re| am| is| are| will be|'ll be|’ll be)\s+"
    r"(?:(?:also|busy|all|out|off|now)\s+)?(?P<verb>[a-z]{3,}ing)\b"
)
"""Someone doing something ("Walter is unveiling it himself on Thursday at noon", "the
society are bringing their telescopes over … this Wednesday evening")."""
_PRONOUNS = frozenset("it them him her this that these those us you me".split())  # noqa: SIM905
_OBJECT_WORDS = re.compile(
    r"^\s+(?:(?:the|a|an|some|their|his|her|our|my|its|your)\s+)?"
    r"(?P<words>[a-z][a-z'’-]*(?:\s+[a-z][a-z'’-]*){0,3})"
)
_NOT_IN_OBJECT = frozenset("outside along round inside across past near".split())  # noqa: SIM905


def _object_noun(rest: str) -> str | None:
    """The head of the object after a verb: the last word before a function word ("the new
    boat from the slipway" → "boat"), or a pronoun ("it himself" → "it")."""
    found = _OBJECT_WORDS.match(rest)
    if found is None:
        return None
    words: list[str] = []
    for word in found["words"].split():
        if word in STOPWORDS or word in _NOT_IN_OBJECT or word in _WHEN_WORDS:
            break
        words.append(word)
    if not words and found["words"].split()[0] in _PRONOUNS:
        return found["words"].split()[0]
    if words and words[-1] in _MEASURES:  # "a huge sack of potatoes": the potatoes
        of = re.search(rf"\b{re.escape(words[-1])}\s+of\b", rest)
        inner = _object_noun(rest[of.end() :]) if of else None
        return inner or words[-1]
    return words[-1] if words else None


_MEASURES = frozenset(
    """sack bag box crate basket bucket pile heap load lot dozen bunch tray pot jar tin
    barrel plate bowl""".split()  # noqa: SIM905
)
"""Words that measure out what the object is: "a sack of potatoes" is named by the potatoes."""


_DAY_PART = re.compile(
    r"\b(?:this|next|tomorrow|on|[A-Z][a-z]+day)\s+(?P<part>morning|afternoon|evening|night)\b"
)
_GERUND_NAMED = re.compile(
    rf"(?:\b(?P<det>[Tt]he)|(?P<owner>(?:{NAME_WORD}\s+){{0,3}}{NAME_WORD})(?:'s|’s))\s+"
    r"(?:(?P<mod>[a-z]{3,})\s+)?(?P<gerund>[a-z]{3,}ing)(?=\s+(?:is|was|will be|at|on|from)\b)"
)
"""An activity told back by its name ("Walter Greaves's unveiling is at the station …")."""


def activity(
    sentence: str, *, text: str, speaker: str | None, now: datetime | None, after: str = ""
) -> Fact | None:
    """A timed activity open to all that names no occasion ("Walter is unveiling it himself
    on Thursday at twelve noon", in a text that says anyone is welcome), named by what is
    done ("the unveiling", "the plaque unveiling") or, for a verb that says little, by its
    object and the part of the day ("the telescope evening"); its doer organises it. Read
    only where the whole `text` says everyone may come: "I'm opening the shop on Friday at
    9" is no occasion. A sentence that says the day but not the hour ("tonight he's putting
    it on the spit") takes the hours from the sentence `after` it ("Fire goes on around 6
    … packed up by 9"). None when neither says a day and an hour."""
    found = _ACTIVITY.search(sentence)
    if found is None or found["verb"] in NOT_GERUNDS:
        return None
    verb, rest = found["verb"], sentence[found.end("verb") :]
    noun = _object_noun(rest)
    if noun in ("it", "them"):  # "a plaque … is going up, and Walter is unveiling it"
        noun = _antecedent(sentence[: found.start()])
    elif noun is not None and (noun in _PRONOUNS or noun in STOPWORDS or noun in _WHEN_WORDS):
        noun = None
    if noun is not None:
        noun = str(_INFLECT.singular_noun(noun) or noun)
    part = _DAY_PART.search(sentence)
    fact = _fact(
        sentence, what=verb, who=None, before=found.start(), after=found.end("verb"), now=now
    )
    if not fact.timed and after and (fact.day is not None or fact.weekday is not None):
        both = f"{sentence} {after}"
        fact = _fact(
            both, what=verb, who=None, before=found.start(), after=found.end("verb"), now=now
        )
    if not fact.timed:
        return None
    if verb in LIGHT_VERBS:
        if noun is None:
            return None
        start = fact.start_min or 0
        when = part["part"] if part else _part_of_day(start)
        what = f"{noun} {when}"
    else:
        what = f"{noun} {verb}" if noun else verb
    return replace(
        fact,
        what=what,
        who=_doer(found["who"], text=text, speaker=speaker),
        place=next(iter(_proper_places(rest)), None)
        or _last_place(sentence[: found.start()])
        or fact.place,
        purpose=fact.purpose or _activity_purpose(rest),
    )


_CLAUSES = re.compile(r":\s|;\s|,\s+(?:and|but|so)\s")
_NOUN_PHRASE = re.compile(r"\b(?:[Aa]n?|[Tt]he)\s+(?P<noun>[a-z][a-z'’-]+)\b")
"""A thing named in a clause ("a plaque to Agnes Rooke")."""


def _antecedent(before: str) -> str | None:
    """What "it" stands for, in the clause before: what was done to ("the trust has restored
    the old lamp, and Morwenna is lighting it" → "lamp"), else what the clause is about ("a
    plaque … is going up, and Walter is unveiling it" → "plaque"), looking back a clause at a
    time."""
    for clause in reversed([c for c in _CLAUSES.split(before) if c.strip()]):
        done_to = _DONE_TO.search(clause)
        if done_to is not None and (noun := _object_noun(" " + done_to["object"])):
            return noun
        for found in _NOUN_PHRASE.finditer(clause):
            noun = _object_noun(" " + clause[found.start("noun") :])
            if noun is not None and noun not in PLAIN_WORDS:
                return noun
    return None  # a clause with no thing in it ("so tonight he's putting it") looks further


_DONE_TO = re.compile(
    r"\b(?:has|have|had|is|are|was|were)\s+(?:just\s+)?[a-z]+(?:ed|en|t)\s+"
    r"(?P<object>(?:the|a|an|his|her|their|its|our)\s+[a-z][^,;:]*)"
)


def _part_of_day(minutes: int) -> str:
    """ "morning", "afternoon" or "evening" for a start time."""
    return "morning" if minutes < NOON else "afternoon" if minutes < 17 * 60 else "evening"


_PROPER_PLACE = re.compile(
    r"\b(?:at|in|on|to|inside|outside)\s+(?:the\s+)?"
    r"(?P<place>[A-Z][\w'’-]*(?:\s+(?:[A-Z][\w'’-]*|\d+)){0,5})"
)


def _proper_places(text: str) -> list[str]:
    """Every named place of a text ("on Platform 1", "over to Brackenby Recreation Ground"),
    days and months left out."""
    return [
        m["place"]
        for m in _PROPER_PLACE.finditer(text)
        if m["place"].split()[0].capitalize() not in (*WEEKDAYS, *MONTHS)
        and m["place"].split()[0] not in ("I", "Christmas", "Easter")
    ]


def _last_place(text: str) -> str | None:
    named = _proper_places(text)
    return named[-1] if named else None


def _activity_purpose(rest: str) -> str | None:
    purpose = _WORK_PURPOSE.search(rest)
    return purpose["purpose"].strip() if purpose else None


_NOBODY_NAMED = frozenset(
    """everyone everybody anyone anybody someone somebody they he she it there this that people
    folk you""".split()  # noqa: SIM905
)
"""Subjects that name no one to organise a doing."""


def _doer(who: str, *, text: str, speaker: str | None) -> str | None:
    """Who does it, by the fullest name the text gives: "I" is the speaker, "Walter" is the
    "Walter Greaves" named before, "the society" the "Kirkby Dark Skies Society"."""
    if who in ("I", "We", "we"):
        return speaker
    if who.lower() in ("he", "she"):  # the person the text is about: the name it opens with
        opening = re.match(rf"\s*(?P<name>{_NAME})\b", text)
        if opening is None or opening["name"].split()[0].lower() in _NOBODY_NAMED:
            return None
        named = opening["name"]
        if speaker and named.split()[0] == first_name(speaker):
            return speaker
        return _doer(named, text=text, speaker=speaker)
    words = who.split()
    if words[0].lower() in _NOBODY_NAMED:
        return None  # "Everyone is bringing a dish", "They are unveiling it"
    if words[0].lower() == "the":
        noun = words[-1].lower()
        if noun not in GROUP_NOUNS:
            return None  # "the lifeboat crew": no one to name
        named = re.search(rf"\b(?:[A-Z][\w'’-]*\s+){{1,4}}{noun.capitalize()}\b", text)
        return named[0] if named else None
    if len(words) == 1:
        full = re.search(rf"\b{re.escape(who)}\s+{NAME_WORD}", text)
        if full is not None:
            return full[0]
    longer = re.search(rf"(?:\b[A-Z][\w'’-]*\s+){{1,3}}{re.escape(who)}\b", text)
    return re.sub(r"^The\s+", "", longer[0]) if longer else who  # "The Brackley Brass Band"


_VISITS = re.compile(
    r"(?P<who>\b[Tt]he\s+(?:[A-Z][\w'’-]+\s+){0,4}[A-Z][\w'’-]+|"
    rf"(?:{NAME_WORD}\s+){{0,2}}{NAME_WORD})(?:,[^,;.]{{1,80}},)?\s+"
    r"(?:will|is going to|is to|is coming to)\s+"
    r"(?:visit|come to|be in|call at|call in at)\b"
)
"""Someone who will come to a place at a time ("the District Fisheries Officer will visit
Efutuakwa on Monday at 4 pm at the Community Centre"): their visit."""


_TALK_VISIT = re.compile(
    rf"(?P<who>(?:{NAME_WORD}\s+){{0,3}}{NAME_WORD})\s+(?:comes|is coming|will come|will be "
    r"coming|is visiting|will visit)\b[^.;]{0,80}?\bto (?:talk|speak) (?:with|to) "
    r"(?:us|everyone|everybody|the village|the town|all of us|you)(?: all)? about "
    r"(?P<topic>(?:the |our |your )?[^.;,!?]{3,60})"
)
"""Someone coming to talk with everyone about something ("Mayor Ioan Pleș comes with an
engineer … to talk with us about the village water"): a meeting about it."""


def _visit(sentence: str, *, now: datetime | None) -> Fact | None:
    """A visit with a day and an hour (`_VISITS`), named by whose it is; one to talk with
    everyone about something (`_TALK_VISIT`) is the meeting about it, which they hold."""
    talk = _TALK_VISIT.search(sentence)
    if talk is not None:
        meeting = _fact_at(talk, sentence, what="meeting", who=talk["who"], now=now)
        before = sentence[: talk.start()].rsplit(":", 1)[-1]  # "…: at 7, in the Cultural Home,"
        where = meeting.place or _place(before)
        named = replace(meeting, what=f"meeting about {talk['topic'].strip()}", place=where)
        return named if meeting.timed else None
    found = _VISITS.search(sentence)
    if found is None:
        return None
    who = re.sub(r"^[Tt]he\s+", "", found["who"])
    if who.split()[0] in ("It", "He", "She", "They", "We", "I", "This", "That"):
        return None
    fact = _fact_at(found, sentence, what="visit", who=who, now=now)
    return fact if fact.timed else None


def _gerund_named(sentence: str, *, speaker: str | None, now: datetime | None) -> Fact | None:
    """An activity told back by its name, with a day and an hour (`_GERUND_NAMED`)."""
    found = _GERUND_NAMED.search(sentence)
    if found is None or found["gerund"].lower() in NOT_GERUNDS:
        return None
    mod = found["mod"]
    if mod is not None and (mod in STOPWORDS or mod in PLAIN_WORDS):
        mod = None
    what = f"{mod} {found['gerund']}" if mod else found["gerund"]
    owner = found["owner"]
    fact = _fact_at(found, sentence, what=what, who=None, now=now)
    if not fact.timed:
        return None
    who = (speaker if owner == "I" else owner) if owner else None
    return replace(fact, who=who)


BID_VERBS = frozenset("come pop drop swing stop head wander join".split())  # noqa: SIM905
"""Verbs that bid whoever hears them to come."""
_BID = re.compile(
    r"(?:^|[,;:!?.–—-]\s*|\b(?:please|do|so|and|then|just|why not|you should|you must|"
    r"feel free to|you're welcome to|you’re welcome to)\s+)"
    r"(?P<bid>(?:come|pop|drop|swing|stop|head|wander)\s+(?:on\s+)?"
    r"(?:round|over|along|by|in|down|up|across)\b"
    r"|come\s+(?=(?:to|at)\s)|join\s+(?P<us>us|me)\b"
    r"|(?:every(?:one|body)|all|you(?:'re|’re| are)?(?:\s+all)?)(?:'s|’s| is| are)?\s+"
    r"(?:very\s+|most\s+|more than\s+)?welcome(?=\s+(?:at|to|in)\b)"
    r")"
    r"|(?P<having>\b(?:I'm|I’m|I am|[Ww]e're|[Ww]e’re|[Ww]e are)\s+having\s+"
    r"(?:a\s+few\s+|some\s+|a\s+couple\s+of\s+)?(?:people|folks?|friends|neighbou?rs|"
    r"everyone|everybody|the\s+[a-z]+)\s+(?:over|round|around)\b)",
    re.I,
)
"""Whoever hears it bidden to come somewhere ("Come round the back of the kura", "drop by the
plaza", "join us at the boathouse"), or people had over ("we're having a few people round")."""
_FOR_WHAT = re.compile(
    r"\b(?:for|over)\s+(?:a\s+|an\s+|some\s+|the\s+)?(?P<what>(?:quick\s+|little\s+|late\s+)?"
    r"[a-z][a-z'’-]*)(?:\s+and\s+(?:a\s+|some\s+)?[a-z][a-z'’-]*)?\b"
)
"""What one is bidden to ("for a drink", "for dinner", "over a cuppa")."""
_HAVE_WHAT = re.compile(
    r"\b(?:we'll|we’ll|we will|we can|let's|let’s|we're going to|we’re going to|I'll|I’ll)\s+"
    r"(?:have|share|make|cook|do|grill|roast|light)\s+(?:a\s+|an\s+|some\s+|the\s+)?"
    r"(?P<what>[a-z][a-z'’-]*(?:\s+[a-z][a-z'’-]*)?)"
)
"""What is had there ("we'll have a drink", "we'll light a fire")."""
_TO_DO = re.compile(
    r"\bto\s+(?!noon\b|midnight\b|\d)(?P<verb>[a-z]{3,})\s+(?:the|a|an|our|my|his|her|their|"
    r"some)\s+(?P<rest>[a-z][^,.;!?]*)"
)
"""What is done there ("to paint the old skiff")."""
NOT_WHAT = frozenset(
    """it them us you me him her everyone everybody anyone anybody people friends folks kids
    children family a an the some while bit minute moment second time change chat natter visit
    look good long short""".split()  # noqa: SIM905
)
"""Words after "for" or "have" that name no occasion ("for a while", "for the kids")."""
MEALS = frozenset("breakfast brunch lunch tea dinner supper feast".split())  # noqa: SIM905
"""What one is bidden to that names its gathering alone ("come round for dinner")."""
GET_TOGETHER = "get-together"
"""What a bidding to come at a time and place is called when it names nothing else."""
GENERIC = frozenset({GET_TOGETHER, *MEALS})
"""Names many people's gatherings share: such news is told apart by its organiser."""


def _bidden(sentence: str, *, speaker: str | None, now: datetime | None) -> Fact | None:
    """A bidding to come to a place at a time that names no occasion ("Come round the back of
    the kura tomorrow, half six, we'll have a drink"): a gathering named by the meal ("dinner"),
    by what is had there and the part of the day ("the drinks evening"), by what is done
    ("skiff painting"), else a get-together. Whoever bids organises it, or whoever owns the
    place ("at Ana's house"); "everyone is welcome" opens it. None without a day, an hour and
    a place: "come by sometime" is no occasion."""
    bid = _BID.search(sentence)
    if bid is None:
        return None
    start, end = bid.start("bid"), bid.end("bid")
    if bid["having"] is not None:
        start, end = bid.start("having"), bid.end("having")
    head, purpose = _bidden_to(sentence[end:])
    fact = _fact(sentence, what=head, who=None, before=start, after=end, now=now)
    part = _DAY_PART.search(sentence)
    if not fact.timed and part is not None:
        fact = at_part_of_day(fact, part[0])  # "on Saturday evening"
    undated = fact.day is None and fact.weekday is None
    if undated and fact.start_min is not None and now is not None:
        fact = replace(fact, month=now.month, day=now.day)  # "come round at half six": today
    place = _where_bidden(sentence[end:]) or fact.place or _place(sentence[start:])
    if not fact.timed or place is None:
        return None
    what = head
    if head not in MEALS and head != GET_TOGETHER and not head.endswith("ing"):  # a doing
        when = part["part"] if part else _part_of_day(fact.start_min or 0)
        what = f"{'drinks' if head == 'drink' else head} {when}"  # "the drinks evening"
    owner = re.match(rf"(?P<who>{_NAME})(?:'s|’s)\s", place)
    return replace(
        fact,
        what=what,
        who=owner["who"] if owner else speaker,  # "at Ana's house"; else whoever bids
        place=place,
        purpose=fact.purpose or purpose,
        open_to_all=open_to_all(sentence),
    )


_TOWARDS = re.compile(r"^\s*(?:(?:to|by|round|over|across|down|up|into)\s+)?(?=the\s|[A-Z])")
"""The words between a bidding and the place it names ("down to the quay", "by the Plaza")."""


def bids(sentence: str) -> bool:
    """Whether the sentence bids whoever hears it to come (`_BID`)."""
    return _BID.search(sentence) is not None


_ANNOUNCED = re.compile(r",\s+(?:at|in)\s+(?P<place>[^,]{3,60}),\s+(?:the|a|an)\s+[^,]{0,40}$")
"""A notice that says where just before what ("…, in the Plaza Principal, the GREAT show")."""


def _place_announced(text: str) -> str | None:
    announced = _ANNOUNCED.search(text)
    return _place(f"at {announced['place']}") if announced else None


_INVITED = re.compile(r"\b(?:are|is)\s+(?:all\s+|warmly\s+|cordially\s+)?invited\b")
"""Who is invited, before where ("… are invited on TUESDAY …, at the frantoio, for …")."""


def _place_bidden(text: str) -> str | None:
    """Where a text bids whoever hears it to come ("so come down to the Corn Exchange …" before
    "we'll give him a proper send-off"), or says who is invited to it."""
    bid = _BID.search(text) or _INVITED.search(text)
    if bid is None or bid.groupdict().get("having") is not None:
        return None
    return _where_bidden(text[bid.end() :]) or _place(text[bid.end() :])


def _where_bidden(rest: str) -> str | None:
    """The place right after a bidding ("Drop by the Plaza Principal", "come to the hall")."""
    towards = _TOWARDS.match(rest)
    return _place("at " + rest[towards.end() :]) if towards is not None else None


def _bidden_to(rest: str) -> tuple[str, str | None]:
    """(what a bidding is to, what it is for): "for dinner" → dinner; "we'll have a drink" →
    drink; "to paint the old skiff" → skiff painting, to paint the old skiff."""
    for pattern in (_FOR_WHAT, _HAVE_WHAT):
        for found in pattern.finditer(rest):
            words = [w for w in found["what"].split() if w not in NOT_WHAT]
            head = words[-1] if words else None
            if head and head not in STOPWORDS and head not in _WHEN_WORDS and head not in DAY_PARTS:
                return head, None
    done = _TO_DO.search(rest)
    if done is not None and done["verb"] not in STOPWORDS:
        noun = _object_noun(" the " + done["rest"])
        if noun is not None and noun not in _PRONOUNS:
            doing = str(_INFLECT.present_participle(done["verb"]))
            return f"{noun} {doing}", f"to {done['verb']} {done['rest'].split(' at ')[0]}".strip()
    return GET_TOGETHER, None


KIND = Gathering()
