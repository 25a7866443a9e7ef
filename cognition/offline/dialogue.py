"""Conversation without a model: grounded, intent-driven lines and interview answers.

A line is assembled from parts, each with one job:

- opening turn: a greeting in the speaker's register, then a retrieved memory ("I was just
  thinking about how I am planning a Valentine's party."), then the intent;
- later turns: a reply to the listener's last line (a question about an invitation is answered
  with the event, a refusal is taken gracefully), another memory not yet mentioned, then the
  intent if not yet raised;
- the conversation ends (`ends=True`) with a closing line when the listener said goodbye, when
  the listener accepted an invitation, or when the history reaches LONG_CONVERSATION turns.

The intent is turned into words by pattern: "invite X to <event>" → "Would you like to come to
<event>?", "ask X about <topic>" → "Can I ask you about <topic>?", "tell X about <topic>" → "I
wanted to tell you about <topic>.", "apologise for <topic>" → "I'm sorry about <topic>.";
"chat"/"catch up"/"greet" → "How have you been?"; anything else is raised as "There's something
I wanted to bring up: <intent>."

Interview answers retell, in the first person, the memories sharing the most words with the
question (up to MAX_CITED), citing their 1-based indices; with none, the agent says so.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cognition.offline.text import (
    as_clause,
    as_sentence,
    first_name,
    lower_first,
    mentions,
    proper_nouns,
    stems,
)
from cognition.offline.voice import first_person, greeting, styled
from cognition.types import Answer, Persona, Utterance

LONG_CONVERSATION = 6
"""Turns after which the speaker wraps up, as people do when a chat has run its course."""
MAX_CITED = 3
"""An answer retells at most this many memories; more reads as a list, not a reply."""

GOODBYE = re.compile(r"\b(bye|goodbye|see you|take care|gotta go|have to go|talk later)\b", re.I)
ACCEPT = re.compile(
    r"\b(yes|sure|of course|love to|sounds (great|good|fun|lovely)|count me in|"
    r"i'll be there|absolutely|definitely)\b",
    re.I,
)
DECLINE = re.compile(r"\b(no|can't|cannot|won't|busy|not sure i can)\b", re.I)

INTENT_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\binvite\b.*?\bto (?P<x>.+)", re.I), "Would you like to come to {x}?"),
    (re.compile(r"\bask\b(?: \w+)? (?:about|for) (?P<x>.+)", re.I), "Can I ask you about {x}?"),
    (re.compile(r"\bask\b(?: \w+)? (?:whether|if) (?P<x>.+)", re.I), "I was wondering if {x}."),
    (
        re.compile(r"\b(?:tell|share with)\b(?: \w+)? about (?P<x>.+)", re.I),
        "I wanted to tell you about {x}.",
    ),
    (
        re.compile(r"\bapologi[sz]e\b(?: to \w+)? (?:for|about) (?P<x>.+)", re.I),
        "I'm sorry about {x}.",
    ),
    (
        re.compile(
            r"\b(?:discuss|talk(?: to \w+)? about|chat(?: with \w+)? about) (?P<x>.+)", re.I
        ),
        "I wanted to talk with you about {x}.",
    ),
    (re.compile(r"\b(?:chat|catch up|say hello|say hi|greet)\b", re.I), "How have you been?"),
)
"""First match wins; {x} is the rest of the intent with the listener's pronouns made "your"."""


def next_utterance(
    *,
    speaker: Persona,
    listener: str,
    intent: str,
    memories: Sequence[str],
    history: Sequence[tuple[str, str]],
) -> Utterance:
    """The speaker's next line by the rules of the module docstring."""
    mine = [text for who, text in history if _is(who, speaker.name)]
    theirs = history[-1][1] if history and not _is(history[-1][0], speaker.name) else ""
    invited = bool(intent) and INTENT_PATTERNS[0][0].search(intent) is not None
    if GOODBYE.search(theirs) or len(history) >= LONG_CONVERSATION:
        return Utterance(styled(_closing(listener, intent, invited), speaker.speaking_style), True)
    if invited and mine and ACCEPT.search(theirs) and not DECLINE.search(theirs):
        line = f"Wonderful, I'm so glad! {_closing(listener, intent, invited)}"
        return Utterance(styled(line, speaker.speaking_style), True)
    memory = _memory(memories, query=f"{intent} {theirs} {listener}", said=mine, speaker=speaker)
    opening = [greeting(listener, speaker.speaking_style)]
    parts = opening if not mine else [_reply(theirs, intent, listener, invited)]
    if memory:
        retold = lower_first(first_person(memory, speaker=speaker.name, listener=listener))
        lead = "I was just thinking about how" if not mine else "By the way, I remember that"
        parts.append(f"{lead} {as_clause(retold)}.")
    if intent and not _raised(intent, mine):
        parts.append(intent_line(intent, listener))
    return Utterance(styled(" ".join(p for p in parts if p), speaker.speaking_style), False)


def intent_line(intent: str, listener: str) -> str:
    """The intent said aloud to the listener (see INTENT_PATTERNS)."""
    for pattern, template in INTENT_PATTERNS:
        match = pattern.search(intent)
        if match:
            topic = match.groupdict().get("x") or ""
            return template.format(x=_for_listener(as_clause(topic), listener))
    return f"There's something I wanted to bring up: {lower_first(as_clause(intent))}."


def _for_listener(text: str, listener: str) -> str:
    """The listener's name and pronouns become "you"/"your" when the line is said to them."""
    text = re.sub(rf"\b{re.escape(first_name(listener))}(?:'s|’s)", "your", text)
    if not proper_nouns(text):
        text = re.sub(r"\b(her|his|their)\b", "your", text)
    return text


def _reply(theirs: str, intent: str, listener: str, invited: bool) -> str:
    """A short response to what the listener just said; a question about an invitation is
    answered with the event itself (its time and place are what people ask about)."""
    if not theirs:
        return ""
    if DECLINE.search(theirs):
        return "No worries, I understand."
    if theirs.rstrip().endswith("?"):
        event = INTENT_PATTERNS[0][0].search(intent) if invited else None
        if event:
            return f"It's {_for_listener(as_clause(event['x']), listener)}."
        return "Good question."
    return "That's good to hear."


def _closing(listener: str, intent: str, invited: bool) -> str:
    if invited:
        event = INTENT_PATTERNS[0][0].search(intent)
        where = _for_listener(as_clause(event["x"]), listener) if event else "the event"
        return f"See you at {where}. Bye for now!"
    return f"It was good talking to you, {first_name(listener)}. Take care!"


def _memory(
    memories: Sequence[str], *, query: str, said: Sequence[str], speaker: Persona
) -> str | None:
    """The retrieved memory sharing most words with the query, not already brought up."""
    wanted = stems(query)
    spoken = stems(" ".join(said))
    fresh = [
        m
        for m in memories
        if m.strip() and not stems(first_person(m, speaker=speaker.name)) <= spoken
    ]
    if not fresh:
        return None
    return max(fresh, key=lambda m: (len(stems(m) & wanted), -fresh.index(m)))


def _raised(intent: str, said: Sequence[str]) -> bool:
    """Whether the speaker's earlier lines already carried most of the intent's words."""
    words = stems(intent)
    spoken = stems(" ".join(said))
    return bool(words) and len(words & spoken) * 2 >= len(words)


def _is(who: str, name: str) -> bool:
    return who == name or who == first_name(name) or (mentions(who, name) and len(who) > 1)


def answer(
    *, question: str, persona: Persona, summary: str, asker: str, memories: Sequence[str]
) -> Answer:
    """An in-character answer from the memories most related to the question."""
    wanted = stems(question)
    scored = sorted(
        ((len(wanted & stems(m)), i) for i, m in enumerate(memories, start=1) if m.strip()),
        key=lambda si: (-si[0], si[1]),
    )
    cited = tuple(sorted(i for score, i in scored[:MAX_CITED] if score > 0))
    style = persona.speaking_style
    if not cited:
        return Answer(styled(_unknown(question, persona, summary, asker), style), ())
    retold = [
        as_sentence(first_person(memories[i - 1], speaker=persona.name, listener=asker))
        for i in cited
    ]
    return Answer(styled(" ".join(["Well,", lower_first(retold[0]), *retold[1:]]), style), cited)


def _unknown(question: str, persona: Persona, summary: str, asker: str) -> str:
    """Nothing remembered: about oneself, answer from the summary; otherwise admit it."""
    if re.search(r"\b(you|yourself|your)\b", question, re.I) and summary.strip():
        about = [line for line in summary.splitlines()[2:] if line.strip()]
        if about:
            return f"I'm {first_name(persona.name)}. " + " ".join(
                as_sentence(first_person(line, speaker=persona.name)) for line in about[:2]
            )
    return f"I'm not sure, {first_name(asker)}. Nothing comes to mind about that."
