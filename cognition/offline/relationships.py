"""How one agent sees another, from the retrieved statements that mention the other.

Sentiment starts at NEUTRAL (5) and moves one point per positive or negative word in those
statements ("kind", "friend", "laughed" up; "rude", "argument", "lied" down), a word after a
negation ("not kind") counting the other way, clamped to 0–10. The summary names the tone and
retells up to MAX_QUOTED of the statements, most recent last as they were given.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cognition.offline.text import as_clause, mentions, stem, word_set, words
from cognition.types import RelationshipUpdate

NEUTRAL = 5
MIN_SENTIMENT = 0
MAX_SENTIMENT = 10
MAX_QUOTED = 2

POSITIVE: frozenset[str] = frozenset(
    stem(w)
    for w in word_set(
        """
    like likes love friend friendly kind helpful enjoy enjoyed fun thanks thank thanked trust
    admire great nice happy warm laughed laugh glad supportive generous invited invite
    welcome welcomed fond close care cares caring grateful hug hugged compliment complimented
    agree agreed
    """
    )
)
NEGATIVE: frozenset[str] = frozenset(
    stem(w)
    for w in word_set(
        """
    angry argue argued argument fight fought rude dislike hate annoyed annoying upset lied lie
    mean jealous ignored ignore insulted insult betrayed awkward avoid avoided yelled shouted
    blamed blame rival disappointed distrust cold
    """
    )
)
NEGATIONS: frozenset[str] = frozenset({"not", "never", "no", "don't", "doesn't", "didn't", "isn't"})

TONES: tuple[tuple[int, str], ...] = (
    (8, "is very fond of"),
    (6, "likes"),
    (5, "feels neutral about"),
    (3, "is wary of"),
    (0, "has a poor opinion of"),
)
"""(lowest sentiment, phrase): the first row the sentiment reaches describes the tone."""


def relationship(*, name: str, other: str, statements: Sequence[str]) -> RelationshipUpdate:
    """Summary and 0–10 sentiment of how `name` sees `other`.

    The summary is composed, never quoted: the tone, how they know each other when a seed
    says so ("Junie Halvorsen knows Tomas Ferreira: her barista." → "(her barista)"), and how
    many of the statements are conversations between them.
    """
    about = [s for s in statements if mentions(s, other)]
    if not about:
        return RelationshipUpdate(
            f"{name} does not know much about {other} yet.", NEUTRAL, evidence=0
        )
    score = sentiment(about)
    tone = next(phrase for floor, phrase in TONES if score >= floor)
    text = f"{name} {tone} {other}"
    known = next((m for s in about if (m := _KNOWS.match(s.strip()))), None)
    if known is not None:
        text += f" ({as_clause(known['how'])})"
    talks = sum(1 for s in about if _SAID.match(s.strip()))
    if talks:
        text += f". They have talked {'once' if talks == 1 else f'{talks} times'} recently"
    return RelationshipUpdate(f"{text}.", score, evidence=len(about))


_KNOWS = re.compile(r"^[^:]+? knows [^:]+?: (?P<how>[^\"]+)$")
_SAID = re.compile(r'^.+? said to .+?: ".*"$')


def sentiment(statements: Sequence[str]) -> int:
    """NEUTRAL moved one point per polar word, negation-aware, clamped to 0–10."""
    score = NEUTRAL
    for statement in statements:
        tokens = words(statement)
        for i, token in enumerate(tokens):
            polarity = (stem(token) in POSITIVE) - (stem(token) in NEGATIVE)
            if polarity and i > 0 and tokens[i - 1] in NEGATIONS:
                polarity = -polarity
            score += polarity
    return max(MIN_SENTIMENT, min(MAX_SENTIMENT, score))
