"""Word lists behind the audit's grammar rules (`bench.audit_grammar`), kept apart so the rules
read as rules. Every list is small and closed on purpose: a word missing from a list makes a
rule miss an error, never flag a good sentence."""

from __future__ import annotations

import re

from cognition.grammar import base_form


def _set(words: str) -> frozenset[str]:
    return frozenset(words.split())


def _words(words: str) -> tuple[str, ...]:
    """In order: these lists become regex alternations."""
    return tuple(words.split())


BARE_VERBS = _set(
    """say get have go make take eat do see know think want tell ask give find come keep wake
    bring buy sleep tend greet invite meet chat relax prepare grab brew serve wash visit help
    try start begin finish write sing draw teach learn bake talk listen look wait speak stretch
    check attend practise pick leave catch hear show mention sweep shower dress drink sit stand
    walk feed water fix restock"""
)
"""Bare verbs that never follow "is"/"are" in good English (participles that look the same,
like read, put, set or run, are left out)."""

AMBIGUOUS_VERBS = _set("open close clean work study play plan cook paint read practice review")
"""Bare verbs that are also nouns or adjectives ("the cafe is open", "this is work"): wrong
after "is" only when an object or a place follows ("is open the cafe")."""

OBJECT_TAKING = _words("the a an his her their my your our some at on in with for up home")

FINITE_THIRD_PERSON = _set("keeps is was has seems comes goes matters stays remains appears")

ELLIPSIS_LICENSORS = _set(
    """glad sorry happy sad pleased nice good great relieved surprised interested excited
    curious thrilled delighted shocked love like want wanted need needed hope hoped going
    have has had got able ready forgot remember try tried meant asked promised"""
)
"""Words after which "to <verb>" may end a sentence: "sorry to hear", "I'd love to help"."""

GREETING = r"hi|hello|hey|good (?:morning|afternoon|evening|day)|greetings"

SENTENCE_OPENERS = _words(
    """It It's That That's This There There's He She They We You Your How What Good See By
    Take Bye"""
)
"""Capitalised, these begin a sentence; after a comma they are a capitalisation slip."""

KIN = _words(
    """mother father son daughter wife husband brother sister friend supervisor advisor teacher
    boss assistant mentor neighbour"""
)

COMMON_WORD_NAMES = _set(
    """grace pike ruth martin will may rose mark june april summer dawn hope joy faith bill
    art rich sky brown green white black young king stone wood park lane hill field ford bell
    hunter baker cook miller smith page hall long short frank holly ivy lily iris daisy ray
    chase guy drew gene pat sue jack nick rob don"""
)
"""Name parts that are also ordinary words: "grace" in a sentence is not "Grace" misspelt."""

AUXILIARIES = _set(
    """is are am was were be been being has have had do does did will would can could shall
    should may might must 's 're 've 'd 'll ’s ’re ’ve ’d ’ll"""
)

IRREGULAR_PAST = _set(
    """said went came saw took made met told thought knew felt left kept heard found gave got
    sat spent brought bought ran began wrote became taught stood held grew chose"""
)

NOT_VERBS_IN_S = _set("this his is was has does its us yes less always perhaps")


def has_verb(sentence: str) -> bool:
    """Whether the sentence has a finite verb, by word lists: an auxiliary, a past tense, a
    verb of BARE_VERBS/AMBIGUOUS_VERBS (bare or with -s/-es/-ies), or a word in -s right after
    a capitalised name or a pronoun ("Rosalind lives", "she paints")."""
    words = re.findall(r"[A-Za-z][A-Za-z'’]*", sentence)
    lowered = [w.lower() for w in words]
    verbs = BARE_VERBS | AMBIGUOUS_VERBS
    for i, low in enumerate(lowered):
        if low in AUXILIARIES or low in IRREGULAR_PAST or low in verbs:
            return True
        if any(low.endswith(ending) for ending in ("'s", "’s", "'re", "’re", "'ll", "’ll")):
            return True
        if low.endswith("ed") and len(low) > 4:
            return True
        if _third_person(low) in verbs:
            return True
        if i > 0 and base_form(low) is not None and low.endswith("s") and not low.endswith("ss"):
            return True  # "Theo secretly prefers …": a third-person verb of grammar's lexicon
        if i and low.endswith("s") and low not in NOT_VERBS_IN_S:
            before = words[i - 1]
            if before[0].isupper() or before.lower() in {"he", "she", "it", "who", "that"}:
                return True
    return False


def _third_person(word: str) -> str:
    """The bare form of a third-person -s verb ("studies" → "study", "goes" → "go")."""
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("shes", "ches", "xes", "sses", "oes")):
        return word[:-2]
    return word[:-1] if word.endswith("s") else ""
