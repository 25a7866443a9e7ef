"""Two-agent conversation, turn by turn, and what each side makes of the other afterwards.

Each turn the speaker retrieves its own memories for the line it answers (the opening turn
retrieves for its intent), news it could tell, and on its first line what the two said to each
other before (so news is not told twice); the Mind says the next line, conditioned on the
speaker's summary, relationship with the listener, intent, those memories and the history.
`turn` is one such step, so a worker can run each turn as its own job; `converse` is a loop
over `turn` that stops when a side ends the conversation or at the cap (DEFAULT_MAX_TURNS).

Coherence rule: the intent that conditions speech is the very string that drives the plan —
the reaction's `what` when the agent reacted (the reaction's plan item has that description),
otherwise the description of the plan item under way. `speaking_intent` is the one place that
picks it, so an agent never plans one thing and talks about another.

After a conversation, `reflect_on_relationship` updates how one side sees the other from what
it now remembers of them (summary and sentiment 0–10).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from cognition.clamps import clamp_sentiment
from cognition.errors import InvalidInput
from cognition.mind import Mind
from cognition.offline import knowledge
from cognition.reacting import (
    DEFAULT_EXCHANGED_K,
    NEWS_QUERY,
    exchanged_query,
    relationship_question,
)
from cognition.reflection import reflection_memory
from cognition.requests import ConversationNotes, NextUtterance, SummarizeRelationship
from cognition.store import MemoryStore
from cognition.types import (
    Conversation,
    ConversationEnd,
    Decision,
    Memory,
    MemoryKind,
    MemorySource,
    NewMemory,
    Persona,
    PlanItem,
    RelationshipUpdate,
    ScoredMemory,
    Turn,
)

DEFAULT_MAX_TURNS = 8
"""The cap on a conversation's lines: long enough to invite and answer, short enough that an
agent soon returns to its plan (and the fast queue to other work)."""
DEFAULT_TURN_K = 10
"""Memories retrieved per turn: enough to ground a line, few enough for a fast prompt."""
DEFAULT_RELATIONSHIP_K = 30
"""Memories weighed when an agent reconsiders someone: a slow job, so the fuller picture."""


DEFAULT_LINE_SECONDS = 60
"""Game time one line takes to say: a conversation of six lines lasts six game minutes, so it
spans the steps of a game that steps every minute or less, and each line is heard in turn."""
DEFAULT_NEWS_K = 5
"""Memories retrieved per turn for what the speaker might bring up (news, plans): the second
retrieval of a turn (`NEWS_QUERY`)."""


@dataclass(frozen=True)
class Speaker:
    """One side of a conversation: who they are, their memory, how they see the other, why."""

    persona: Persona
    summary: str
    store: MemoryStore
    relationship: str
    intent: str
    place: str = ""
    """Where the conversation happens."""
    listener_status: str = ""
    """What the other side is doing (its current action)."""
    doing: str = ""
    """What this side was doing when the conversation began."""
    known_by_world: bool = False
    """The world's records say the two know each other (`NextUtterance.known_by_world`)."""
    on_mind: tuple[str, ...] = ()
    """Memories whose stored news puts a gathering on today or tomorrow, or tells news heard
    in the last day, looked up by their fields: what one holds or goes to soon, or was told
    this morning, is on one's mind however the day's chatter ranks (a host's own sheepdog
    trial, seeded at dawn, was outranked by talk of a concert and never mentioned)."""
    exchanged: tuple[str, ...] = ()
    """The lines of news the two already told each other, looked up by their fields: told
    once is enough, whatever retrieval brings."""


UTTERANCE_PREDICATE = "said"


def said_memory(
    speaker: str, listener: str, text: str, *, at: datetime, source: MemorySource
) -> NewMemory:
    """A line as the memory of having said or heard it: `<speaker> said to <listener>: "…"`
    (the form `exchanged_query` retrieves), for agents and players alike, with its fields
    (speaker, listener, quote, and the news in the words) stored beside it."""
    return NewMemory(
        description=f'{speaker} said to {listener}: "{text}"',
        kind=MemoryKind.UTTERANCE,
        created_at=at,
        subject=speaker,
        predicate=UTTERANCE_PREDICATE,
        object=text,
        source=source,
        detail=knowledge.line_detail(speaker, listener, text, now=at),
    )


def line_due(started: datetime, seq: int, *, line: timedelta) -> datetime:
    """When line `seq` (from 1) of a conversation begun at `started` is said."""
    return started + (seq - 1) * line


def speaking_intent(*, current: PlanItem | None, decision: Decision | None = None) -> str:
    """The intent that conditions speech: the reaction's `what`, else the current plan item's
    description — the same string that drives the plan (the coherence rule above)."""
    if decision is not None and decision.react and decision.what.strip():
        return decision.what
    return current.description if current is not None else ""


def turn(
    *,
    speaker: Speaker,
    listener: str,
    mind: Mind,
    history: Sequence[Turn],
    now: datetime,
    k: int = DEFAULT_TURN_K,
) -> Turn:
    """The speaker's next line, grounded in memories retrieved for the line it answers.

    A blank line from the Mind ends the conversation: a speaker with nothing to say is done.
    """
    retrieved = speaker.store.retrieve(_query(speaker, listener, history), k=k, now=now)
    news = speaker.store.retrieve(
        NEWS_QUERY.format(name=speaker.persona.name), k=DEFAULT_NEWS_K, now=now
    )
    if not any(line.speaker == speaker.persona.name for line in history):
        news += speaker.store.retrieve(  # its first line: what the two said before
            exchanged_query(speaker.persona.name, listener), k=DEFAULT_EXCHANGED_K, now=now
        )
    seen = {scored.memory.id for scored in retrieved}
    retrieved = [
        *retrieved,
        *(s for s in dict((s.memory.id, s) for s in news).values() if s.memory.id not in seen),
    ]
    said = mind.think(
        NextUtterance(
            speaker=speaker.persona,
            listener=listener,
            summary=speaker.summary,
            relationship=speaker.relationship,
            intent=speaker.intent,
            memories=[
                *_descriptions(retrieved),
                *_unrecalled((*speaker.on_mind, *speaker.exchanged), retrieved),
            ],
            history=[(line.speaker, line.text) for line in history],
            now=now,
            place=speaker.place,
            listener_status=speaker.listener_status,
            speaker_status=speaker.doing,
            known_by_world=speaker.known_by_world,
        )
    )
    text = said.text.strip()
    return Turn(
        speaker=speaker.persona.name,
        text=text,
        spoken_at=now,
        ends=said.ends or not text,
        memory_ids=tuple(scored.memory.id for scored in retrieved),
    )


def converse(
    *,
    a: Speaker,
    b: Speaker,
    mind: Mind,
    now: datetime,
    opening_intent: str | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
) -> Conversation:
    """`a` opens with `opening_intent` (default: `a.intent`), then the sides alternate.

    The opening intent is the conversation's topic, ready for the conversation's record.
    """
    if max_turns < 1:
        raise InvalidInput(f"max_turns must be >= 1, got {max_turns}", field="max_turns")
    opener = a if opening_intent is None else replace(a, intent=opening_intent)
    sides = (opener, b)
    turns: list[Turn] = []
    while len(turns) < max_turns:
        speaker, listener = sides[len(turns) % 2], sides[(len(turns) + 1) % 2]
        line = turn(
            speaker=speaker, listener=listener.persona.name, mind=mind, history=turns, now=now
        )
        if line.text:
            turns.append(line)
        if line.ends:
            return Conversation(opener.intent, tuple(turns), ConversationEnd.SPEAKER)
    return Conversation(opener.intent, tuple(turns), ConversationEnd.CAP)


def reflect_on_relationship(
    store: MemoryStore,
    mind: Mind,
    *,
    name: str,
    other: str,
    now: datetime,
    k: int = DEFAULT_RELATIONSHIP_K,
) -> RelationshipUpdate:
    """How `name` now sees `other`, from the memories retrieved about them.

    The sentiment is held to 0–10 here too: it goes straight into a checked column.
    """
    retrieved = store.retrieve(relationship_question(name, other), k=k, now=now)
    update = mind.think(
        SummarizeRelationship(name=name, other=other, statements=_descriptions(retrieved))
    )
    return replace(update, sentiment=clamp_sentiment(update.sentiment))


@dataclass(frozen=True)
class TakenAway:
    """What one side keeps of a conversation: its notes as memories, and a gathering agreed
    for later today (`Notes.appointment`) for the caller to put in today's plan."""

    memories: list[NewMemory]
    appointment: PlanItem | None = None


def conversation_notes(
    mind: Mind,
    *,
    name: str,
    other: str,
    lines: Sequence[Turn],
    heard: Sequence[Memory],
    now: datetime,
) -> TakenAway:
    """What `name` keeps from a finished conversation, as memories of its own (the reference
    code's planning thought and memo): a planning note ("For <name>'s planning: …", a plan
    memory that the next day's planning retrieves) and a memo citing the lines it heard (a
    reflection whose evidence is `heard`, the conversation's utterance memories of `name`)."""
    notes = mind.think(
        ConversationNotes(
            name=name, other=other, lines=[(t.speaker, t.text) for t in lines], now=now
        )
    )
    kept: list[NewMemory] = []
    if notes.planning.strip():
        kept.append(
            NewMemory(
                description=notes.planning.strip(),
                kind=MemoryKind.PLAN,
                created_at=now,
                subject=name,
                source=MemorySource.AGENT,
            )
        )
    if notes.memo.strip() and heard:
        cited = _carrying(notes.memo, heard, now=now)
        kept.append(reflection_memory(notes.memo, cited, subject_name=name, now=now))
    later = notes.appointment if notes.appointment and notes.appointment.start > now else None
    return TakenAway(kept, later)


def _carrying(memo: str, heard: Sequence[Memory], *, now: datetime) -> list[Memory]:
    """The heard lines whose news is the memo's (by their stored fields), so "Nessa heard
    from Tom that the sea wall has cracked" cites Tom's line, not "Take care, Nessa!"; all
    of them when the memo's news is in none (a model's memo may say anything)."""
    told = {fact.key for fact in knowledge.news_in(memo, now=now)}
    carrying = [m for m in heard if told & {f.key for f in knowledge.news_in(m.recalled())}]
    return carrying or list(heard)


def _query(speaker: Speaker, listener: str, history: Sequence[Turn]) -> str:
    """What the speaker recalls for: the last line said; opening, its intent (else the listener)."""
    if history:
        return history[-1].text
    return speaker.intent.strip() or listener


def _unrecalled(on_mind: Sequence[str], retrieved: Sequence[ScoredMemory]) -> list[str]:
    """The memories on one's mind that retrieval did not already bring, each once."""
    recalled = {scored.memory.description for scored in retrieved}
    return [m for m in dict.fromkeys(on_mind) if m not in recalled]


def _descriptions(retrieved: Sequence[ScoredMemory]) -> list[str]:
    return [scored.memory.recalled() for scored in retrieved]
