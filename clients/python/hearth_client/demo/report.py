"""The end-of-demo report, read back through the public API as any game or dashboard could:
each agent's day (the hour chunks it lived, whom it talked with and a line it said, a
reflection with what it cites) and the town (conversations, who heard the news, who is where).
`story.py` renders it as text.

Counting rules: a line is counted once, for its speaker (every line is also a memory of the
listener, so memories of kind `utterance` would count it twice); a conversation is counted
once, by id, though both sides list it.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from hearth_client.client import Hearth
from hearth_client.demo import NEWS, TOWN_START, News
from hearth_client.demo.drive import TownRun, area
from hearth_client.game_types import Conversation, Memory, PlanDay, PlanNode
from hearth_client.types import Agent

PAGE = 500


@dataclass(frozen=True)
class Chunk:
    """A stretch of the day as it was lived: an hour chunk, or a day item with none."""

    start: datetime
    end: datetime
    what: str
    where: str


@dataclass(frozen=True)
class Said:
    to: str
    text: str


@dataclass(frozen=True)
class Reflected:
    text: str
    cites: tuple[str, ...]


@dataclass(frozen=True)
class AgentStory:
    name: str
    chunks: tuple[Chunk, ...]
    partners: tuple[str, ...]
    conversations: int
    lines_said: int
    said: Said | None
    reflection: Reflected | None
    doing: str
    where: str
    memories: int
    reflections: int
    day_items: int
    tasks: int
    model_calls: int


@dataclass(frozen=True)
class Spread:
    news: News
    knew: tuple[str, ...]
    """knew it from the start (a seed memory says so)"""
    heard: tuple[str, ...]
    """learned it during the run (a later memory mentions it)"""


@dataclass(frozen=True)
class TownStory:
    start: datetime
    now: datetime
    agents: tuple[AgentStory, ...]
    conversations: int
    lines: int
    news: tuple[Spread, ...]


@dataclass(frozen=True)
class _Read:
    agent: Agent
    memories: list[Memory]
    days: list[PlanDay]
    talks: list[Conversation]


def town_story(client: Hearth, run: TownRun) -> TownStory:
    """Everything the report shows, read through the API."""
    start = datetime.fromisoformat(TOWN_START)
    now = datetime.fromisoformat(client.get_world(run.world_id)["clock"]["now"])
    reads = [_read(client, run.world_id, agent, start, now) for agent in run.agents]
    calls = {row["agent"]: int(row["calls"]) for row in client.usage(run.world_id)["by_agent"]}
    stories = tuple(_story(client, run.world_id, r, start, now, calls) for r in reads)
    talks = {talk["id"]: talk for r in reads for talk in r.talks}
    return TownStory(
        start=start,
        now=now,
        agents=stories,
        conversations=len(talks),
        lines=sum(len(talk["lines"]) for talk in talks.values()),
        news=tuple(_spread(news, reads) for news in NEWS),
    )


def _read(client: Hearth, world_id: str, agent: Agent, start: datetime, now: datetime) -> _Read:
    days = [start.date() + timedelta(days=n) for n in range((now.date() - start.date()).days + 1)]
    return _Read(
        agent=agent,
        memories=list(client.list_memories(world_id, agent["id"], page_size=PAGE)),
        days=[client.plans(world_id, agent["id"], day=d.isoformat()) for d in days],
        talks=list(client.list_conversations(world_id, agent["id"], page_size=PAGE)),
    )


def _story(
    client: Hearth,
    world_id: str,
    read: _Read,
    start: datetime,
    now: datetime,
    calls: dict[str, int],
) -> AgentStory:
    name, kinds = read.agent["name"], Counter(m["kind"] for m in read.memories)
    levels: Counter[str] = Counter()
    for day in read.days:
        _count_levels(day["items"], levels)
    current = read.days[-1]["current_action"]
    mine = [line for talk in read.talks for line in talk["lines"] if line["speaker"] == name]
    return AgentStory(
        name=name,
        chunks=tuple(lived(read.days, start=start, now=now)),
        partners=tuple(dict.fromkeys(_other(talk, name) for talk in reversed(read.talks))),
        conversations=len(read.talks),
        lines_said=len(mine),
        said=_line_to_quote(read.talks, name),
        reflection=_reflection(client, world_id, read),
        doing=f"{current['emoji'] or ''} {current['description']}".strip() if current else "",
        where=area(current["location"] if current else None) or area(read.agent["place"]),
        memories=sum(kinds.values()),
        reflections=kinds["reflection"],
        day_items=levels["day"],
        tasks=levels["task"],
        model_calls=calls.get(name, 0),
    )


def _count_levels(nodes: list[PlanNode], counts: Counter[str]) -> None:
    for node in nodes:
        if node["status"] != "superseded":
            counts[node["level"]] += 1
        _count_levels(node["children"], counts)


def lived(days: list[PlanDay], *, start: datetime, now: datetime) -> list[Chunk]:
    """The live hour chunks (or a day item without any) that overlap [start, now], in order."""
    chunks: list[Chunk] = []
    for day in days:
        for item in day["items"]:
            if item["status"] == "superseded":
                continue
            hours = [h for h in item["children"] if h["status"] != "superseded"]
            chunks.extend(_chunk(node) for node in hours or [item])
    chunks.sort(key=lambda c: c.start)
    return [c for c in chunks if c.end > start and c.start <= now]


def _chunk(node: PlanNode) -> Chunk:
    begin = datetime.fromisoformat(node["start"])
    end = begin + timedelta(minutes=node["duration_min"])
    return Chunk(begin, end, node["description"], area(node["location"]))


def _other(talk: Conversation, name: str) -> str:
    return talk["partner"] if talk["initiator"] == name else talk["initiator"]


def _line_to_quote(talks: list[Conversation], name: str) -> Said | None:
    """One line the agent said: the first that carries news, else its first line of the day."""
    said = [
        Said(_other(talk, name), line["text"])
        for talk in reversed(talks)
        for line in talk["lines"]
        if line["speaker"] == name
    ]
    for news in NEWS:
        for line in said:
            if re.search(news.pattern, line.text, re.I):
                return line
    return said[0] if said else None


def _reflection(client: Hearth, world_id: str, read: _Read) -> Reflected | None:
    """The agent's newest reflection and the memories it cites."""
    newest = next((m for m in read.memories if m["kind"] == "reflection"), None)
    if newest is None:
        return None
    detail = client.get_memory(world_id, read.agent["id"], newest["id"])
    return Reflected(newest["description"], tuple(e["description"] for e in detail["evidence"]))


def _spread(news: News, reads: list[_Read]) -> Spread:
    knew: list[str] = []
    heard: list[str] = []
    for read in reads:
        found = [m for m in read.memories if re.search(news.pattern, m["description"], re.I)]
        if any(m["kind"] == "seed" for m in found):
            knew.append(read.agent["name"])
        elif found:
            heard.append(read.agent["name"])
    return Spread(news, tuple(knew), tuple(heard))


def game_day(when: date) -> str:
    return f"{when:%A} {when.day} {when:%B %Y}"
