"""The audit's grammar checks: what a reader would flag in what the agents say, plan and think.

Each `Rule` is named, says what it catches, and carries examples it must catch and must not
catch (`tests/bench/test_audit_grammar.py` runs them, with more taken from real demo output).
A rule sees one `Text` — its kind, the words, and for a spoken line who says it — and the
names of the world's people. Rules are heuristics over words, not a parser: each is written so
that what it flags is wrong English, and a sentence it cannot judge passes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum

from bench.audit_words import (
    AMBIGUOUS_VERBS,
    BARE_VERBS,
    COMMON_WORD_NAMES,
    ELLIPSIS_LICENSORS,
    FINITE_THIRD_PERSON,
    GREETING,
    KIN,
    OBJECT_TAKING,
    SENTENCE_OPENERS,
    has_verb,
)
from cognition.offline.text import first_name


class Kind(StrEnum):
    UTTERANCE = "utterance"  # a line an agent said
    REFLECTION = "reflection"
    SUMMARY = "summary"  # the cached summary description, label lines left out
    PLAN = "plan"  # a plan item's description ("open the cafe")
    OUTLINE = "outline"  # the day outline as a memory ("This is Junie's plan for …")
    OBSERVATION = "observation"


PROSE = frozenset({Kind.UTTERANCE, Kind.REFLECTION, Kind.SUMMARY})
"""Texts written as sentences (a plan item or an observation is a phrase by design)."""
EVERY = frozenset(Kind)


@dataclass(frozen=True)
class Text:
    kind: Kind
    text: str
    speaker: str = ""
    """For an utterance: the full name of who says it."""


@dataclass(frozen=True)
class Names:
    """The world's people, by full name."""

    people: frozenset[str]

    @property
    def parts(self) -> frozenset[str]:
        return frozenset(p for name in self.people for p in name.split() if len(p) >= 3)


Finder = Callable[[Text, Names], list[str]]


@dataclass(frozen=True)
class Rule:
    name: str
    doc: str
    kinds: frozenset[Kind]
    find: Finder
    """The offending snippets of a text (empty: the rule has nothing to say)."""
    catches: tuple[Text, ...]
    passes: tuple[Text, ...]

    def hits(self, text: Text, names: Names) -> list[str]:
        return self.find(text, names) if text.kind in self.kinds else []


_NOT_AFTER_ABBREVIATION = "".join(
    rf"(?<!\b{re.escape(a)})"
    for a in ("a.m.", "p.m.", "e.g.", "i.e.", "Dr.", "Mr.", "Mrs.", "Ms.", "St.")
)


def sentences(text: str) -> list[str]:
    """Sentences split after . ! ? (and at line breaks), not after "Dr." or "p.m."."""
    parts = re.split(rf"{_NOT_AFTER_ABBREVIATION}(?<=[.!?…])\s+|\n+", text)
    return [p.strip() for p in parts if p.strip()]


def _words(sentence: str) -> list[str]:
    return re.findall(r"[A-Za-z][A-Za-z'’-]*", sentence)


def _regex_hits(pattern: re.Pattern[str]) -> Finder:
    return lambda text, _names: [m.group(0) for m in pattern.finditer(text.text)]


# --- the rules ----------------------------------------------------------------------------------

_ADVERB = r"(?:\s+(?:often|always|just|still|usually|never|now|really|also|currently|sometimes))?"
_BE_BARE = re.compile(
    rf"\b(?:is|are|am|was|were){_ADVERB}\s+(?:(?:{'|'.join(sorted(BARE_VERBS))})\b(?!-)"
    rf"|(?:{'|'.join(sorted(AMBIGUOUS_VERBS))})\s+(?:{'|'.join(OBJECT_TAKING)})\b)",
    re.I,
)


_PLACE_OR_OBJECT = (*OBJECT_TAKING, "there", "here")
_MIXED_COORDINATION = re.compile(
    rf"\b(?:is|are|am|was|were|I'm|you're|he's|she's|they're|we're){_ADVERB}\s+[a-z]+ing\b"
    rf"[^.!?;:\"“”]*?\b(?:and|then|or)\s+(?:(?:{'|'.join(sorted(BARE_VERBS))})\b(?!-)"
    rf"|(?:{'|'.join(sorted(AMBIGUOUS_VERBS))})\s+(?:{'|'.join(_PLACE_OR_OBJECT)})\b)",
    re.I,
)


def _doubled(text: Text, _names: Names) -> list[str]:
    allowed = {"had", "that", "bye", "very", "so", "no", "really", "ha", "knock", "tut"}
    found = re.finditer(r"\b([A-Za-z]+)\s+\1\b", text.text, re.I)
    return [m.group(0) for m in found if m.group(1).lower() not in allowed]


def _lowercase_names(text: Text, names: Names) -> list[str]:
    hits = []
    for part in names.parts:
        low = part.lower()
        if low in COMMON_WORD_NAMES or low == part:
            continue
        hits += [m.group(0) for m in re.finditer(rf"(?<![\w@/]){re.escape(low)}\b", text.text)]
    return hits


def _quote_depth(text: str) -> int:
    """The deepest quotation in the text: a `"` opens after a space, a colon or the start
    (followed by a non-space), otherwise it closes; curly quotes say which they are."""
    depth = deepest = 0
    for i, char in enumerate(text):
        before = text[i - 1] if i else " "
        after = text[i + 1] if i + 1 < len(text) else " "
        opens = char == "“" or (char == '"' and before in " \n:([—" and not after.isspace())
        closes = char == "”" or (char == '"' and not opens)
        if opens:
            depth += 1
            deepest = max(deepest, depth)
        elif closes:
            depth = max(0, depth - 1)
    return deepest


def _nested_quotes(text: Text, _names: Names) -> list[str]:
    """A spoken line is itself a quotation: any quote inside it is nested. A memory or a
    summary line quotes once ("A said to B: "…""): a second level is nested."""
    limit = 1 if text.kind == Kind.UTTERANCE else 2
    lines = text.text.splitlines() or [text.text]
    return [line[:60] for line in lines if _quote_depth(line) >= limit]


def _greets_self(text: Text, _names: Names) -> list[str]:
    pattern = rf"\b(?:{GREETING}),?\s+(?:me|myself)\b"
    return [m.group(0) for m in re.finditer(pattern, text.text, re.I)]


def _greets_own_name(text: Text, _names: Names) -> list[str]:
    if not text.speaker:
        return []
    first = re.escape(first_name(text.speaker))
    pattern = rf"\b(?:{GREETING}),?\s+{first}\b"
    return [m.group(0) for m in re.finditer(pattern, text.text, re.I)]


def _lowercase_start(text: Text, _names: Names) -> list[str]:
    starts = [re.sub(r"^[\"“'(\[]+", "", s) for s in sentences(text.text)]
    return [s[:30] for s in starts if s[:1].islower()]


_INVERTED = re.compile(r"\b[a-z][A-Z]{2,}")
_CAPITAL_AFTER_COMMA = re.compile(rf",\s+(?:{'|'.join(SENTENCE_OPENERS)})\b")
_FUNCTION_END = re.compile(r"\b(?:a|an|the|and|or|but|because|of|my|your|our|their)\s*[.!?…]*$")


def _truncated(text: Text, _names: Names) -> list[str]:
    return [s[-30:] for s in sentences(text.text) if _FUNCTION_END.search(s.lower())]


def _dangling_infinitive(text: Text, _names: Names) -> list[str]:
    hits = []
    for sentence in sentences(text.text):
        words = [w.lower() for w in _words(sentence)]
        dangling = len(words) >= 3 and words[-2] == "to" and words[-1] in BARE_VERBS
        if dangling and words[-3] not in ELLIPSIS_LICENSORS:
            hits.append(" ".join(words[-3:]))
    return hits


def _verb_as_subject(text: Text, _names: Names) -> list[str]:
    hits = []
    for sentence in sentences(text.text):
        words = _words(sentence)
        verb_first = len(words) >= 2 and words[0].lower() in BARE_VERBS and words[0][0].isupper()
        if verb_first and words[1].lower() in FINITE_THIRD_PERSON:
            hits.append(f"{words[0]} {words[1]}")
    return hits


def _no_verb(text: Text, _names: Names) -> list[str]:
    return [s[:40] for s in sentences(text.text) if len(_words(s)) >= 2 and not has_verb(s)]


_I_THIRD = re.compile(
    r"\bI (?:is|has|lives|works)\b"
    r"|\bI (?:am|was|have)\b[^.!?;:\"“”]*?\band (?:is|has|was|lives|works|runs|owns|teaches|"
    r"studies|plays|loves|wants|hopes|knows|thinks)\b"
)
_KIN_OF_YOU = re.compile(rf"\bthe (?:{'|'.join(KIN)}) of you\b", re.I)


def _repeated_sentence(text: Text, _names: Names) -> list[str]:
    seen: set[str] = set()
    hits = []
    for sentence in sentences(text.text):
        key = " ".join(w.lower() for w in _words(sentence))
        if len(key.split()) >= 4 and key in seen:
            hits.append(sentence[:40])
        seen.add(key)
    return hits


def _t(kind: Kind, *texts: str, speaker: str = "") -> tuple[Text, ...]:
    return tuple(Text(kind, t, speaker) for t in texts)


U, R, S, OBS = Kind.UTTERANCE, Kind.REFLECTION, Kind.SUMMARY, Kind.OBSERVATION

RULES: tuple[Rule, ...] = (
    Rule(
        "be_bare_verb",
        'A form of "be" before a bare verb ("is say", "are sleep", "is often get"); words that '
        "are also nouns or adjectives (open, work, read) count only before an object.",
        EVERY,
        _regex_hits(_BE_BARE),
        _t(OBS, "Esme Calder is say hello to Camille and chat", "Rosalind Kerr is sleep")
        + _t(U, "I was just thinking about how you are sleep.", "Junie is open the cafe.")
        + _t(R, "Ada Okafor is often say hello to Noor and chat"),
        _t(OBS, "Junie Halvorsen is brewing coffee", "The Copper Kettle: counter is open")
        + _t(U, "The cafe is open until eight.", "This is work I enjoy.")
        + _t(R, "The book is read to the children."),
    ),
    Rule(
        "mixed_coordination",
        'A progressive coordinated with a bare verb ("is opening the store and work there", '
        '"I\'m cooking and wash up").',
        EVERY,
        _regex_hits(_MIXED_COORDINATION),
        _t(OBS, "Daniel Okafor is opening Dunmore General Store and work there")
        + _t(U, "I see you're opening Dunmore General Store and work there.")
        + _t(U, "I'm cooking dinner and wash the dishes."),
        _t(OBS, "Daniel Okafor is opening Dunmore General Store and working there")
        + _t(U, "I'm having lunch and coffee.", "She is cooking, and work starts at one.")
        + _t(R, "Junie is waking up and then having breakfast"),
    ),
    Rule(
        "doubled_word",
        'The same word twice in a row ("the the"), except doubles English allows ("had had").',
        EVERY,
        _doubled,
        _t(U, "See you at the the party.", "I I think so."),
        _t(U, "I had had enough.", "Bye bye!", "Hi Lucia! Lucia said hello."),
    ),
    Rule(
        "lowercase_name",
        'A person of the world written lower-case ("helen Calloway"); name parts that are '
        "also common words (grace, pike) are left alone.",
        EVERY,
        _lowercase_names,
        _t(U, "I was just thinking about how helen Calloway is busy.", "Well, tomas said so."),
        _t(U, "She said grace before dinner.", "Helen Calloway is reading.", "Hi Tomas!"),
    ),
    Rule(
        "nested_quote",
        "A quotation inside a quotation: any quote in a spoken line, a second level in a "
        "memory or a summary line.",
        EVERY,
        _nested_quotes,
        _t(U, 'Hi Beatrix! I was just thinking about how you said to me: "Hi me!".')
        + _t(S, 'Grace said to Oskar: "Hi Oskar! You said to me: "Hi me!"".'),
        _t(U, "It was good talking to you, Lucia. Take care!")
        + _t(S, 'Noor said to Junie: "It was good talking to you, Junie. Take care!".'),
    ),
    Rule(
        "self_greeting",
        'A greeting addressed to "me" ("Hi me!", "good day, me").',
        EVERY,
        _greets_self,
        _t(U, "Hi me! I was just thinking about you.", "Um, good day, me! How are you?"),
        _t(U, "Hi Lucia!", "Say hi to me later."),
    ),
    Rule(
        "greets_own_name",
        "A speaker greeting themselves by their own first name.",
        frozenset({U}),
        _greets_own_name,
        _t(U, "Hi Jonah! How have you been?", speaker="Jonah Pike"),
        _t(U, "Hi Jonah! How have you been?", speaker="Ruth Castellano"),
    ),
    Rule(
        "lowercase_sentence_start",
        "A sentence that starts with a lower-case letter.",
        PROSE,
        _lowercase_start,
        _t(U, "tOP SECRET meeting at noon.", "That's good to hear. by the way, I know."),
        _t(
            U,
            "It was good talking to you. Take care!",
            "Well... I think so.",
            "See you at 6 p.m. and not later.",
        ),
    ),
    Rule(
        "inverted_case",
        'A word whose first letter is lower-case and the next ones capitals ("tOP").',
        EVERY,
        _regex_hits(_INVERTED),
        _t(U, "tOP SECRET meeting at noon."),
        _t(U, "I got a new iPhone.", "TOP SECRET meeting at noon."),
    ),
    Rule(
        "capital_after_comma",
        'A word that only starts a sentence written with a capital after a comma ("Um, It was '
        'good").',
        PROSE,
        _regex_hits(_CAPITAL_AFTER_COMMA),
        _t(U, "Um, It was good talking to you, Grace.", "Hi Grace, How are you?"),
        _t(U, "Um, it was good talking to you, Grace.", "Well, I think so.", "Yes, Theo, see you."),
    ),
    Rule(
        "truncated_sentence",
        'A sentence cut after an article, a conjunction, "of" or a possessive ("I\'m not '
        'sure, an.").',
        PROSE,
        _truncated,
        _t(U, "I'm not sure, an.", "I wanted to ask about your.") + _t(R, "Junie keeps the."),
        _t(U, "Who are you talking to?", "See you at the party. Bye for now!")
        + _t(U, "It's something to look forward to."),
    ),
    Rule(
        "dangling_infinitive",
        'A sentence ending in "to <verb>" with the verb\'s object missing ("keeps coming back '
        'to hear"), unless the words before allow it ("sorry to hear").',
        PROSE,
        _dangling_infinitive,
        _t(R, "Daniel Okafor keeps coming back to hear", "Grace Okafor keeps coming back to bring"),
        _t(U, "I'm sorry to hear.", "I would love to hear!", "That's great to hear."),
    ),
    Rule(
        "verb_as_subject",
        'A sentence whose subject is a bare verb ("Bring keeps coming up").',
        frozenset({R, S}),
        _verb_as_subject,
        _t(R, "Bring keeps coming up"),
        _t(R, "Junie keeps coming up", "Keep going."),
    ),
    Rule(
        "fragment",
        "A reflection or summary sentence with no verb (by a word-list heuristic).",
        frozenset({R, S}),
        _no_verb,
        _t(R, "Ada Okafor and the party.", "A quiet morning at the cafe."),
        _t(R, "Esme Calder and Noor Haddad keep crossing paths", "Junie bakes bread for the party.")
        + _t(S, "Felix has a secret crush on Noor.", "Rosalind lives in apartment 5."),
    ),
    Rule(
        "first_person_agreement",
        'A verb in the third person after "I" ("I am married to you and is the mother…").',
        EVERY,
        _regex_hits(_I_THIRD),
        _t(U, "I am married to Daniel Okafor and is the mother of you!")
        + _t(U, "I am married to you and lives in Lindqvist House!"),
        _t(U, "I am married to Daniel and he is kind.", "I have a brother who lives here."),
    ),
    Rule(
        "kin_of_you",
        'A relation said as "the mother of you" instead of "your mother".',
        EVERY,
        _regex_hits(_KIN_OF_YOU),
        _t(U, "I am the mother of you!", "He is the supervisor of you."),
        _t(U, "That's kind of you.", "All of you are invited."),
    ),
    Rule(
        "repeated_sentence",
        "The same sentence (four words or more) twice in one text.",
        PROSE,
        _repeated_sentence,
        _t(S, "Rosalind lives in apartment 5.\nRosalind lives in apartment 5."),
        _t(U, "Bye! Bye!", "Junie is kind. Junie is kind to everyone."),
    ),
)
RULE_NAMES = tuple(rule.name for rule in RULES)


def check(text: Text, names: Names, rules: Iterable[Rule] = RULES) -> dict[str, list[str]]:
    """Each rule that flags the text, with what it flagged."""
    found = {rule.name: rule.hits(text, names) for rule in rules}
    return {name: hits for name, hits in found.items() if hits}


def summary_text(summary: str) -> str:
    """The sentences of a cached summary: its label lines ("Name: …", "Innate traits: …")
    are data, not prose."""
    label = re.compile(r"^[A-Z][a-z]+(?: [a-z]+)?: ")
    return "\n".join(line for line in summary.splitlines() if line and not label.match(line))
