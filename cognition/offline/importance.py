"""Lexical poignancy on the paper's 1–10 scale, with no model.

The paper asks a model "on a scale of 1 to 10, where 1 is purely mundane (brushing teeth,
making bed) and 10 is extremely poignant (a break up, college acceptance)". Offline, the same
scale is approximated from vocabulary, so that a fire outranks a tooth-brush every time:

    rule                                              effect            cap
    ------------------------------------------------  ----------------  -----
    start                                             BASE_SCORE = 3
    grave words (died, fire, burning, accident, …)    +5 per phrase     poignancy cap +6
    major life events (break up, fired, wedding, …)   +4 per phrase       (shared)
      and hazards (unsafe, cracked, collapsed, …)
    notable events (party, argument, election, vote…) +2 per phrase
    mundane routine (brushing teeth, idle, eating, …) -1 per phrase     -2, and only when
                                                                        nothing poignant
    another person (a capitalised name, she/he/they)  +1                once, not for one
                                                                        person seen at a
                                                                        routine activity
    emotion words (happy, afraid, jealous, …)         +1 per word       +2
    an exclamation mark                               +1                once
    result                                            clamped to 1..10

Phrases match whole words after light stemming ("burning" and "burned" both match "burn").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cognition.offline.text import people, stem, word_set, words

BASE_SCORE = 3
"""A neutral observation ("Klaus is reading") sits a little above the mundane floor."""
MIN_SCORE = 1
MAX_SCORE = 10
POIGNANCY_CAP = 6
"""Several dramatic words in one line do not stack past 9: the top of the scale stays rare."""
MUNDANE_PENALTY = 1
MUNDANE_CAP = 2
PERSON_BONUS = 1
EMOTION_BONUS = 1
EMOTION_CAP = 2
EXCLAMATION_BONUS = 1

GRAVE = 5
MAJOR = 4
NOTABLE = 2


def _phrases(text: str) -> tuple[str, ...]:
    """A comma-separated vocabulary of words and multi-word phrases."""
    return tuple(p.strip() for p in text.split(",") if p.strip())


POIGNANT_PHRASES: tuple[tuple[str, int], ...] = tuple(
    (phrase, weight)
    for weight, vocabulary in (
        (
            GRAVE,
            "die, died, death, dead, funeral, fire, burn, flood, accident, emergency, hospital, "
            "kill, murder, cancer, divorce, injured, ambulance, robbed, stolen, explosion",
        ),
        (
            MAJOR,
            "break up, broke up, breakup, fired, wedding, married, engaged, pregnant, accepted, "
            "rejected, elected, proposal, proposed, promoted, graduated, crush, in love, "
            "love you, secret, "
            "arrested, quit, lost job, new job, confess, betrayed, scholarship, "
            "unsafe, dangerous, danger, collapse, collapsed, cracked, resign, resigned, "
            "missing, shut down, closing down, bankrupt, storm, injury, evacuate, outbreak, "
            "poisoned, landslide, born, baby, rusted, condemned, subsidence, derailed, "
            "with immediate effect",
        ),
        (
            NOTABLE,
            "party, argument, argue, fight, quarrel, election, birthday, exam, interview, date, "
            "kiss, won, lost, invite, invitation, celebration, festival, concert, apology, "
            "apologize, announce, deadline, exhibition, gossip, rumor, campaign, mayor, news, "
            "council, candidate, candidacy, vote, ballot, agreed, promised, cancelled, "
            "canceled, postponed, retire, retiring, moving away, sick, closed, sold, warning",
        ),
    )
    for phrase in _phrases(vocabulary)
)
"""Vocabulary that pulls a memory up, with its weight; order does not matter."""

MUNDANE_PHRASES: tuple[str, ...] = _phrases(
    "brushing teeth, brush, teeth, making bed, make bed, eat, eating, breakfast, walk, walking, "
    "idle, sleep, sleeping, shower, wash, washing, commute, clean, cleaning, laundry, dishes, "
    "wait, waiting, sitting, standing, routine, tidy, tidying, stretch, dress, dressing, empty, "
    "unused, nap"
)
"""Everyday routine that pulls a memory down when nothing poignant is present."""

EMOTION_WORDS: frozenset[str] = frozenset(
    stem(w)
    for w in word_set(
        """
    happy sad angry excited nervous afraid scared worried anxious lonely jealous proud
    heartbroken furious thrilled upset cry cried crying grief joy delighted ashamed
    embarrassed terrified hopeful hurt miserable overjoyed frustrated disappointed
    """
    )
)

OTHER_PERSON_PRONOUNS: frozenset[str] = word_set("he she him her his hers they them their theirs")


def rate(text: str) -> int:
    """The poignancy of one memory, 1–10, by the rule table in the module docstring."""
    tokens = [stem(w) for w in words(text)]
    poignancy = min(POIGNANCY_CAP, sum(_matching(tokens, _POIGNANT_INDEX)))
    score = BASE_SCORE + poignancy
    if poignancy == 0:
        hits = len(_matching(tokens, _MUNDANE_INDEX))
        score -= min(MUNDANE_CAP, hits * MUNDANE_PENALTY)
    score += 0 if poignancy == 0 and _someone_seen_busy(text) else _person_bonus(text)
    score += min(EMOTION_CAP, EMOTION_BONUS * sum(1 for t in tokens if t in EMOTION_WORDS))
    if "!" in text:
        score += EXCLAMATION_BONUS
    return max(MIN_SCORE, min(MAX_SCORE, score))


def rate_all(texts: Sequence[str]) -> list[int]:
    """Poignancy of each memory, in order."""
    return [rate(t) for t in texts]


_Index = dict[str, list[tuple[tuple[str, ...], int]]]


def _index(vocabulary: Sequence[tuple[str, int]]) -> _Index:
    """Stemmed phrases (with their weights) by first word: rating runs on every memory write,
    so a text is checked only against the phrases that could occur in it."""
    index: _Index = {}
    for phrase, weight in vocabulary:
        target = tuple(stem(w) for w in re.findall(r"[a-z]+", phrase.lower()))
        index.setdefault(target[0] if target else "", []).append((target, weight))
    return index


_POIGNANT_INDEX = _index(POIGNANT_PHRASES)
_MUNDANE_INDEX = _index([(phrase, 1) for phrase in MUNDANE_PHRASES])


def _matching(tokens: list[str], index: _Index) -> list[int]:
    """The weight of each vocabulary entry whose phrase occurs as consecutive whole tokens."""
    firsts = ["", *dict.fromkeys(tokens)]
    return [
        weight
        for first in firsts
        for target, weight in index.get(first, ())
        if _occurs(tokens, target)
    ]


def _occurs(tokens: list[str], target: tuple[str, ...]) -> bool:
    width = len(target)
    return any(tuple(tokens[i : i + width]) == target for i in range(len(tokens) - width + 1))


_SEEN_BUSY = re.compile(r"^\s*[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,3}\s+is\s+[a-z]+ing\b")


def _someone_seen_busy(text: str) -> bool:
    """An observation of one person at an ordinary activity ("Esme Calder is reading the
    textbook"): what a town sees all day, as mundane as the reader's own routine. A second
    person in it ("… is talking with Martin") makes it social again."""
    return _SEEN_BUSY.match(text) is not None and len(people(text)) <= 1


def _person_bonus(text: str) -> int:
    """Memories involving other people matter more than solitary ones."""
    lowered = {w for w in words(text)}
    return PERSON_BONUS if people(text) or lowered & OTHER_PERSON_PRONOUNS else 0
