"""Candidacies: someone running for an office ("Walter is running for a seat on the Larkspur
town council"). The one home of the election vocabulary: `OFFICES` names what one runs for,
`WORDS` what a question about an election is asked with."""

from __future__ import annotations

import re
from datetime import datetime
from typing import TYPE_CHECKING

from cognition.offline.facts import Fact
from cognition.offline.text import NAME_WORD, first_name, same_person, stems

if TYPE_CHECKING:
    from cognition.offline.news import Slot

NAME = "candidacy"
WEIGHT = 6
OFFICES = "council|mayor|mayoralty|office|board|committee|president|chair|sheriff|alderman"
WORDS = frozenset(stems("running election elected mayor council candidate vote campaign office"))
"""Words of a question about who is running (the interview's cue)."""
_NAME = rf"{NAME_WORD}(?:[ -]{NAME_WORD})?"
_CANDIDACY = re.compile(
    rf"(?P<who>\bI|{_NAME})(?:'m|’m| am| is|'s| has been| will be)?\s+(?:also\s+|now\s+)?"
    r"(?:running|standing|campaigning)\s+(?:for|to be|to become)\s+(?P<office>(?:a |the )?"
    rf"(?:seat on (?:the )?)?[A-Za-z' ]*?(?:{OFFICES}))\b"
)


class Candidacy:
    """The candidacy kind (module docstring)."""

    name = NAME

    def recognise(self, sentence: str, *, speaker: str | None, now: datetime | None) -> list[Fact]:
        del now
        found = []
        for match in _CANDIDACY.finditer(sentence):
            who = speaker if match["who"] == "I" else match["who"]
            if who:
                office = " ".join(match["office"].split())
                found.append(Fact(kind=NAME, what=office, who=who, weight=WEIGHT))
        return found

    def key(self, fact: Fact) -> str:
        return f"{NAME}|{first_name(fact.who or '').casefold()}"

    def statement(self, fact: Fact) -> str:
        return f"{fact.who} is running for {fact.what}."

    def pitch(self, fact: Fact, *, listener: str) -> str:
        del listener
        return f"I'm running for {fact.what}. I hope I can count on your vote."

    def retell(
        self, fact: Fact, *, source: str | None, variant: int, firsthand: bool = False
    ) -> str:
        options = (
            f"Did you know that {fact.who} is running for {fact.what}?",
            (
                f"I heard it from {first_name(source)} in person: {fact.who} is running for "
                f"{fact.what}."
                if same_person(source, fact.who or "")
                else f"{first_name(source)} told me that {fact.who} is running for {fact.what}."
            )
            if source
            else f"I heard that {fact.who} is running for {fact.what}.",
        )
        return options[0 if firsthand else variant % len(options)]

    def welcome(self, fact: Fact, *, listener: str, variant: int) -> str:
        del variant
        if same_person(fact.who or "", listener):
            return "I didn't know you were running. Good luck!"
        them = first_name(fact.who or "")
        return f"I didn't know {them} was running. Good for {them}!"

    def own_reply(self, fact: Fact) -> str:
        del fact
        return "That's me, actually! I hope I can count on your vote."

    def slots(self, fact: Fact, *, name: str) -> list[Slot]:
        del fact, name
        return []


KIND = Candidacy()
