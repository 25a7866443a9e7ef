"""How an agent says things: memories retold in the first person, in the persona's style.

Memories are written about the agent in the third person ("Isabella Rodriguez is planning a
party"). When the agent speaks, they are retold in the first person ("I am planning a
party") and the listener becomes "you". The persona's `speaking_style` then shapes the line:

    style words                                 effect
    ------------------------------------------  ------------------------------------------
    formal, polite, proper, courteous           greets with "Good day"; no contractions
    casual, relaxed, laid-back, slang           greets with "Hey"
    enthusiastic, cheerful, exclamation, warm,  full stops become exclamation marks
      bubbly, energetic
    shy, nervous, hesitant, timid               opens with "Um, "
    terse, brief, blunt, curt, few words        keeps only the last two sentences (the point)
"""

from __future__ import annotations

import re
from collections.abc import Callable

from cognition.offline.text import first_name, people, sentences, stems

FORMAL = frozenset(stems("formal polite proper courteous"))
CASUAL = frozenset(stems("casual relaxed laid-back slang informal"))
ENTHUSIASTIC = frozenset(stems("enthusiastic cheerful exclamation warm bubbly energetic"))
SHY = frozenset(stems("shy nervous hesitant timid"))
TERSE = frozenset(stems("terse brief blunt curt few"))
TERSE_SENTENCES = 2

CONTRACTIONS = {
    "I'm": "I am",
    "I've": "I have",
    "don't": "do not",
    "it's": "it is",
    "that's": "that is",
    "can't": "cannot",
    "I'll": "I will",
    "there's": "there is",
    "you're": "you are",
    "won't": "will not",
    "let's": "let us",
}
"""Undone for formal speakers."""

_THIRD_PERSON_ES = ("s", "sh", "ch", "x", "o", "z")


def greeting(listener: str, style: str) -> str:
    """An opening salutation in the speaker's register."""
    words = stems(style)
    name = first_name(listener)
    if words & FORMAL:
        return f"Good day, {name}."
    if words & CASUAL:
        return f"Hey {name}!"
    return f"Hi {name}!"


def styled(text: str, style: str) -> str:
    """Apply the speaking-style rules of the module docstring to a finished line."""
    words = stems(style)
    if words & TERSE:
        text = " ".join(sentences(text)[-TERSE_SENTENCES:])
    if words & FORMAL:
        for short, long in CONTRACTIONS.items():
            text = re.sub(rf"\b{re.escape(short)}\b", long, text)
    if words & ENTHUSIASTIC:
        text = re.sub(r"\.(\s|$)", r"!\1", text)
    if words & SHY and text:
        text = f"Um, {text[0].lower() if not text.startswith('I') else 'I'}{text[1:]}"
    return text


def first_person(statement: str, *, speaker: str, listener: str | None = None) -> str:
    """Retell a statement as the speaker would: speaker → I/me/my, listener → you/your."""
    text = _rename(statement, speaker, ("I am", "I was", "I have", "my", "I", "me"))
    if listener:
        text = _rename(text, listener, ("you are", "you were", "you have", "your", "you", "you"))
    named = [
        p
        for p in people(statement)
        if first_name(p) not in {first_name(speaker), first_name(listener or "")}
    ]
    if not named and text.startswith(("I ", "you ")):
        own = "my" if text.startswith("I ") else "your"
        text = re.sub(r"\b(her|his)\b", own, text)
    return text


def _rename(text: str, name: str, forms: tuple[str, str, str, str, str, str]) -> str:
    """Replace a person's full or first name with pronouns, keeping the verb in agreement."""
    am, was, have, my, subject, obj = forms
    for candidate in dict.fromkeys([name, first_name(name)]):
        if not candidate:
            continue
        pattern = re.escape(candidate)
        text = re.sub(rf"\b{pattern}(?:'s|’s)", my, text)
        text = re.sub(rf"^{pattern} is\b", am, text)
        text = re.sub(rf"^{pattern} was\b", was, text)
        text = re.sub(rf"^{pattern} has\b", have, text)
        text = re.sub(rf"^{pattern} (\w+)", _subject_with_verb(subject), text)
        text = re.sub(rf"\b{pattern}\b", obj, text)
    return text


def _subject_with_verb(subject: str) -> Callable[[re.Match[str]], str]:
    """A replacement putting the pronoun before the verb in the pronoun's form."""

    def replace(match: re.Match[str]) -> str:
        return f"{subject} {_base_verb(match[1])}"

    return replace


def _base_verb(word: str) -> str:
    """ "plans" → "plan", "watches" → "watch": the verb after I or you."""
    if word.endswith("ies") and len(word) > len("ies") + 1:
        return word[:-3] + "y"
    if word.endswith("es") and word[:-2].endswith(_THIRD_PERSON_ES):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss") and len(word) > len("is"):
        return word[:-1]
    return word
