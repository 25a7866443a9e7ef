"""Parsers for the social operations: reactions, relationships and dialogue turns."""

from __future__ import annotations

import re
from collections.abc import Sequence

from cognition.clamps import clamp_sentiment
from cognition.errors import InvalidOutput
from cognition.parsing.extract import is_refusal, load
from cognition.parsing.schemas import (
    CurrentlyOut,
    NotesOut,
    ReactionOut,
    RelationshipOut,
    UtteranceOut,
)
from cognition.prompting import one_line
from cognition.types import Notes, Reaction, RelationshipUpdate, Utterance

_EMPTY = frozenset({"", "none", "nothing", "n/a", "null", "no"})

_NOBODY = frozenset({"", "null", "none", "nobody", "no one", "n/a"})
_QUOTES = "\"'“”‘’"
"""Straight and typographic quotes that models put around a spoken line."""


def parse_react(raw: str) -> Reaction:
    """Whether to react and how; a reaction with nothing to do is invalid."""
    out = load(raw, ReactionOut)
    talk_to = one_line(out.talk_to or "")
    talk_to_or_none = None if talk_to.lower() in _NOBODY else talk_to
    what, reason = out.what.strip(), out.reason.strip()
    if not out.react:
        return Reaction(react=False, reason=reason)
    if not what and talk_to_or_none is None:
        raise InvalidOutput("react is true but neither what nor talk_to says how", raw=raw)
    return Reaction(react=True, what=what, talk_to=talk_to_or_none, reason=reason)


def parse_relationship(raw: str) -> RelationshipUpdate:
    """The relationship summary and a 0–10 sentiment."""
    out = load(raw, RelationshipOut)
    summary = out.summary.strip()
    if not summary:
        raise InvalidOutput("the relationship summary is empty", raw=raw)
    return RelationshipUpdate(summary=summary, sentiment=clamp_sentiment(out.sentiment))


def parse_next_utterance(
    raw: str,
    *,
    speaker: str | None = None,
    said: Sequence[str] = (),
    names: Sequence[str] = (),
) -> Utterance:
    """The spoken line, without a `Speaker:` prefix or wrapping quotes the model added.

    A small model may say its first line again word for word later in the same conversation,
    or echo the other's line back as its own; a line of several words said before in the
    conversation (`said`: its lines so far, both sides') is sent back, so the re-ask asks for
    something new. A short "Okay." or "See you there!" may come twice. A line that goes on
    is compared without the two sides' `names` too: "Hello Mira! I'm doing well. How about
    you?" echoed as "Hello Ada! …" is the same line. A refusal written as the line ("I'm
    sorry, but I can't assist with that.") is sent back too."""
    out = load(raw, UtteranceOut)
    text = out.text.strip()
    if speaker:
        text = re.sub(rf"^{re.escape(speaker.strip())}\s*:\s*", "", text, flags=re.I)
    text = _unquote(text)
    if not text:
        raise InvalidOutput("the line is empty", raw=raw)
    if is_refusal(text):  # in the line itself: the model stepped out of the game, once
        raise InvalidOutput(
            f"{text!r} is the model declining, not a line: say it in character", raw=raw
        )
    words = _words(text)
    unnamed = _words(text, leaving=names)
    again = any(_words(line) == words for line in said) or (
        not out.ends
        and len(unnamed) >= REPEAT_MIN_WORDS
        and any(_words(line, leaving=names) == unnamed for line in said)
    )
    if len(words) >= REPEAT_MIN_WORDS and again:
        raise InvalidOutput(
            f"{text!r} was already said in this conversation: say something new, or end it",
            raw=raw,
        )
    return Utterance(text=text, ends=out.ends)


REPEAT_MIN_WORDS = 4
"""A line this long said twice in one conversation reads as a loop or an echo, not speech."""


def _words(text: str, *, leaving: Sequence[str] = ()) -> list[str]:
    """The line's words, casefolded, without any word of `leaving` (the speakers' names)."""
    left = {part.casefold() for name in leaving for part in name.split()}
    return [word for word in re.findall(r"[\w']+", text.casefold()) if word not in left]


def _unquote(text: str) -> str:
    if len(text) > 1 and text[0] in _QUOTES and text[-1] in _QUOTES:
        return text[1:-1].strip()
    return text


def parse_conversation_notes(raw: str, *, name: str) -> Notes:
    """The planning thought (prefixed "For <name>'s planning: ", as the reference code
    words it) and the memo; a sentence that only says "nothing" is empty."""
    out = load(raw, NotesOut)
    planning, memo = _sentence_or_empty(out.planning), _sentence_or_empty(out.memo)
    if planning and not planning.startswith("For "):
        planning = f"For {name}'s planning: {planning}"
    return Notes(planning=planning, memo=memo)


def parse_revise_currently(raw: str) -> str:
    """The revised status."""
    text = " ".join(load(raw, CurrentlyOut).currently.split())
    if not text:
        raise InvalidOutput("the status is empty", raw=raw)
    return text


def _sentence_or_empty(text: str) -> str:
    clean = " ".join(text.split())
    return "" if clean.rstrip(".").lower() in _EMPTY else clean
