"""The report as text for a terminal of WIDTH columns: each agent's day as a short story, then
the town, then the table of counts. Pure functions of `report.TownStory`."""

from __future__ import annotations

import textwrap
import unicodedata
from collections.abc import Iterable, Sequence
from datetime import datetime

from hearth_client.demo.report import AgentStory, Chunk, Spread, TownStory, game_day

WIDTH = 100
QUOTE_LINES = 3
"""A quoted line or reflection is cut after this many lines of the terminal."""
INDENT = "  "


def render(story: TownStory) -> str:
    parts = [_title(story)]
    parts += [agent_section(agent) for agent in story.agents]
    parts += [town_section(story), counts_table(story.agents)]
    return "\n\n".join(parts)


def _title(story: TownStory) -> str:
    span = f"{story.start:%H:%M}–{story.now:%H:%M}"
    title = f"{len(story.agents)} people of Larkspur, {game_day(story.start.date())}, {span}"
    return f"{title}\n{'=' * min(WIDTH, len(title))}"


def agent_section(agent: AgentStory) -> str:
    lines = [agent.name, "-" * len(agent.name)]
    lines += [chunk_line(chunk) for chunk in agent.chunks] or [f"{INDENT}(no plan yet)"]
    lines += _talk(agent)
    if agent.reflection is not None:
        cited = agent.reflection.cites
        lines += quoted(f"{INDENT}reflected: ", agent.reflection.text)
        if cited:
            lead = "citing: " if len(cited) == 1 else f"citing {len(cited)} memories, e.g. "
            lines += quoted(f"{INDENT}  {lead}", cited[0], max_lines=1)
    if agent.doing:
        where = f"  ({agent.where})" if agent.where else ""
        lines.append(f"{INDENT}now: {cut(agent.doing, WIDTH - columns(where) - 7)}{where}")
    return "\n".join(lines)


def chunk_line(chunk: Chunk) -> str:
    when = f"{INDENT}{_clock(chunk.start)}–{_clock(chunk.end)}  "
    where = f"  ({chunk.where})" if chunk.where else ""
    room = WIDTH - len(when) - len(where)
    return f"{when}{cut(chunk.what, room)}{where}"


def _clock(moment: datetime) -> str:
    return f"{moment:%H:%M}"


def _talk(agent: AgentStory) -> list[str]:
    if not agent.partners:
        return [f"{INDENT}talked with nobody"]
    said = f"{agent.lines_said} line{'s' if agent.lines_said != 1 else ''} said"
    times = f"{agent.conversations} conversation{'s' if agent.conversations != 1 else ''}"
    lines = wrapped(f"talked with {_names(agent.partners)} ({times}, {said})", INDENT)
    if agent.said is not None:
        lines += quoted(f"{INDENT}to {agent.said.to.split()[0]}: ", agent.said.text)
    return lines


def quoted(lead: str, text: str, *, max_lines: int = QUOTE_LINES) -> list[str]:
    """`lead` then the text in quotes, wrapped under itself and cut after `max_lines`."""
    body = textwrap.wrap(
        f"“{text}”", WIDTH, initial_indent=lead, subsequent_indent=" " * len(lead)
    ) or [lead]
    if len(body) > max_lines:
        body = body[:max_lines]
        body[-1] = cut(body[-1], WIDTH - 1) + "…"
    return body


def town_section(story: TownStory) -> str:
    people = {a.name for a in story.agents}
    talkers = {a.name for a in story.agents if a.partners}
    lines = ["The town", "--------"]
    lines += wrapped(
        f"{story.conversations} conversations, {story.lines} lines; "
        f"{len(talkers)} of {len(people)} people talked with someone",
        INDENT,
    )
    for spread in story.news:
        lines += _news(spread)
    lines.append(f"{INDENT}where everyone is at {story.now:%H:%M}:")
    lines += whereabouts(story.agents)
    return "\n".join(lines)


def _news(spread: Spread) -> list[str]:
    lines = wrapped(f"{spread.news.name} — {spread.news.about}:", INDENT)
    knew = _names(spread.knew) if spread.knew else "nobody"
    heard = f"{_names(spread.heard)} ({len(spread.heard)})" if spread.heard else "nobody yet"
    lines += wrapped(f"knew it at the start: {knew}", INDENT * 2)
    lines += wrapped(f"heard it during the day: {heard}", INDENT * 2)
    return lines


def whereabouts(agents: Sequence[AgentStory]) -> list[str]:
    by_area: dict[str, list[str]] = {}
    for agent in agents:
        by_area.setdefault(agent.where or "somewhere unknown", []).append(agent.name)
    width = max(len(name) for name in by_area) + 2
    lines: list[str] = []
    for name in sorted(by_area):
        lead = f"{INDENT * 2}{name.ljust(width)}"
        lines += textwrap.wrap(
            ", ".join(by_area[name]), WIDTH, initial_indent=lead, subsequent_indent=" " * len(lead)
        )
    return lines


COLUMNS = ("agent", "memories", "reflections", "day plan", "tasks", "said", "model calls")


def counts_table(agents: Sequence[AgentStory]) -> str:
    """The compact summary: one row per agent; `said` counts lines the agent spoke."""
    rows = [
        (
            a.name,
            str(a.memories),
            str(a.reflections),
            str(a.day_items),
            str(a.tasks),
            str(a.lines_said),
            str(a.model_calls),
        )
        for a in agents
    ]
    widths = [max(len(c), *(len(row[i]) for row in rows)) for i, c in enumerate(COLUMNS)]
    head = "  ".join(c.ljust(w) for c, w in zip(COLUMNS, widths, strict=True))
    body = ["  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)) for row in rows]
    room = WIDTH - len(head) - 2
    doing = [cut(a.doing, room) for a in agents]
    head += "  doing now"
    body = [f"{row}  {now}".rstrip() for row, now in zip(body, doing, strict=True)]
    return "\n".join(["In numbers", cut("-" * len(head)), cut(head), *body])


def wrapped(text: str, indent: str) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent + "  ")


def _names(names: Iterable[str]) -> str:
    listed = list(names)
    return listed[0] if len(listed) == 1 else f"{', '.join(listed[:-1])} and {listed[-1]}"


def cut(text: str, width: int = WIDTH) -> str:
    """At most `width` terminal columns, with an ellipsis when something was left out."""
    if columns(text) <= width:
        return text
    kept, used = [], 0
    for index, char in enumerate(text):
        used += _char_columns(text, index)
        if used > width - 1:
            break
        kept.append(char)
    return "".join(kept).rstrip() + "…"


def columns(text: str) -> int:
    """Terminal columns: wide characters and emoji take two, joiners and selectors none."""
    return sum(_char_columns(text, i) for i in range(len(text)))


def _char_columns(text: str, index: int) -> int:
    char = text[index]
    if char in ZERO_WIDTH or unicodedata.combining(char):
        return 0
    emoji = index + 1 < len(text) and text[index + 1] == EMOJI_PRESENTATION
    return 2 if emoji or unicodedata.east_asian_width(char) in "WF" else 1


EMOJI_PRESENTATION = "\ufe0f"
ZERO_WIDTH = {EMOJI_PRESENTATION, "\u200d", "\u200b"}
