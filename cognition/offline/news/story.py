"""The point of a story told over several sentences, when its first sentence only sets the
scene.

"Last evening, just as it was getting dark, Mercy was walking home along the shore when she
saw two long tracks in the sand. She followed them … and found a huge turtle, … The eggs are
buried there now." Whoever passes this on tells what was found or what will come of it, not
that Mercy was walking home. `point` reads each sentence's clauses — the teller's "she" as the
teller, what follows a colon ("Mrs. Ortiz showed her: the new owner … wants double the rent"),
each side of ", and", what someone "found" — and keeps the one that scores most:

    found       someone found, discovered or spotted something          3
    happened    something has happened ("the riverbank has fallen …")    3
    to come     what will or must happen ("will have to close")        3
    now         a state that holds now ("the eggs are buried there now")  2
    central     common words shared with each other sentence           1 each, 2 at most

The teller's own doings ("Dolores hugged her over the counter") are not the point. None when
no clause scores, so the story is read from its first sentence as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from cognition.offline.facts import Fact
from cognition.offline.text import NAME_WORD, STOPWORDS, first_name, stem

_SCENE = re.compile(
    r"^(?:(?:early|late) )?(?:last|yesterday|earlier|this (?:morning|afternoon|evening)|"
    r"one (?:morning|evening|"
    r"night|day)|just as|when|while|as)\b|\b(?:was|were) [a-z]+ing\b|^[^,]{0,30}\bago\b|"
    r"^(?:I|we|she|he|[A-Z][\w'’-]+) (?:went|came|got|drove|walked|popped|nipped|rode|cycled)"
    r"(?: (?:back|out|down|up|over|round|across|home))*(?: to| into| up to| down to)? [^.]*"
    r"\bfor\b",
    re.I,
)
"""A sentence that sets a scene: when it was, what someone was doing when it happened, or
where they went for what ("Went back up to the workshop about 9:45 pm for my charger")."""
_FOUND = re.compile(
    rf"^(?P<who>{NAME_WORD}(?: {NAME_WORD})?)\b(?:[^,;:]|:(?=\d))*?\band (?P<verb>found|discovered|"
    r"spotted|"
    r"came across|came upon|saw) (?P<what>[^,;:]+)"
)
_DISCOVERED = re.compile(
    rf"^{NAME_WORD}(?: {NAME_WORD})? (?:found|discovered|spotted|came across|came upon|saw)\b"
)


def _discovered(clause: str) -> bool:
    return _FOUND.match(clause) is not None or _DISCOVERED.match(clause) is not None


_TO_COME = re.compile(
    r"\b(?:will|won't|going to|gonna|have to|has to|had to close|must|for good|is closing|"
    r"are closing|is leaving|are leaving|is moving|are moving)\b",
    re.I,
)
_PARTICIPLES = (
    *("fallen", "broken", "gone", "taken", "stolen", "given", "blown", "torn", "frozen"),
    *("shaken", "sunk", "burnt", "come", "found", "lost", "left", "won", "sold", "shut"),
    *("split", "hit", "struck", "swept", "caught", "drowned", "burst", "died", "born"),
)
"""Past participles without "-ed" of what can happen to something or someone."""
DAMAGE = (
    *("forced", "smashed", "flooded", "burgled", "vandalised", "vandalized", "damaged"),
    *("destroyed", "robbed", "wrecked", "killed", "injured", "broken", "stolen", "cut"),
    *("burnt", "burned", "gone", "taken", "missing", "ransacked", "slashed", "kicked in"),
)
"""What is done to a thing or a place when something has happened to it."""
_HAPPENED = re.compile(
    rf"\b(?:has|have)(?: just)? (?:been )?(?:[a-z]+ed|{'|'.join(_PARTICIPLES)})\b"
    r"(?! (?:to|for|by|as|on)\b)"
    rf"|\b(?:was|were|had been) (?:{'|'.join(DAMAGE)})\b"
)
"""A clause that says something has happened ("the riverbank has fallen into the river")."""
_NOW = re.compile(r"\b(?:is|are|has|have)\b[^.;]*\bnow\b", re.I)
_CLAUSE = re.compile(r",\s+and\s+|;\s+|,\s+but\s+|,\s+so\s+")
_THEY = re.compile(r"\bthey\b")
_FAMILY = re.compile(rf"\b(?:Mr|Mrs|Ms|Mx)\.? (?P<surname>{NAME_WORD})\b")
MIN_SENTENCES = 3
"""A story: shorter texts lead with their news."""


def sets_scene(sentence: str) -> bool:
    return _SCENE.search(sentence) is not None


def point(
    parts: Sequence[str], speaker: str | None, read: Callable[[str], Fact | None]
) -> Fact | None:
    """The story's point (module docstring), read by `read` (a clause → its report, or
    None); None when the text is no story or no clause is its point."""
    if len(parts) < MIN_SENTENCES:
        return None
    teller = _teller(parts[0], speaker)
    family = {m["surname"] for p in parts for m in _FAMILY.finditer(p)}
    they = f"the {_family_name(family.pop())}" if len(family) == 1 else None
    common = [_common_stems(p) for p in parts]
    best: tuple[int, int, Fact] | None = None
    for index, sentence in enumerate(parts):
        clauses = _clauses(
            sentence, _whom(sentence, parts[index - 1] if index else "", teller), they
        )
        found_in_scene = index == 0 and _FOUND.match(sentence.strip()) is not None
        for clause in clauses[1:] if index == 0 and not found_in_scene else clauses:
            # the scene itself is no point, but what it ends by finding is ("… when she came
            # round the bend and found the county road gone")
            if teller and clause.startswith(f"{teller} ") and not _discovered(clause):
                continue  # what the teller did is how they came by it, not the news
            fact = read(clause)
            if fact is None:
                continue
            score = _score(clause, _common_stems(clause), common, index)
            if score > 0 and (best is None or score > best[0]):
                best = (score, index, fact)
    return _set_at(best[2], parts[0]) if best else None


_AT_PLACE = re.compile(
    r"\b(?:at|in|(?:up|down|over|back|round|out) to) "
    r"(?P<place>(?:the )?[A-Z][\w'’-]+(?: (?:of )?[A-Z][\w'’-]+){0,3})"
)
"""A named place a scene is set at ("… in the yard at Olfert Farm")."""


_NAMED = re.compile(r"\s[A-Z][a-z]")
"""A capitalised word after the first: a place or a person the point already names."""


def _set_at(fact: Fact, scene: str) -> Fact:
    """The point told where the scene set it ("… in the yard at Olfert Farm. Somebody had
    cut the GPS receiver …" is the receiver cut at Olfert Farm), when it names no place of its
    own: a question asks after news by where it happened."""
    where = _AT_PLACE.search(scene)
    if where is None or _NAMED.search(fact.what) or where["place"] in fact.what:
        return fact  # "… on Fenwick Street the Ortizes will …" names where already
    if _FORCED.match(fact.what):  # "the back door was forced": a break-in, told as one
        return replace(fact, what=f"someone broke into {where['place']}")
    return replace(fact, what=f"{fact.what} at {where['place']}")


_FORCED = re.compile(
    r"^the (?:\w+ )?(?:door|window|lock|padlock|shutter|gate|hatch)s? (?:was|were|had been|has "
    r"been) (?:forced|smashed|kicked in|broken|jemmied|prised open|pried open)\b"
)
"""Forced entry, which whoever passes it on calls a break-in."""


def _family_name(surname: str) -> str:
    """A family by its surname: "the Ortizes", "the Joneses", "the Smiths" (inflect's nouns
    double a final z, as "quizzes", which no surname does)."""
    return f"{surname}es" if surname.endswith(("s", "x", "z", "ch", "sh")) else f"{surname}s"


def _teller(first: str, speaker: str | None) -> str | None:
    """Whom "she" or "he" means: the speaker when the story names them."""
    if speaker is not None and re.search(rf"\b{re.escape(first_name(speaker))}\b", first):
        return first_name(speaker)
    return None


_TITLED = re.compile(rf"\b(?P<title>Mr|Mrs|Ms|Miss|Dr)\.? (?P<surname>{NAME_WORD})\b")
_HE_OR_SHE = {"He": ("Mr", "Dr"), "She": ("Mrs", "Ms", "Miss", "Dr")}


def _whom(sentence: str, before: str, teller: str | None) -> str | None:
    """Whom a sentence's leading "He" or "She" means: someone titled as one in the sentence
    before ("Mr. Hale … came out. He told her …"), else the teller."""
    pronoun = re.match(r"^(He|She)\b", sentence.strip())
    if pronoun is None:
        return teller
    titled = [m for m in _TITLED.finditer(before) if m["title"] in _HE_OR_SHE[pronoun[1]]]
    return f"{titled[-1]['title']}. {titled[-1]['surname']}" if titled else teller


_COLON = re.compile(r":(?!\d)")
"""A colon before what it introduces, not the one in a time ("at 5:45")."""


def _clauses(sentence: str, teller: str | None, they: str | None) -> list[str]:
    """The clauses a sentence may have its point in, with "she" and "they" named."""
    text = sentence.strip().rstrip(".!")
    if teller:
        text = re.sub(r"^(?:She|He)\b", teller, text)
    seen = _FOUND.match(text)
    if seen is not None:  # "Mercy followed them … and found a huge turtle": what she found
        text = f"{seen['who']} {seen['verb']} {seen['what'].strip()}"
    if _COLON.search(text):  # "Mrs. Ortiz showed her: the new owner wants …": what she showed
        before, text = (part.strip() for part in _COLON.split(text, maxsplit=1))
        named = _renamed(before, text)
        found = [named] if named else [before, *(c.strip() for c in _CLAUSE.split(text))]
    else:
        found = [c.strip() for c in _CLAUSE.split(text)]  # each clause, or the sentence whole
    if teller:  # "her UK visa has been approved", "will employ her": the teller's
        found = [_HER.sub(lambda m: _hers(m, teller), c) for c in found]
    if they:
        found = [_THEY.sub(they, c) for c in found]
    return [c for c in found if len(c.split()) >= 3]


_VAGUE = re.compile(
    r"\b(?:an?|some)\s+(?:[a-z]+\s+){0,2}?(?:shape|figure|thing|creature|animal|form|object|"
    r"silhouette|lump|mass|shadow)\b|\bsomething\b"
)
"""What a teller saw before knowing what it was ("a black shape as big as a crouching man")."""
_APPOSITIVE = re.compile(r"^(?:an?|the)\s+[^,;]+(?:,\s+(?:an?|the)\s+[^,;]+)*$", re.I)
_NOT_APPOSITIVE = re.compile(r"\b(?:is|are|was|were|has|have|had|will|would|could|did)\b")


def _renamed(before: str, after: str) -> str | None:
    """A clause whose vague thing a colon names: "… sat a black shape …, pulling the fruit off:
    a tsukinowaguma, a black bear with the white moon on its chest" is "… sat a black bear,
    pulling the fruit off"; None when the colon names nothing."""
    vague = _VAGUE.search(before)
    if vague is None or not _APPOSITIVE.match(after) or _NOT_APPOSITIVE.search(after):
        return None
    name = re.split(r"\s+(?:with|that|which|who|from|in|on)\s+", after.split(",")[-1].strip())[0]
    rest = re.sub(r"^\s*as\s+\w+\s+as\s+[^,]*", "", before[vague.end() :])  # "as big as …"
    return f"{before[: vague.start()]}{name}{rest}".strip()


_HER = re.compile(r"\b(?:[Hh]er|[Hh]is)\b(?P<next>\s+[a-z][\w'’-]*|\s+[A-Z]{2,}\b)?")
_NOT_OWNED = frozenset("to in on at as for with from by and or but that the a an".split())  # noqa: SIM905


def _hers(match: re.Match[str], teller: str) -> str:
    """ "her visa" is the teller's visa; "employ her as" is the teller."""
    after = match["next"] or ""
    if after and after.split()[0] not in _NOT_OWNED:
        return f"{teller}'s{after}"
    return f"{teller}{after}"


def _score(clause: str, own: set[str], common: list[set[str]], index: int) -> int:
    score = 3 if _discovered(clause) or _HAPPENED.search(clause) else 0
    if _TO_COME.search(clause):
        score += 3
    elif _NOW.search(clause):
        score += 2
    return score + sum(min(len(own & other), 2) for j, other in enumerate(common) if j != index)


def _common_stems(text: str) -> set[str]:
    """The stems of a text's common words: lower-case, not small words."""
    return {
        stem(w)
        for w in re.findall(r"\b[a-z][a-z'’-]{2,}\b", text)
        if w not in STOPWORDS and w not in ("they", "them", "their")
    }
