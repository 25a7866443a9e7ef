"""How an agent says things: the persona's `speaking_style` applied to a finished line.

Lines are composed by `dialogue` from templates that always start with one of the template's
own words (a greeting, "I", "Yes", "Have you heard?"), never with a name, so a style may
change how a line opens without touching anyone's name:

    style words                                 effect
    ------------------------------------------  ------------------------------------------
    formal, polite, proper, courteous, precise  no contractions ("I am", "do not")
    enthusiastic, cheerful, bright, bubbly,     full stops become exclamation marks
      energetic, upbeat
    shy, nervous, hesitant, timid, soft-spoken  opens with "Um, "
    terse, brief, blunt, curt, few words        keeps only the last two sentences (the point)
    calls people 'love'                         a closing line ends with ", love!"
"""

from __future__ import annotations

import re

from cognition.offline.text import ABBREVIATIONS, NAME_WORD, sentences, stems

FORMAL = frozenset(stems("formal polite proper courteous precise fashioned"))
ENTHUSIASTIC = frozenset(stems("enthusiastic cheerful exclamation bubbly energetic bright upbeat"))
SHY = frozenset(stems("shy nervous hesitant timid soft-spoken"))
TERSE = frozenset(stems("terse brief blunt curt few"))
TERSE_SENTENCES = 2

CONTRACTIONS = {
    "I'm": "I am",
    "I've": "I have",
    "I'd": "I would",
    "I'll": "I will",
    "don't": "do not",
    "didn't": "did not",
    "it's": "it is",
    "It's": "It is",
    "that's": "that is",
    "That's": "That is",
    "can't": "cannot",
    "there's": "there is",
    "you're": "you are",
    "we've": "we have",
    "won't": "will not",
    "let's": "let us",
    "hadn't": "had not",
    "wouldn't": "would not",
}
"""Undone for formal speakers."""
_PAST_PERFECT = re.compile(
    r"(?<![\w'])I'd (\w+(?:ed|en)|heard|been|seen|had|done|gone|told|known|met|got|thought|"
    r"made|said|left|lost|found|read|felt|kept|sent|spent|brought|bought|caught|taught|"
    r"better|best)\b"
)
"""An "I'd" before a past participle, which is "I had", not "I would"; so is "I'd better"."""
_HAS_BEEN = re.compile(r"(?<![\w'])([Ii]t|[Tt]hat|[Tt]here)'s (been|got|had|gone)\b")
"""An "it's" before "been" or "got", which is "it has" ("unless it's been booked")."""
_SENTENCE_END = re.compile("".join(rf"(?<!\b{a})" for a in ABBREVIATIONS) + r"\.(\s|$)")
"""A full stop that ends a sentence, not an abbreviation's ("St.", "Dr.")."""
SHY_OPENERS = frozenset(
    ["Hi", "Hello", "Good", "Yes", "No", "Oh", "I'm", "I", "Really", "That's", "Wonderful", "Nice"]
)
"""First words a shy "Um, " may go before (the rest of the line is left as it is)."""
_VOCATIVE = re.compile(r"\bcalls (?:people|everyone|everybody) '([^']+)'", re.I)


def vocative(style: str) -> str | None:
    """The pet name a persona calls people by ("love"), if its style says so."""
    match = _VOCATIVE.search(style)
    return match[1] if match else None


def styled(
    text: str, style: str, *, vocative: str | None = None, substance_first: bool = False
) -> str:
    """Apply the rules of the module docstring to a finished line. A terse speaker keeps a
    line's last sentences (a greeting goes first), or its first where the substance leads
    (`substance_first`: an answer's "Yes. <the news>.", not "Everyone is invited. I heard …")."""
    words = stems(style)
    if words & TERSE:
        said = sentences(text)
        kept = said[:TERSE_SENTENCES] if substance_first else said[-TERSE_SENTENCES:]
        text = " ".join(kept)
    if words & FORMAL:
        text = _PAST_PERFECT.sub(r"I had \1", text)  # "I'd heard" is "I had heard"
        text = _HAS_BEEN.sub(r"\1 has \2", text)  # "it's been booked" is "it has been booked"
        for short, long in CONTRACTIONS.items():
            text = re.sub(rf"(?<![\w']){re.escape(short)}(?![\w'])", long, text)
    if vocative:
        named = re.sub(rf", {NAME_WORD}[.!]$", f", {vocative}!", text)
        text = named if named != text else re.sub(r"[.!]$", f", {vocative}!", text, count=1)
    if words & ENTHUSIASTIC:  # "Dr. Hale" keeps its full stop: it ends no sentence
        text = _SENTENCE_END.sub(r"!\1", text)
    first = text.split()[0].rstrip(",.!?") if text.split() else ""
    if words & SHY and first in SHY_OPENERS:
        rest = text if first in ("I", "I'm") else text[0].lower() + text[1:]
        text = f"Um, {rest}"
    return text
