"""English verb forms for text composed from game and plan phrases, so it reads as English.

Plans are written as imperatives ("have lunch", "wake up and complete the morning routine")
while an observation says what someone *is* doing: "Tomas is having lunch". `progressive`
turns an activity phrase into the form that follows "is", and leaves alone what already fits
there: a progressive ("brewing coffee"), a place or state ("at the cafe", "asleep",
"dressed"). A phrase it cannot read as a verb phrase is a noun phrase ("lunch break"), and
gets a frame that is always grammatical: "on a lunch break", "having lunch", "busy with the
quarterly report".

The same lexicon gives the other forms of a verb phrase: `bare` ("opens The Copper Kettle and
works at the counter" → "open The Copper Kettle and work at the counter", from a persona's
prose), `third_person_phrase`, and `base_form` of one word. `sentence`, `join_words` and
`possessive` assemble text.

Words of `VERBS` are conjugated wherever an action starts; a coordinated verb ("… and
complete …", "…, then walk …") is conjugated too, unless it is a word as often a noun ("milk
and water") with nothing after it that only a verb takes. Any other English verb, as
lemminflect's lexicon knows them (`verb_lemma`: "milk", "chant", "pilot"), is conjugated only
where what follows it shows it is one ("milk the goats", "row out"), so a noun ("lunch
break", "water") is never turned into a false verb.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache


def _vocabulary(text: str) -> frozenset[str]:
    """A literal word list, whitespace-separated, as a set."""
    return frozenset(text.split())


VERBS: frozenset[str] = _vocabulary(
    """
    accept add address admire admit adjust answer apply arrange arrive ask assemble attend
    bake balance bathe be beat become begin bike bless boil book borrow bounce brainstorm
    break brew bring browse brush build bundle buy call calm carry carve catch celebrate
    change chat check chop clean clear climb close coach collect comb come comfort compare
    complete compose consider continue cook copy count cover craft create cross cry cut
    dance debug decide decorate deliver design dictate dig dine discuss dish do doodle
    drag draft draw dress drink drive drop dry dust earn eat edit email empty enjoy enter
    exercise explore fax feed feel fetch fill find finish fish fix fold follow forget frame
    freshen fry garden gather get give glaze go grab grade greet grill grind groom grow
    guide hang have head heat help hike hire hold host hug hum hunt inspect interview invite
    iron jog join journal jot juggle jump keep kiss knead knit label laugh lay lead learn
    leave lie lift light listen load lock look lounge make manage mark measure meditate
    meet mend message mix mop move mow nap negotiate note notice observe offer open order
    organise organize pack paint park pass patrol pay peel perform pet phone pick picnic plan
    plant play polish pop post pour practice practise pray prepare present print proofread
    pull push put quit rake reach read rearrange recharge record refill rehearse relax
    remember repair reply report research rest restock return review revise ride rinse
    rise roast roll run sand save say scan schedule scrub search see sell send serve set
    sew shave shop shower shut sign sing sip sit sketch skip sleep slice smile snack sort
    speak spend sprint stack start stay steam step stir stock stop store stretch stroll
    study surf sweep swim take talk tape taste teach tell tend test text thank think tidy
    tie toast touch tour train transcribe travel trim try tune turn type unload unpack
    unwind update vacuum visit wait wake walk wash watch water wave wear weed welcome
    whisk wipe wish work worry wrap write yawn employ own prefer rely supply suspect
    volunteer wonder
    advise agree aim allow apologise apologize applaud avoid bear believe belong bind bite
    blow bow breathe burn camp campaign care charge chase cheer chew choose code comment
    compete complain concentrate confess confirm correct cough crack cycle deal debate
    declare defend describe develop discover dive doze dream end escape examine expect
    explain face fight file fire fit fly forgive gossip guess hand happen harvest hear hope
    hurry identify imagine improve introduce joke judge kick knock know lecture lend let
    like live lose love marry mention need pause plead press protect prune pump punch
    question rain raise rebuild receive recite recommend recruit reflect remind remove
    repeat request rescue ring rock rush sail scold seek select settle shake shape share
    shelve shout show ski slide smell smoke sneak spin split spread stand steal submit throw
    trade treat unlock use wander want warm weigh whisper win
    """
)
"""Base forms conjugated by `progressive` (all words of an action but the first are only
conjugated after a coordinator)."""

AMBIGUOUS: frozenset[str] = _vocabulary(
    """
    break call cook drink fish garden iron journal note order paint park plan post practice
    present print return review run shop shower sketch snack stock store study test text toast
    tour water work
    """
)
"""Verbs as often nouns after "and" ("buy milk and water", "coffee and a snack")."""

IRREGULAR: dict[str, str] = {
    "be": "being",
    "see": "seeing",
    "lie": "lying",
    "tie": "tying",
    "die": "dying",
    "quit": "quitting",
    "picnic": "picnicking",
    "panic": "panicking",
}

DOUBLING: frozenset[str] = _vocabulary(
    "admit begin commit control debug forget occur patrol permit prefer refer regret submit upset"
)
"""Verbs of more than one syllable, stressed on the last, that double their final consonant."""

UNCHANGED_STARTS: frozenset[str] = _vocabulary(
    """
    about above absent across after against ahead alone along among angry around as asleep
    at available away awake back before behind below beneath beside between beyond bored
    busy by calm closed done down during early empty excited for free from full gone happy
    here home hungry idle ill in inside into late near nervous next not off offline on online
    onto open out outside over past present quiet ready sad sick sleepy still there through
    throughout tired to toward towards under underneath up upon upset via with within without
    """
)
"""First words that already follow "is": prepositions and states ("at the cafe", "asleep")."""
ON_NOUNS: frozenset[str] = _vocabulary(
    "break call date errand errands holiday shift stroll trip vacation walk"
)
"""Nouns an activity is "on": "on a lunch break", "on a walk"."""
DETERMINERS: frozenset[str] = frozenset({"a", "an", "the"})
CONTINUED = "continue:"
"""How an outline marks the second half of a split item ("continue: paint")."""

ING_NOUNS: frozenset[str] = _vocabulary(
    """
    anything building ceiling clothing dumpling evening everything icing king lightning
    morning nothing pudding ring sibling something spring string thing wedding wing
    """
)
"""Words ending in -ing that are nouns, not progressives ("morning routine")."""

LY_ADJECTIVES: frozenset[str] = _vocabulary(
    "daily early family friendly holy lovely monthly nightly only quarterly weekly yearly"
)
"""Words in -ly that describe a noun, not a verb ("quarterly report")."""
MEALS: frozenset[str] = _vocabulary("breakfast brunch lunch dinner supper tea coffee")
COORDINATORS: frozenset[str] = frozenset({"and", "then", "or", "before", "after", "while"})
VERB_FOLLOWERS: frozenset[str] = _vocabulary(
    """
    a an the his her their my our your its some this that these those up down out off
    over with to at for in on into around back away him them it me us there here late hard
    until till from through alone together outside
    """
)
"""Words after an AMBIGUOUS word that show it is a verb ("and walk the dog")."""
FALLBACK = "busy with"

_VOWELS = "aeiou"
_TOKEN = re.compile(r"\S+")
PHRASE_CACHE = 8192
"""Activity phrases whose progressive form is remembered (a town repeats its activities)."""


@lru_cache(maxsize=PHRASE_CACHE)
def progressive(phrase: str) -> str:
    """The activity phrase in the form that follows "is" (see the module docstring). Pure and
    asked again for the same few hundred activities at every step: remembered."""
    words = phrase.split()
    if not words:
        return ""
    if words[0].lower() == CONTINUED:
        rest = progressive(" ".join(words[1:]))
        return f"still {rest}" if rest else "still at it"
    head = _bare(words[0])
    if head not in VERBS and base_form(head) is not None and not is_progressive(head):
        words, head = [_base_of(words[0]), *words[1:]], base_form(head) or head
    if head == "to" and len(words) > 1 and _bare(words[1]) in VERBS:
        words, head = words[1:], _bare(words[1])
    if head in VERBS or _verb_by_what_follows(words):
        return _conjugate_all(words)
    if _is_adverb(head) and len(words) > 1 and _bare(words[1]) in VERBS:
        return " ".join([words[0], *_conjugate_all(words[1:]).split()])
    if _already_fits(head):
        return " ".join(words)
    return _noun_phrase(words)


def verb_lemma(word: str) -> str | None:
    """The verb an English word is a form of, from lemminflect's lexicon of English at large
    ("milks" → "milk", "chanting" → "chant"); None for a word that is never a verb. Many are
    nouns as often (`progressive` asks what follows)."""
    lemmas = _lemmas(word.lower()).get("VERB")
    return lemmas[0] if lemmas else None


@lru_cache(maxsize=PHRASE_CACHE)
def _lemmas(word: str) -> dict[str, tuple[str, ...]]:
    from lemminflect import getAllLemmas  # its tables load on first use: only when needed

    found: dict[str, tuple[str, ...]] = getAllLemmas(word)
    return found


def _verb_by_what_follows(words: Sequence[str]) -> bool:
    """A verb `VERBS` does not list, at the head of an action whose next word only follows a
    verb ("milk the goats", "chant in the main hall"), not a noun ("lunch break")."""
    head = _bare(words[0])
    if head in MEALS or len(words) < 2 or _bare(words[1]) not in VERB_FOLLOWERS:
        return False  # "lunch with Maria" is having lunch
    return verb_lemma(head) == head


def ing_form(verb: str) -> str:
    """ "have" → "having", "run" → "running", "lie" → "lying", "see" → "seeing"."""
    word = verb.lower()
    if word in IRREGULAR:
        return IRREGULAR[word]
    if word.endswith("ie"):
        return word[:-2] + "ying"
    if word.endswith(("ee", "ye", "oe")):
        return word + "ing"
    if word.endswith("e") and len(word) > 2:
        return word[:-1] + "ing"
    if word.endswith("c"):
        return word + "king" if word in {"picnic", "panic", "mimic", "traffic"} else word + "ing"
    if word in DOUBLING or (_syllables(word) == 1 and _cvc(word)):
        return word + word[-1] + "ing"
    return word + "ing"


def _conjugate_all(words: list[str]) -> str:
    """The first word conjugated, and every verb that follows a coordinator."""
    out = [_conjugated(words[0])]
    after_verb = True  # the previous word was the verb itself ("eat and drink")
    for index in range(1, len(words)):
        word = words[index]
        previous = _bare(words[index - 1])
        nxt = _bare(words[index + 1]) if index + 1 < len(words) else ""
        clause = previous == "then" or words[index - 1].endswith((";", ":"))
        coordinated = clause or previous in COORDINATORS or words[index - 1].endswith(",")
        if coordinated and _is_verb_here(_bare(word), nxt, after_verb=after_verb or clause):
            out.append(_conjugated(word))
            after_verb = True
            continue
        out.append(word)
        after_verb = after_verb and _bare(word) in {"up", "down", "out", "off", "in", "and"}
    return " ".join(out)


def _is_verb_here(word: str, following: str, *, after_verb: bool) -> bool:
    word = word if word in VERBS else (base_form(word) or word)
    if word not in VERBS:  # "… and mind the counter": a verb the list lacks, before "the"
        return following in DETERMINERS and verb_lemma(word) == word
    return after_verb or word not in AMBIGUOUS or following in VERB_FOLLOWERS


DETERMINERS = frozenset("a an the his her their my our your its some this these those".split())  # noqa: SIM905
"""What only a verb, never a noun, puts straight after a coordinated word ("and mind the
counter"; "bread and cake at the market" stays a noun)."""


def _conjugated(word: str) -> str:
    """One word in -ing form, keeping punctuation around it; a capital is dropped (the phrase
    now follows "is")."""
    match = re.match(r"^(\W*)([\w']+)(\W*)$", word)
    if match is None:
        return word
    lead, core, trail = match.groups()
    return f"{lead}{ing_form(base_form(core) or core)}{trail}"


def _is_adverb(word: str) -> bool:
    return word.endswith("ly") and word not in LY_ADJECTIVES


def _already_fits(head: str) -> bool:
    if head in UNCHANGED_STARTS:
        return True
    if head.endswith("ing") and len(head) > 4 and head not in ING_NOUNS:
        return True
    return head.endswith("ed") and len(head) > 3


def _noun_phrase(words: list[str]) -> str:
    """A frame that makes a noun phrase follow "is" grammatically."""
    text = " ".join(words)
    if _bare(words[0]) in DETERMINERS and len(words) > 1 and _bare(words[1]) in ON_NOUNS:
        return f"on {text}"
    if _bare(words[-1]) in ON_NOUNS:
        return f"on {'an' if text[0].lower() in _VOWELS else 'a'} {text}"
    if _bare(words[0]) in MEALS:
        return f"having {text}"
    return f"{FALLBACK} {text}"


def _bare(word: str) -> str:
    return re.sub(r"[^\w']", "", word).lower()


def _syllables(word: str) -> int:
    groups = re.findall(r"[aeiouy]+", word)
    return max(1, len(groups))


def _cvc(word: str) -> bool:
    """Ends consonant–vowel–consonant (not w, x, y): "run", "shop", "chat"."""
    if len(word) < 3:
        return False
    a, b, c = word[-3], word[-2], word[-1]
    return a not in _VOWELS and b in _VOWELS and c not in _VOWELS + "wxy"


_IRREGULAR_THIRD = {"be": "is", "have": "has", "do": "does", "go": "goes"}
_THIRD_TO_BASE = {third: base for base, third in _IRREGULAR_THIRD.items()}
_JOINERS = ("and", "then", "or")


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


def _base_of(word: str) -> str:
    match = re.match(r"^(\W*)([\w']+)(\W*)$", word)
    if match is None:
        return word
    lead, core, trail = match.groups()
    return f"{lead}{base_form(core) or core}{trail}"


def is_progressive(word: str) -> bool:
    """Whether a word is the -ing form of a known verb ("brewing", not "morning")."""
    lowered = word.lower()
    return (
        lowered.endswith("ing")
        and lowered not in ING_NOUNS
        and base_form(lowered) is not None
        and lowered not in VERBS
    )


def third_person(verb: str) -> str:
    """The third person singular of a base verb: "go" → "goes", "study" → "studies"."""
    word = verb.lower()
    if word in _IRREGULAR_THIRD:
        return _IRREGULAR_THIRD[word]
    if word.endswith(("s", "sh", "ch", "x", "z", "o")):
        return word + "es"
    if word.endswith("y") and len(word) > 1 and word[-2] not in _VOWELS:
        return word[:-1] + "ies"
    return word + "s"


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
    """Apply `convert` to every clause head that is a known verb; keep the rest verbatim.
    Clause heads: the first word, and a word after "and", "then", "or" or punctuation."""
    out: list[str] = []
    head = True
    for token in re.split(r"(\s+)", text):
        if not token or token.isspace():
            out.append(token)
            continue
        word = token.rstrip(",;:")
        tail = token[len(word) :]
        named = any(t.strip() for t in out) and word[:1].isupper()  # "Mark", "Will": names
        if head and word.isalpha() and base_form(word) is not None and not named:
            out.append(convert(word.lower()) + tail)
            head = bool(tail)
            continue
        out.append(token)
        head = word.lower() in _JOINERS or bool(tail)
    return "".join(out)


def sentence(text: str) -> str:
    """A stand-alone sentence: spaces folded, first letter capitalised, final punctuation."""
    clause = " ".join(text.split()).strip().rstrip(",;:").rstrip()  # "…'s husband," cut short
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
