"""The evaluation's judge without a model: rules a reader can check, not a judgement of taste.

`knows` labels an interview answer yes or no as the paper's annotators did (§7.1): an
answer that opens with a denial or a doubt ("No, …", "I'm not sure …", "I haven't heard …")
is a no; one that names the subject is a yes; a bare affirmation ("Yes, I did.") is a yes
when the memories it cites name the subject.

`rank` orders candidate answers for the believability study when no model is configured: an
answer that denies or doubts comes after one that says something, and among those, the one
naming more of the character's own memories' words comes first. It keeps the study's
plumbing whole offline; its ranks say nothing about believability.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cognition.offline.text import sentences, stems

_OPENERS = re.compile(r"^(?:(?:um|uh|oh|well|hmm|ah)\b[,.!]?\s*)+", re.I)
_AFFIRMS = re.compile(r"^(?:yes|yeah|yep|of course|sure|indeed|certainly|i do|i did)\b", re.I)
_DENIES = re.compile(
    r"^(?:no|nope|not really)\b|\b(?:don't|do not|didn't|did not|haven't|have not|never) "
    r"(?:know|think i know|heard|hear|recall|remember)\b|\b(?:not sure|no idea|afraid not)\b",
    re.I,
)


def knows(*, answer: str, cues: Sequence[str], cited: Sequence[str] = ()) -> bool:
    """The label of the module docstring."""
    opening = _opening(answer)
    if not opening or _DENIES.search(opening):
        return False
    if _names(answer, cues):
        return True
    about = not cues or any(_names(memory, cues) for memory in cited)
    return about and bool(_AFFIRMS.match(opening))


def rank(*, answers: Sequence[str], memories: Sequence[str]) -> list[int]:
    """The answers' 1-based numbers, as the module docstring orders them."""
    remembered = set().union(*(stems(m) for m in memories)) if memories else set()

    def order(number: int) -> tuple[bool, int, int]:
        text = answers[number - 1]
        doubt = not text.strip() or bool(_DENIES.search(_opening(text)))
        return doubt, -len(stems(text) & remembered), number

    return sorted(range(1, len(answers) + 1), key=order)


def _opening(answer: str) -> str:
    """The first sentence, without a hesitation before it ("Um, no, …" → "no, …")."""
    first = next(iter(sentences(answer.strip())), "")
    return _OPENERS.sub("", first)


def _names(text: str, cues: Sequence[str]) -> bool:
    """Whether the text names a cue: a phrase as written, a single word by its stem too
    ("telescope" names the cue "telescopes")."""
    lowered, said = text.lower(), stems(text)
    return any(
        re.search(rf"\b{re.escape(cue.lower())}\b", lowered)
        or (" " not in cue.strip() and stems(cue) <= said and bool(stems(cue)))
        for cue in cues
        if cue
    )
