"""What the emergence evaluation asks about: the demo town's two pieces of news, the party's
place and hours, and the paper's own figures to set beside a run's (§7.1.2).

The paper's questions are kept word for word where the town allows: Smallville's mayoral
candidacy is Larkspur's council candidacy, Isabella's party at Hobbs Cafe is Junie's at The
Copper Kettle.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from hearth_client.demo import NEWS


@dataclass(frozen=True)
class Topic:
    """A piece of news one agent knows at the start."""

    key: str
    """The JSON key: "party" or "election"."""
    title: str
    originator: str
    question: str
    subject: str
    """What knowing means, for the judge."""
    cues: tuple[str, ...]
    """Words an answer that knows names (the offline judge's rule)."""
    pattern: str
    """A case-insensitive regular expression: a memory or a line that mentions the news."""

    def mentioned_in(self, text: str) -> bool:
        return re.search(self.pattern, text, re.I) is not None


PARTY = Topic(
    key="party",
    title="the party",
    originator="Junie Halvorsen",
    question="Did you know there is a Valentine's Day party?",
    subject="Junie Halvorsen's Valentine's Day party at The Copper Kettle",
    cues=("party", "Valentine"),
    pattern=NEWS[0].pattern,
)
ELECTION = Topic(
    key="election",
    title="the candidacy",
    originator="Walter Brigg",
    question="Do you know who is running for the town council?",
    subject="who is running for the town council (Walter Brigg is)",
    cues=("Walter",),
    pattern=NEWS[1].pattern,
)
TOPICS = (PARTY, ELECTION)


@dataclass(frozen=True)
class Gathering:
    """Where and when the party is: who stood there then attended."""

    place: str
    start: datetime
    end: datetime
    why_question: str


PARTY_GATHERING = Gathering(
    place="The Copper Kettle",
    start=datetime(2023, 2, 14, 18, 0),
    end=datetime(2023, 2, 14, 20, 0),
    # The day and its plan are named, as an interviewer would follow up: an agent recalls its
    # outline for February 14 only when the question brings that day to mind.
    why_question=(
        "Why didn't you come to Junie Halvorsen's Valentine's Day party on February 14? "
        "What was your plan for that day?"
    ),
)
EVENING_ENDS = 21
"""The run's last day ends at 21:00, an hour after the party: the end of its evening."""


@dataclass(frozen=True)
class Paper:
    """Smallville's figures (§7.1.2): 25 agents over two game days."""

    agents: int = 25
    party_start: int = 1
    party_end: int = 13
    election_start: int = 1
    election_end: int = 8
    density_start: float = 0.167
    density_end: float = 0.74
    relationship_answers: int = 453
    relationship_hallucinated: int = 6
    invited: int = 12
    attended: int = 5


PAPER = Paper()
