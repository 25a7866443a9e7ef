"""Small lexical tools shared by the offline mind's heuristics.

Every heuristic here works on words, so tokenising, stemming, stop-word removal and the
detection of capitalised names live in one place and behave the same in every rule.
Nothing here is random: `stable_index` derives choices from a SHA-256 of the input, never
from Python's per-process salted `hash()`.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable
from functools import cache
from importlib import resources

MIN_STEM_LENGTH = 3
"""A suffix is stripped only if at least this many letters remain ("sing" stays "sing")."""

_EXTENDED = [chr(code) for code in range(0x100, 0x250)]  # Latin Extended-A and -B
UPPER = "A-ZÀ-ÖØ-Þ" + "".join(c for c in _EXTENDED if c.isupper())
"""Capital letters of names, accented ones too ("Siân", "Zoë", "Émile", "Łukasz", "Ștefan")."""
LOWER = "a-zß-öø-ÿ\u0100-\u024f"
"""Small letters of names (Latin-1 and Latin Extended-A and -B: "Pleș", "Wałęsa")."""
NAME_WORD = rf"[{UPPER}][{LOWER}]+"
"""One capitalised word of a name, not an acronym ("Siân", not "CPR")."""
_WORD_RE = re.compile(rf"[{UPPER}{LOWER}][{UPPER}{LOWER}'’]*")
_CAPITALISED_RE = re.compile(rf"[{UPPER}][{UPPER}{LOWER}'’-]*")
_SUFFIXES = ("ing", "ies", "ied", "ed", "es", "s")
_SIBILANTS = ("s", "sh", "ch", "x", "z")


def word_set(text: str) -> frozenset[str]:
    """The whitespace-separated words of a literal vocabulary, lower-cased, as a set."""
    return frozenset(text.lower().split())


STOPWORDS: frozenset[str] = word_set(
    """
    a about above after again against all also am an and any are as at be because been before
    being below between both but by can could did do does doing done down during each either
    else ever every few for from further get gets got had has have having he her here hers
    herself him himself his how i if in into is it its itself just let like made make makes
    many may me might more most much must my myself no nor not now of off on once only or
    other our ours out over own same she should so some still such than that the their theirs
    them themselves then there these they this those through to too under until up upon us very
    was we were what when where which while who whom whose why will with within without would
    yet you your yours yourself going go goes went really thing things something someone today
    tonight tomorrow yesterday day time around s t
    """
)
"""Function words and filler verbs that say nothing about a subject."""

PLACE_WORDS: frozenset[str] = word_set(
    """
    cafe café college university school pharmacy store shop market supply bar pub park
    library house apartment home street road square plaza hall church office studio field hill
    hospital station museum garden farm bakery restaurant dorm dormitory room kitchen
    bedroom bathroom town city village ville inn tavern gym
    """
)
"""Words that make a capitalised phrase a place ("Hobbs Cafe") rather than a person."""

SURNAME_PLACE_WORDS: frozenset[str] = word_set("park hall hill street garden house town field")
"""Place words that are also common surnames, so "Helen Park is walking" stays a person."""

_NOT_NAMES: frozenset[str] = word_set(
    """
    i the a an he she they we it this that these those his her their our my your its
    what who why how when where which is are was were do does did hi hello hey yes no oh
    well so but and or if then there here today tomorrow yesterday monday tuesday wednesday
    thursday friday saturday sunday january february march april may june july august
    september october november december mr mrs ms dr valentine valentines christmas easter
    halloween thanksgiving day eve new year
    """
)
"""Capitalised words that begin sentences or name dates, never people."""


_VERB_ENDINGS = ("ing", "ed", "ly")

COMMON_STARTERS: frozenset[str] = word_set(
    """
    wake make go have eat take work get start finish brush walk cook read write study paint
    sleep open close clean call meet visit buy serve help prepare plan invite ask tell talk
    chat attend check spend relax rest return head leave come see watch listen play practice
    review shower dress drink sit stand look find think feel there everyone nobody
    somebody people our one two three after before during at in on by
    """
)
"""Everyday words that often open a sentence or a plan step and are not names."""


def words(text: str) -> list[str]:
    """Lower-cased word tokens, with possessive "'s" removed ("Maria's" → "maria")."""
    return [_strip_possessive(w.lower()) for w in _WORD_RE.findall(text)]


def _strip_possessive(word: str) -> str:
    for suffix in ("'s", "’s"):
        if word.endswith(suffix):
            return word[: -len(suffix)]
    return word.rstrip("'’")


def stem(word: str) -> str:
    """A deliberately crude stemmer: enough to match "painting" with "paints" and "classes"
    with "class". It only has to be consistent, not linguistically right; keyword tables list
    irregular forms ("bake baking") side by side."""
    return _strip_suffix(word.lower())


def _strip_suffix(word: str) -> str:
    for suffix in _SUFFIXES:
        if not word.endswith(suffix) or len(word) - len(suffix) < MIN_STEM_LENGTH:
            continue
        base = word[: -len(suffix)]
        if suffix in ("ies", "ied"):
            return base + "y"
        if suffix == "es" and not base.endswith(_SIBILANTS):
            continue  # "makes" is "make" + "s", not "mak" + "es"
        if suffix == "s" and base.endswith(("s", "u", "i")):
            return word  # "class", "bus", "analysis" are not plurals
        doubled = len(base) > MIN_STEM_LENGTH and base[-1] == base[-2] and base[-1] not in "lsze"
        if suffix in ("ing", "ed") and doubled:
            return base[:-1]  # "running" → "runn" → "run"
        return base
    return word


def content_words(text: str) -> list[str]:
    """Words that carry meaning: no stop words, nothing shorter than three letters."""
    return [w for w in words(text) if w not in STOPWORDS and len(w) >= MIN_STEM_LENGTH]


def stems(text: str) -> set[str]:
    """The stemmed content words of a text, as a set for overlap scoring."""
    return {stem(w) for w in content_words(text)}


def proper_nouns(text: str) -> list[str]:
    """Runs of capitalised words ("Klaus Mueller", "Hobbs Cafe"), in order of appearance.

    Sentence-initial words count, because memories usually begin with a name, unless they look
    like ordinary words ("Brushing teeth", "Wake up"); capitalised function words and dates
    are dropped.
    """
    found: list[str] = []
    current: list[str] = []
    sentence_start = True
    for token in re.findall(r"[A-Za-z][A-Za-z'’-]*|[^\sA-Za-z]", text):
        word = _strip_possessive(token)
        if _CAPITALISED_RE.fullmatch(token) and _name_like(word, sentence_start, current):
            current.append(word)
            sentence_start = False
            if word != token:  # a possessive closes the name: "Maria's Cafe" is two things
                found.append(" ".join(current))
                current = []
            continue
        if current:
            found.append(" ".join(current))
            current = []
        sentence_start = token in '.!?:;"' or (sentence_start and not token.isalpha())
        if token.isalpha():
            sentence_start = False
    if current:
        found.append(" ".join(current))
    return found


def _name_like(word: str, sentence_start: bool, current: list[str]) -> bool:
    """Whether a capitalised word can be part of a name where it stands."""
    lowered = word.lower()
    if lowered in _NOT_NAMES:
        return False
    if not sentence_start or current:
        return True
    return (
        lowered not in STOPWORDS
        and lowered not in COMMON_STARTERS
        and not (lowered.endswith(_VERB_ENDINGS) and len(lowered) > len("bring"))
    )


def is_place(phrase: str) -> bool:
    """Whether a capitalised phrase names a place rather than a person."""
    return any(w in PLACE_WORDS for w in words(phrase))


def people(text: str) -> list[str]:
    """Capitalised phrases that look like people's names, deduplicated in order.

    A phrase with a place word is a place, except when that word is also a common surname
    ("Helen Park", "Ada Hall") and the phrase acts like a person ("Helen Park is walking").
    A phrase only ever named after "the" is a place or a thing ("at The Copper Kettle").
    """
    return unique(
        p
        for p in proper_nouns(text)
        if (not is_place(p) or _acts_as_person(p, text)) and not _only_after_the(p, text)
    )


def _only_after_the(phrase: str, text: str) -> bool:
    named = re.findall(rf"(\w+\s+)?{re.escape(phrase)}\b", text)
    return bool(named) and all(before.strip().lower() == "the" for before in named)


def _acts_as_person(phrase: str, text: str) -> bool:
    place_words = {w for w in words(phrase) if w in PLACE_WORDS}
    if not place_words <= SURNAME_PLACE_WORDS:
        return False
    return re.search(rf"\b{re.escape(phrase)}\s+(?:is|was)\s+\w+ing\b", text) is not None


def unique(items: Iterable[str]) -> list[str]:
    """Items in first-seen order without repeats."""
    return list(dict.fromkeys(items))


def first_name(name: str) -> str:
    """The given name that people use in conversation ("Klaus Mueller" → "Klaus"); the
    last of a name whose family name comes first ("Nguyen Van Sau" → "Sau",
    `FAMILY_FIRST_FILE`)."""
    parts = name.split()
    if len(parts) >= 3 and parts[0].rstrip(".") in TITLES:  # "Dr. Ruth Castellano" is Ruth
        parts = parts[1:]
    if len(parts) >= 3 and folded(parts[0]) in family_first():
        return parts[-1]
    return parts[0] if parts else name


TITLES = frozenset(("Dr", "Mr", "Mrs", "Ms", "Mx", "Miss", "Prof", "Rev", "Sr", "Fr"))
"""Titles before a full name, which no one is called by on their own."""


FAMILY_FIRST_FILE = "family_first.txt"


@cache
def family_first() -> frozenset[str]:
    """Family names of customs that put them first, folded, from the data file."""
    text = (
        resources.files("cognition.offline")
        .joinpath("data", FAMILY_FIRST_FILE)
        .read_text(encoding="utf-8")
    )
    lines = (line.strip() for line in text.splitlines())
    return frozenset(folded(line) for line in lines if line and not line.startswith("#"))


def folded(word: str) -> str:
    """A word without case or diacritics ("Nguyễn" → "nguyen", "Đặng" → "dang")."""
    plain = unicodedata.normalize("NFKD", word.replace("Đ", "D").replace("đ", "d"))
    return "".join(c for c in plain if not unicodedata.combining(c)).lower()


def same_person(a: str, b: str) -> bool:
    """Whether two spellings name one person: equal, the same first name ("Junie"), or a
    title and one of the other's names ("Father Ioane" is Ioane Kvitsiani, "Dr. Hale" is
    Miriam Hale)."""
    if not a or not b:
        return False
    if a == b or first_name(a) == first_name(b):
        return True
    return _titled_as(a, b) or _titled_as(b, a)


FORMS_OF_ADDRESS = TITLES | frozenset(
    """Father Mother Sister Brother Pastor Reverend Imam Rabbi Auntie Aunt Uncle Granny Grandma
    Grandpa Nana Don Doña Señor Señora Madame Monsieur Captain Doctor Professor Mayor Elder
    Deacon""".split()  # noqa: SIM905
)
"""Words said before one of a person's names ("Father Ioane", "Auntie Rosa", "Dr. Hale")."""


def _titled_as(titled: str, name: str) -> bool:
    parts, names = titled.split(), name.split()
    return (
        len(parts) == 2
        and parts[0].rstrip(".") in FORMS_OF_ADDRESS
        and len(names) >= 2
        and parts[1] in names
    )


def mentions(text: str, name: str) -> bool:
    """Whether `text` names the person, by full or first name, as whole words."""
    lowered = text.lower()
    return any(
        re.search(rf"\b{re.escape(candidate.lower())}\b", lowered)
        for candidate in unique([name, first_name(name)])
        if candidate
    )


def possessive(name: str) -> str:
    """ "Klaus Mueller" → "Klaus Mueller's"; "Jess" → "Jess'"."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


ABBREVIATIONS = (
    *("St", "Dr", "Mr", "Mrs", "Ms", "Mx", "Mt", "Rd", "Ave", "Prof", "Jr", "Sr", "No"),
    *("Fr", "Rev", "Sgt", "Capt", "Lt", "Col", "Gov", "Sen", "Hon"),
)
"""Words ending in a full stop that do not end a sentence ("St. Brigid's chapel")."""
_ABBREVIATED = re.compile(rf"\b({'|'.join(ABBREVIATIONS)})\.(?=\s)")
_DOT = "\u2024"
"""Stands in for an abbreviation's full stop while sentences are split."""


def sentences(text: str, *, at_semicolons: bool = False) -> list[str]:
    """Split prose into sentences on terminal punctuation (and semicolons, if asked) and line
    breaks, keeping abbreviations whole: "I'll see you at St. Brannoc's Chapel." is one."""
    protected = _ABBREVIATED.sub(lambda m: m[1] + _DOT, text)
    ends = r"(?<=[.!?;])\s+|\n+" if at_semicolons else r"(?<=[.!?])\s+|\n+"
    return [s.replace(_DOT, ".").strip() for s in re.split(ends, protected) if s.strip()]


def as_clause(text: str) -> str:
    """A statement ready to sit inside a sentence: trimmed, no final full stop."""
    return " ".join(text.split()).rstrip(".!;, ")


def as_sentence(text: str) -> str:
    """A statement ready to stand alone: capitalised, ending with punctuation."""
    clause = " ".join(text.split())
    if not clause:
        return ""
    clause = clause[0].upper() + clause[1:]
    return clause if clause[-1] in ".!?" else clause + "."


def lower_first(text: str, *, names: Iterable[str] = ()) -> str:
    """Lower-case the first letter, unless the text starts with "I" or one of `names`."""
    first = text.split()[0] if text.split() else ""
    if (
        not first
        or first in {"I", "I'm", "I've", "I'd"}
        or any(text.startswith(name) for name in names if name)
    ):
        return text
    return text[0].lower() + text[1:]


def stable_index(key: str, n: int) -> int:
    """A deterministic choice in range(n) derived from the text `key` (SHA-256, not hash())."""
    if n <= 0:
        raise ValueError("n must be positive")
    digest = hashlib.sha256(key.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % n
