"""The paper's Appendix B interview: five categories of five questions, the names in brackets
filled per agent as the paper did (memory: others the agent has talked with, chosen at random;
reflection: those it talked with most). Smallville's mayoral election is Larkspur's council
election."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

CATEGORIES: dict[str, tuple[str, ...]] = {
    "self-knowledge": (
        "Give an introduction of yourself.",
        "What's your occupation?",
        "What is your interest?",
        "Who do you live with?",
        "Describe your typical weekday schedule in broad strokes.",
    ),
    "memory": (
        "Who is {met1}?",
        "Who is {met2}?",
        "Who is running for the town council?",
        "Was there a Valentine's day party?",
        "Who is {met3}?",
    ),
    "plans": (
        "What will you be doing at 6am today?",
        "What will you be doing at 6pm today?",
        "What will you have just finished doing at 1pm today?",
        "What will you have just finished doing at 12pm today?",
        "What will you be doing at 10pm today?",
    ),
    "reactions": (
        "Your breakfast is burning! What would you do?",
        "The bathroom is occupied. What would you do?",
        "You need to cook dinner but your refrigerator is empty. What would you do?",
        "You see your friend walking by the street. What would you do or say to your friend?",
        "You see fire on the street. What would you do?",
    ),
    "reflections": (
        "What inspires you in life the most right now, and why?",
        "If you had to guess given what you know about {close1}, what book do you think they "
        "will like and why?",
        "If you had to get something {close1} likes for their birthday, what would you get?",
        "What would you say to {close2} to compliment them?",
        "If you could spend time with someone you talked to recently, who would it be and why?",
    ),
}


@dataclass(frozen=True)
class Asked:
    category: str
    text: str


def interview_for(agent: str, *, talked_with: Sequence[str], others: Sequence[str]) -> list[Asked]:
    """The 25 questions for one agent. `talked_with` lists the agents it heard a line from,
    once per line (so the most talked-with come up most); `others` fills in when it talked
    with fewer than three people (everyone else in town, in a stable order)."""
    counts = Counter(name for name in talked_with if name != agent)
    met = sorted(counts)
    fill = [name for name in others if name != agent and name not in counts]
    chosen = random.Random(f"believability|{agent}").sample(met, k=min(3, len(met)))
    chosen += fill[: 3 - len(chosen)]
    closest = [name for name, _ in counts.most_common(2)] + fill
    names = {
        "met1": chosen[0],
        "met2": chosen[1 % len(chosen)],
        "met3": chosen[2 % len(chosen)],
        "close1": closest[0],
        "close2": closest[1 % len(closest)],
    }
    return [
        Asked(category, question.format(**names))
        for category, questions in CATEGORIES.items()
        for question in questions
    ]
