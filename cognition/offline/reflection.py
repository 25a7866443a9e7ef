"""Reflection without a model: questions about who and what fills the stream, insights as
whole sentences about the reflecting person, each citing the statements it rests on.

The paper reflects in two steps: "what are the most salient high-level questions about these
records?", then, per question, "what high-level insights can you infer, citing the
statements?". Offline, salience is what the records are about:

    records mention                     question asked
    ----------------------------------  ------------------------------------------------
    an upcoming event                   "What is <name> looking forward to?"
    an election or candidacy            "What does <name> know about the election?"
    another person most often           "What is <name>'s relationship with <person>?"
    <name>'s own activities             "How has <name> been spending the time?"

Each insight is composed from facts, never by re-wording a statement, so it is always a
sentence about the person ("Junie Halvorsen is looking forward to the Valentine's Day party at
The Copper Kettle on February 14.", "Junie Halvorsen has been talking with Tomas Ferreira
lately.", "Junie Halvorsen has spent much of the time working at the counter."), and cites
exactly the statements that carry its fact. Questions and insights about a subject the
statements do not support are not made.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from cognition.grammar import possessive, progressive
from cognition.offline import knowledge
from cognition.offline.facts import article
from cognition.offline.knowledge import Fact
from cognition.offline.news import candidacy, gathering, report
from cognition.offline.text import first_name, mentions, people, same_person, stems
from cognition.types import Insight

MIN_SUPPORT = 2
"""A pattern seen once is a memory, not an insight."""
OBSERVED = re.compile(r"^(?P<who>[A-Z][\w'’-]*(?: [A-Z][\w'’-]*)*) is (?P<doing>.+?)\.?$")
LOOKING_FORWARD = "What is {name} looking forward to?"
ELECTION = "What does {name} know about the election?"
RELATIONSHIP = "What is {owner} relationship with {other}?"
TIME_SPENT = "How has {name} been spending the time?"
NEWS = "What news has {name} heard?"


def reflection_questions(records: Sequence[str], n: int, *, name: str = "") -> list[str]:
    """Up to n questions, most salient first (module docstring)."""
    name = name or _likely_subject(records)
    questions: list[str] = []
    if _facts(records, gathering.NAME):
        questions.append(LOOKING_FORWARD.format(name=name))
    if _facts(records, candidacy.NAME) or any(stems(r) & candidacy.WORDS for r in records):
        questions.append(ELECTION.format(name=name))
    if _facts(records, report.NAME):
        questions.append(NEWS.format(name=name))
    for other, count in _others(records, name).most_common(2):
        if count >= MIN_SUPPORT:
            questions.append(RELATIONSHIP.format(owner=possessive(name), other=other))
    if len(_own_activities(records, name)) >= MIN_SUPPORT or (records and not questions):
        questions.append(TIME_SPENT.format(name=name))
    return questions[:n]


def insights(question: str, statements: Sequence[str], n: int, *, name: str = "") -> list[Insight]:
    """Up to n insights answering the question from the numbered statements."""
    name = name or _likely_subject(statements)
    if question.startswith("What is") and "looking forward" in question:
        found = _forward(statements, name)
    elif "election" in question:
        found = _election(statements, name)
    elif question == NEWS.format(name=name):
        found = _news(statements, name)
    elif (match := re.search(r"relationship with (?P<other>.+?)\?$", question)) is not None:
        found = _relationship(statements, name, match["other"])
    else:
        found = _time_spent(statements, name)
    return (found or _in_general(statements, name))[:n]


def _in_general(statements: Sequence[str], name: str) -> list[Insight]:
    """When nothing more specific holds: whom the person has been talking with, citing those
    lines; else, as a last resort, that the day was full, citing what mentions them (a
    reflection over statements the offline mind cannot read must still say something, or
    the model path that asked it fails)."""
    partners: dict[str, list[int]] = {}
    for index, statement in enumerate(statements, start=1):
        heard = knowledge.said(statement)
        if heard is None or not {first_name(heard.speaker), first_name(heard.listener)} & {
            first_name(name)
        }:
            continue
        other = heard.listener if same_person(heard.speaker, name) else heard.speaker
        partners.setdefault(other, []).append(index)
    if not partners:  # the model path needs an insight: a reflection that found none fails
        cited_all = tuple(i for i, s in enumerate(statements, start=1) if mentions(s, name))
        return [Insight(f"{name} has had a full day.", cited_all)] if cited_all else []
    names = list(partners)[:3]
    cited = tuple(sorted(i for other in names for i in partners[other]))
    return [Insight(f"{name} has been talking with {_listed(names)}.", cited)]


def _listed(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _forward(statements: Sequence[str], name: str) -> list[Insight]:
    found: list[Insight] = []
    for event, cited in _facts(statements, gathering.NAME).values():
        if event.about(name):
            what = f"{article(event.what)} {event.what}{event.details()}"
            # the comma ends the gathering's purpose when this insight is read again
            text = f"{name} is hosting {what}, and hopes that everyone will come."
        else:
            text = _known(name, f"{gathering.named(event)} is{event.details()}", statements, cited)
        found.append(Insight(text, cited))
    return found


def _election(statements: Sequence[str], name: str) -> list[Insight]:
    found: list[Insight] = []
    for running, cited in _facts(statements, candidacy.NAME).values():
        if running.about(name):
            text = f"{name} is running for {running.what} and is asking people for support."
        else:
            said = f"{running.who} is running for {running.what}"
            text = _known(name, said, statements, cited)
        found.append(Insight(text, cited))
    return found


def _news(statements: Sequence[str], name: str) -> list[Insight]:
    """What the agent has heard, each report once, citing every statement of it."""
    return [
        Insight(_known(name, fact.what, statements, cited), cited)
        for fact, cited in _facts(statements, report.NAME).values()
        if not fact.about(name)
    ]


def _known(name: str, clause: str, statements: Sequence[str], cited: Sequence[int]) -> str:
    """ "X heard from Y that …" when a cited line is Y telling it, else "X knows that …": the
    insight keeps its source, so it is never read later as news X knew first."""
    for index in cited:
        heard = knowledge.said(statements[index - 1])
        if heard is not None and not same_person(heard.speaker, name):
            return f"{name} heard from {heard.speaker} that {clause}."
    return f"{name} knows that {clause}."


def _relationship(statements: Sequence[str], name: str, other: str) -> list[Insight]:
    talked = _cited(
        statements, lambda s: _talk_between(s, name, other) or _seen_with(s, other, name)
    )
    seen = _cited(statements, lambda s: _seen_doing_apart(s, other, name) is not None)
    found: list[Insight] = []
    if len(talked) >= 1:
        times = "several times" if len(talked) >= MIN_SUPPORT + 1 else "lately"
        found.append(Insight(f"{name} has been talking with {other} {times}.", talked))
    if len(seen) >= MIN_SUPPORT:
        doings = [_seen_doing_apart(statements[i - 1], other, name) for i in seen]
        common, count = Counter(d for d in doings if d).most_common(1)[0]
        if count >= MIN_SUPPORT and not _PRIVATE.search(common):
            evidence = tuple(i for i, d in zip(seen, doings, strict=True) if d == common)
            found.append(Insight(f"{name} often sees {other} {common}.", evidence))
        else:
            found.append(Insight(f"{name} has been seeing a lot of {other}.", seen))
    return found


_PRIVATE = re.compile(
    r"\b(?:shower(?:ing)?|bath(?:ing)?|toilet|bathroom|dressed|undress(?:ing)?|asleep|sleeping|"
    r"in bed|napping|brushing (?:his|her|their) teeth)\b"
)
"""What one sees of a person at home and does not remark on ("often sees Ruth taking a
shower"): seeing a lot of them is said instead."""
_MOMENTARY = re.compile(
    r"^(?:picking up|putting (?:on|down|away)|opening|closing|grabbing|turning (?:on|off)|"
    r"switching (?:on|off)|locking|unlocking|taking (?:off|out)|setting down)\b"
)
"""An act of a moment, seen at several steps of a task ("picking up a basket"): not what
anyone spends much of the time doing."""


def _time_spent(statements: Sequence[str], name: str) -> list[Insight]:
    activities = _own_activities(statements, name)
    if len(activities) < MIN_SUPPORT:
        return []
    counts = Counter(doing for doing, _ in activities)
    found: list[Insight] = []
    for doing, count in counts.most_common(2):
        cited = tuple(i for d, i in activities if d == doing)
        if count >= MIN_SUPPORT and not _MOMENTARY.match(doing):
            found.append(Insight(f"{name} has spent much of the time {doing}.", cited))
    if not found:
        cited = tuple(i for _, i in activities)
        found.append(Insight(f"{name} has had a varied and busy day.", cited))
    return found


def _facts(statements: Sequence[str], kind: str) -> dict[str, tuple[Fact, tuple[int, ...]]]:
    """The news of one kind by key, merged across statements, with the statements citing it."""
    found: dict[str, tuple[Fact, tuple[int, ...]]] = {}
    for index, statement in enumerate(statements, start=1):
        for news in knowledge.news_in(statement):
            if news.kind != kind:
                continue
            if news.key in found:
                fact, cited = found[news.key]
                found[news.key] = (fact.merged(news), (*cited, index))
            else:
                found[news.key] = (news, (index,))
    return found


def _others(records: Sequence[str], name: str) -> Counter[str]:
    """People other than `name` by the number of records naming them (full names)."""
    counts: Counter[str] = Counter()
    for record in records:
        heard = knowledge.said(record)
        seen = OBSERVED.match(record.strip())
        named = [heard.speaker, heard.listener] if heard else [seen["who"]] if seen else []
        for person in dict.fromkeys(named):
            if person and first_name(person) != first_name(name) and " " in person:
                counts[person] += 1
    return counts


def _talk_between(statement: str, name: str, other: str) -> bool:
    heard = knowledge.said(statement)
    if heard is None:
        return False
    pair = {first_name(heard.speaker), first_name(heard.listener)}
    return pair == {first_name(name), first_name(other)}


def _seen_doing(statement: str, who: str) -> str | None:
    """What an observation says `who` is doing, in the progressive, if it is about them."""
    match = OBSERVED.match(statement.strip())
    if match is None or not mentions(match["who"], who) or '"' in statement:
        return None
    doing = progressive(match["doing"])
    return None if doing.startswith("busy with") and ":" in doing else doing


def _seen_doing_apart(statement: str, who: str, observer: str) -> str | None:
    """What `who` is seen doing, unless it is with the observer ("talking with Martin", in
    Martin's memory, is their own conversation, not something Martin sees `who` do)."""
    doing = _seen_doing(statement, who)
    return None if doing is None or _seen_with(statement, who, observer) else doing


def _seen_with(statement: str, who: str, observer: str) -> bool:
    """Whether an observation shows `who` doing something with the observer ("Beatrix Lund is
    talking with Martin", in Martin's memory)."""
    doing = _seen_doing(statement, who)
    return doing is not None and mentions(doing, first_name(observer))


def _own_activities(statements: Sequence[str], name: str) -> list[tuple[str, int]]:
    return [
        (doing, index)
        for index, statement in enumerate(statements, start=1)
        if (doing := _seen_doing(statement, name)) is not None
    ]


def _cited(statements: Sequence[str], test: object) -> tuple[int, ...]:
    assert callable(test)
    return tuple(i for i, s in enumerate(statements, start=1) if test(s))


def _likely_subject(records: Sequence[str]) -> str:
    """The person most records are about (the reflecting agent, when no name is given)."""
    counts: Counter[str] = Counter()
    for record in records:
        match = OBSERVED.match(record.strip())
        if match is not None:
            counts[match["who"]] += 1
    if counts:
        return counts.most_common(1)[0][0]
    named = [p for record in records for p in people(record)]
    return Counter(named).most_common(1)[0][0] if named else "Someone"
