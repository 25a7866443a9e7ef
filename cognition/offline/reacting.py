"""Whether an observation interrupts the plan, decided by three rules in order.

1. Alarm: an object in an alarming state ("the stove is burning", "the sink is flooding",
   "the easel is broken") is dealt with at once, even by a
   sleeping agent. `what` names the remedy ("put out the fire on the stove"), `talk_to` is
   None. A word alone is no emergency: "sits by the fire" is an evening at the inn.
2. Asleep: an agent whose status says they are sleeping reacts to nothing else.
3. Someone to talk to: a person named in the observation (outside a place path), unless the
   context or the status already shows a recent conversation between the two (talked,
   chatted, greeted, spoke…; someone chatting with others is no conversation with the
   agent). In order, each unless a line between the two in the context already raised it:
   - an agent organising an upcoming gathering (its persona or its recalled news says so)
     invites them: "invite Tomas to the wedding";
   - an agent running for an office asks for their vote: "ask Tomas to vote in the election";
   - an agent who knows notable news of any kind (recalled in the context) and knows them
     passes it on: "tell Tomas the news";
   - someone the agent knows (named in the retrieved `context` or the `summary`, outside a
     sentence saying the agent does not know them) is greeted: "say hello to Tomas and chat";
   - a stranger is met, now and then (one pair in STRANGER_ONE_IN, chosen stably by the two
     names): "meet Tomas and chat" — a small town's people get to know each other.
   `talk_to` is that person's name as observed.

Otherwise the agent carries on with the plan.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from cognition.offline import knowledge
from cognition.offline.dialogue import shared_topics, topic_of
from cognition.offline.news import candidacy, gathering, report
from cognition.offline.text import (
    STOPWORDS,
    first_name,
    mentions,
    people,
    sentences,
    stable_index,
)
from cognition.types import Persona, Reaction

ALARM_REMEDIES: dict[str, str] = {
    "burning": "put out the fire on the {thing}",
    "on fire": "put out the fire on the {thing}",
    "smoking": "put out the fire on the {thing}",
    "broken": "fix the {thing}",
    "flooding": "stop the water at the {thing}",
    "flooded": "stop the water at the {thing}",
    "leaking": "stop the water at the {thing}",
    "overflowing": "stop the water at the {thing}",
    "sparking": "switch off the {thing}",
}
"""Alarming state → the remedy the agent undertakes."""

_STATES = "|".join(sorted(map(re.escape, ALARM_REMEDIES), key=len, reverse=True))
_ALARM_RE = re.compile(
    rf"(?P<thing>[A-Za-z' -]+?)\s+(?:is|are|was|has been|looks|seems)\s+"
    rf"(?:now\s+|still\s+|badly\s+)?(?P<state>{_STATES})\b",
    re.IGNORECASE,
)
_RECENT_TALK = re.compile(
    r"\b(talked|talking|chatted|chatting|greeted|said hi|said hello|spoke|speaking|"
    r"conversation|conversed|waved)\b",
    re.IGNORECASE,
)
_UNACQUAINTED = re.compile(
    r"\b(?:does not|doesn't|do not|don't|has not|hasn't|have not|haven't|never)\s+"
    r"(?:yet\s+|really\s+)?(?:know|knows|met)\b",
    re.IGNORECASE,
)
_ASLEEP = re.compile(r"\b(sleeping|asleep|sleep|napping)\b", re.IGNORECASE)
STRANGER_ONE_IN = 3
"""One pair of strangers in this many strike up a conversation when they meet."""
THING_WORDS = 3
"""Keep the last few words before "is burning": "the old stove" not the whole sentence."""


def react(
    *,
    persona: Persona,
    summary: str,
    status: str,
    observation: str,
    context: str,
    now: datetime | None = None,
    recalled: Sequence[str] = (),
    observed_person: str | None = None,
) -> Reaction:
    """Apply the rules of the module docstring in order. `recalled`: the context's statements
    as memories, read by their stored detail (else the context's lines are read).
    `observed_person`: the agent the observation is of, as the world knows it ("" for an
    object); only an observation that comes without a subject (None) is searched for names,
    so a place such as "Kestrel Quay" in the words is never taken for someone to greet."""
    alarm = _alarm(observation)
    if alarm is not None:
        return alarm
    if _ASLEEP.search(status):
        return Reaction(False, reason=f"{first_name(persona.name)} is asleep")
    named = _people_in(observation) if observed_person is None else [observed_person]
    for person in filter(None, named):
        if _is_self(person, persona.name):
            continue
        if _talked_recently(persona.name, person, context) or mentions(status, person):
            continue
        lines = recalled or context.splitlines()
        talk = _reason_to_talk(persona, person, context, lines, summary, now)
        if talk is not None:
            what, why = talk
            return Reaction(True, what=what, talk_to=person, reason=why)
    return Reaction(False, reason="nothing in the observation calls for a change of plan")


def _reason_to_talk(
    persona: Persona,
    person: str,
    context: str,
    lines: Sequence[str],
    summary: str,
    now: datetime | None,
) -> tuple[str, str] | None:
    """(what to do, why) for talking to `person`, or None (module docstring, rule 3)."""
    me, them = first_name(persona.name), first_name(person)
    raised = shared_topics(persona.name, person, lines)
    own_text = f"{persona.currently}. {persona.background}"
    heard = [f for line in lines for f in knowledge.news_in(line, now=now)]
    own = [  # "organising the annual meeting": the one known for Thursday at 7, over after
        gathering.dated(f, heard)
        for f in knowledge.spoken_news(own_text, speaker=persona.name, now=now)
    ]
    untold = [
        f
        for f in [*own, *heard]
        if topic_of(f) not in raised and not f.about(person) and not gathering.is_over(f, now)
    ]
    hosted = [f for f in untold if f.kind == gathering.NAME and f.about(persona.name)]
    if hosted:
        what = hosted[0].what
        return f"invite {them} to the {what}", f"{me} wants everyone at the {what}"
    running = [f for f in untold if f.kind == candidacy.NAME and f.about(persona.name)]
    if running:
        return f"ask {them} to vote in the election", f"{me} is running for {running[0].what}"
    knows = _knows(person, context, summary)
    news = [f for f in untold if f.weight >= report.MIN_WEIGHT and not f.about(persona.name)]
    if knows and news:
        return f"tell {them} the news", f"{me} wants to tell {person} that {_clause(news[0])}"
    if knows:
        return f"say hello to {them} and chat", f"{me} knows {person} and has not talked lately"
    if stable_index(f"{persona.name}|{person}", STRANGER_ONE_IN) == 0:
        return f"meet {them} and chat", f"{me} has not met {person} yet"
    return None


def _clause(fact: knowledge.Fact) -> str:
    text = fact.statement().rstrip(".")
    return text[:1].lower() + text[1:] if text.startswith("The ") else text


def _people_in(observation: str) -> list[str]:
    """People named in an observation, never the segments of a place path: in
    "Riverside Apartments: kitchen: stove is idle" only "stove is idle" can name anyone."""
    return people(observation.rsplit(":", 1)[-1])


def _alarm(observation: str) -> Reaction | None:
    """An alarming object state, with the remedy; None when everything is in order."""
    match = _ALARM_RE.search(observation)
    if match is None:
        return None
    thing = _thing(match["thing"])
    state = match["state"].lower()
    what = ALARM_REMEDIES[state].format(thing=thing)
    return Reaction(True, what=what, reason=f"the {thing} is {state}, which cannot wait")


def _thing(phrase: str) -> str:
    """The object's name from a place path or a noun phrase ("Cafe: kitchen: the stove")."""
    words = phrase.split(":")[-1].split()[-THING_WORDS:]
    while words and words[0].lower() in STOPWORDS:
        words = words[1:]
    return " ".join(words).lower() or "thing"


def _is_self(person: str, name: str) -> bool:
    return person == name or first_name(person) == first_name(name)


def _knows(person: str, context: str, summary: str) -> bool:
    """Named in the summary, or in a context sentence that does not deny knowing them."""
    acquainted = (line for line in sentences(context) if not _UNACQUAINTED.search(line))
    return mentions(summary, person) or any(mentions(line, person) for line in acquainted)


def _talked_recently(name: str, person: str, context: str) -> bool:
    """Whether a retrieved sentence records a conversation between the agent and the person.
    Both must be named: "Helen is chatting over the meal" is Helen talking with someone else,
    which once kept a host from inviting anyone at a full café table."""
    return any(
        mentions(sentence, person) and mentions(sentence, name) and _RECENT_TALK.search(sentence)
        for sentence in sentences(context)
    )
