"""English verb forms and sentence assembly, so composed text cannot come out as "X is say".

Plans are written as bare verb phrases ("have lunch", "open the cafe and serve customers"),
observations and speech need other forms of the same phrase: the progressive ("Tomas is having
lunch"), the third person ("Tomas opens the cafe"), the bare form again from a persona's prose
("opens The Copper Kettle at 7am" → "open The Copper Kettle"). These functions convert only the
verbs they recognise — a word of `VERBS` (or one of its forms) at the head of a coordinated
clause — and never touch names, so a sentence built from their output keeps its grammar:

    progressive("wake up and complete the morning routine")
        → "waking up and completing the morning routine"
    progressive("brewing coffee")          → "brewing coffee"        (already progressive)
    progressive("lunch break")             → "busy with lunch break" (no verb to inflect)
    bare("opens The Copper Kettle and works at the counter")
        → "open The Copper Kettle and work at the counter"

Clause heads are the first word and any word after "and", "then", "or", a comma or a
semicolon that is a known verb (so "bread and butter" keeps its "butter").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence


def _words(text: str) -> frozenset[str]:
    """A literal vocabulary, whitespace-separated, as a set."""
    return frozenset(text.split())


VERBS: frozenset[str] = _words(
    """
    accept add admire admit code advise agree aim allow answer apologise apologize applaud
    apply arrange arrive ask attend avoid bake bathe be bear beat become begin believe
    belong bike bind bite blow boil book borrow bow break breathe brew bring browse brush
    build burn buy call calm camp campaign care carry carve catch celebrate change charge
    chase chat check cheer chew choose chop clean clear climb close coach collect comb come
    comfort comment compare compete complain complete compose concentrate confess confirm
    consider continue cook copy correct cough count cover crack craft create cross cry cut
    cycle dance deal debate decide declare decorate defend deliver describe design develop
    dig dine discover discuss dive do doodle doze draft drag draw dream dress drink drive
    drop dry dust earn eat edit email end enjoy enter escape examine exercise expect explain
    explore face feed feel fetch fight file fill find finish fire fish fit fix fly fold
    follow forget forgive frame fry gather get give glaze go gossip grab grade greet grind
    grill grow guess hand hang happen harvest have head hear help hike hire hold hope host
    hug hum hunt hurry identify imagine improve inspect interview introduce invite iron join
    joke judge jog jump keep kick kiss knead knit knock know label laugh lay lead learn
    leave lecture lend let lie lift light like listen live load lock look lose love make
    manage mark marry measure meet mend mention mix mop move nap need note notice observe
    offer open order organise organize pack paint park pass pause pay perform pet phone pick
    plan plant play plead polish post pour practise practice pray prepare present press
    print proofread protect prune pull pump punch push put question quit rain raise reach
    read rebuild receive recite recommend record recruit refill reflect rehearse relax
    remember remind remove repair repeat reply report request rescue research rest restock
    return review revise ride ring rinse rise roast rock roll run rush sail save say scan
    scold scrub search see seek select sell send serve set settle sew shake shape share
    shave shelve shop shout show shower shut sign sing sip sit sketch ski skip sleep slice
    slide smell smile smoke sneak sort speak spend spin split spread stack stand start stay
    steal step stir stock stop store stretch stroll study submit sweep swim take talk taste
    teach tell tend test text thank think throw tidy tie tour trade train transcribe travel
    treat try tune turn type unlock unpack unwind update use vacuum visit wait wake walk
    wander want warm wash watch water wave wear weed weigh welcome whisper win wipe wish
    work worry wrap write yawn
    """
)
"""Base forms the converters recognise; a head word outside this set is left as it is."""

_IRREGULAR_ING = {
    "be": "being",
    "see": "seeing",
    "flee": "fleeing",
    "agree": "agreeing",
    "lie": "lying",
    "die": "dying",
    "tie": "tying",
    "ski": "skiing",
    "panic": "panicking",
    "picnic": "picnicking",
}
_DOUBLED = _words(
    """
    begin forget admit prefer refer occur regret permit commit submit control patrol equip
    upset omit quit
    """
)
"""Two-syllable (or qu-) verbs stressed on the last syllable, which double it: "beginning"."""
_IRREGULAR_THIRD = {"be": "is", "have": "has", "do": "does", "go": "goes"}
_THIRD_TO_BASE = {third: base for base, third in _IRREGULAR_THIRD.items()}
_CVC = re.compile(r"^[^aeiou]*[aeiou][^aeiouwxy]$")
_JOINERS = ("and", "then", "or")
_TOKEN = re.compile(r"[A-Za-z][A-Za-z'’-]*|[^\sA-Za-z]+")
_ING_FALLBACK = "busy with"
"""How a phrase with no recognisable verb becomes progressive: "busy with lunch break"."""


def ing(verb: str) -> str:
    """The present participle of a base verb: "make" → "making", "plan" → "planning"."""
    word = verb.lower()
    if word in _IRREGULAR_ING:
        return _IRREGULAR_ING[word]
    if word.endswith("ie"):
        return word[:-2] + "ying"
    if word.endswith(("ee", "ye", "oe")):
        return word + "ing"
    if word.endswith("e") and len(word) > 2:
        return word[:-1] + "ing"
    if word in _DOUBLED or _CVC.match(word):
        return word + word[-1] + "ing"
    return word + "ing"


def third_person(verb: str) -> str:
    """The third person singular of a base verb: "go" → "goes", "study" → "studies"."""
    word = verb.lower()
    if word in _IRREGULAR_THIRD:
        return _IRREGULAR_THIRD[word]
    if word.endswith(("s", "sh", "ch", "x", "z", "o")):
        return word + "es"
    if word.endswith("y") and len(word) > 1 and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def base_form(word: str) -> str | None:
    """The base verb behind a base, third-person or -ing form, if it is a known verb."""
    lowered = word.lower()
    if lowered in VERBS:
        return lowered
    if lowered in _THIRD_TO_BASE:
        return _THIRD_TO_BASE[lowered]
    for candidate in _candidates(lowered):
        if candidate in VERBS:
            return candidate
    return None


def _candidates(word: str) -> list[str]:
    """Bases a third-person or -ing form may come from, most specific first."""
    found: list[str] = []
    if word.endswith("ies"):
        found.append(word[:-3] + "y")
    if word.endswith("es"):
        found.append(word[:-2])
    if word.endswith("s"):
        found.append(word[:-1])
    if word.endswith("ying"):
        found.append(word[:-4] + "ie")
    if word.endswith("ing"):
        stem = word[:-3]
        found += [stem, stem + "e"]
        if len(stem) > 2 and stem[-1] == stem[-2]:
            found.append(stem[:-1])
    return found


def is_progressive(word: str) -> bool:
    """Whether a word is the -ing form of a known verb ("brewing", not "morning")."""
    lowered = word.lower()
    return lowered.endswith("ing") and base_form(lowered) is not None and lowered not in VERBS


def progressive(phrase: str) -> str:
    """The phrase with each clause's head verb in the -ing form (module docstring)."""
    text = " ".join(phrase.split())
    if not text:
        return text
    first = _TOKEN.findall(text)[0]
    if base_form(first) is None:
        return f"{_ING_FALLBACK} {_lower_common(text)}"
    return _convert_heads(
        text, lambda word: word if is_progressive(word) else ing(base_form(word) or word)
    )


def bare(phrase: str) -> str:
    """The phrase with each clause's head verb in the base form ("opens" → "open")."""
    return _convert_heads(" ".join(phrase.split()), lambda word: base_form(word) or word)


def third_person_phrase(phrase: str) -> str:
    """The phrase with each clause's head verb in the third person ("open" → "opens")."""

    def convert(word: str) -> str:
        base = base_form(word)
        return third_person(base) if base is not None and not is_progressive(word) else word

    return _convert_heads(" ".join(phrase.split()), convert)


def _convert_heads(text: str, convert: Callable[[str], str]) -> str:
    """Apply `convert` to every clause head that is a known verb; keep the rest verbatim."""
    out: list[str] = []
    head = True
    for token in re.split(r"(\s+)", text):
        if not token or token.isspace():
            out.append(token)
            continue
        word = token.rstrip(",;:")
        tail = token[len(word) :]
        if head and word.isalpha() and base_form(word) is not None and not _is_name(word, out):
            out.append(convert(word.lower()) + tail)
            head = bool(tail)
            continue
        out.append(token)
        head = word.lower() in _JOINERS or bool(tail)
    return "".join(out)


def _is_name(word: str, before: Sequence[str]) -> bool:
    """A capitalised word inside a phrase is a name ("Mark", "Will"), never a verb."""
    started = any(t.strip() for t in before)
    return started and word[:1].isupper()


def _lower_common(text: str) -> str:
    """Lower-case the first letter when the first word is an everyday word, not a name."""
    first = text.split()[0]
    return text[0].lower() + text[1:] if first.lower() in _COMMON_OPENERS else text


_COMMON_OPENERS = _words(
    """
    a an the my his her their our your some lunch breakfast dinner supper work class classes
    morning evening afternoon free time rest
    """
)
"""Words that may open a plan item capitalised but are never names."""


def sentence(text: str) -> str:
    """A stand-alone sentence: spaces folded, first letter capitalised, final punctuation."""
    clause = " ".join(text.split()).strip()
    if not clause:
        return ""
    clause = clause[0].upper() + clause[1:]
    return clause if clause[-1] in ".!?" else clause + "."


def join_words(items: Sequence[str], *, conjunction: str = "and") -> str:
    """ "A", "A and B", "A, B and C"."""
    parts = [item for item in items if item]
    if len(parts) <= 1:
        return "".join(parts)
    return f"{', '.join(parts[:-1])} {conjunction} {parts[-1]}"


def possessive(name: str) -> str:
    """ "Junie" → "Junie's"; "Tomas" → "Tomas's" (the modern style for names)."""
    return f"{name}'s"
