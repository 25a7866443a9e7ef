"""The demo report of a real run (the session's short town, tests/town_run.py), read through
the API, checked against the same run read as the analyst (SQL over the views): every line is
counted once, "talking" counts agents in a conversation at that game time, and the story tells
what the plans say was lived."""

from __future__ import annotations

from collections import Counter
from datetime import datetime

import pytest
from hearth_client.demo import load_town
from hearth_client.demo.story import WIDTH, columns

from tests.town_run import ShortTown

pytestmark = pytest.mark.timeout(600)  # the first test here may set up the short town


def test_the_report_tells_each_agents_day_then_the_town(short_town: ShortTown) -> None:
    report = short_town.report
    assert max(columns(line) for line in report.splitlines()) <= WIDTH
    assert report.startswith("6 people of Larkspur, Monday 13 February 2023, 07:00–08:45")
    pack = [p["name"] for p in load_town(agents=6)["personas"]]
    assert [a.name for a in short_town.story.agents] == pack  # told in the town's order
    for agent in short_town.run.agents:
        assert f"\n{agent['name']}\n{'-' * len(agent['name'])}\n" in report
    assert "\nThe town\n" in report and "\nIn numbers\n" in report
    assert "knew it at the start: Junie Halvorsen" in report  # she plans the party
    talkers = [a for a in short_town.story.agents if a.partners]
    assert talkers, "the short town talks"
    for agent in talkers:
        assert agent.said is not None and agent.said.to in agent.partners
        assert f"  to {agent.said.to.split()[0]}: “" in report


def test_each_line_is_counted_once_for_its_speaker(short_town: ShortTown) -> None:
    lines, story = short_town.audit.rows.lines, short_town.story
    assert story.lines == len(lines) > 0
    assert story.conversations == len({line.conversation_id for line in lines})
    said = Counter(line.speaker for line in lines)
    for agent in story.agents:
        assert agent.lines_said == said[agent.name], agent.name
    heard_as_memories = sum(1 for m in short_town.audit.rows.memories if m.kind == "utterance")
    assert heard_as_memories == 2 * len(lines)  # what the old report counted
    rows = short_town.report.split("In numbers\n")[1].splitlines()[2:]
    said_column = [int(row.split()[6]) for row in rows]  # after a two-word name and 4 counts
    assert sum(said_column) == len(lines)


def test_talking_counts_agents_in_a_conversation_at_that_game_time(short_town: ShortTown) -> None:
    lines = short_town.audit.rows.lines
    first_line: dict[str, datetime] = {}
    for line in lines:
        for agent in (line.speaker, line.listener):
            first_line[agent] = min(first_line.get(agent, line.spoken_at), line.spoken_at)
    names = {a["id"]: a["name"] for a in short_town.run.agents}
    for seen in short_town.run.snapshots:
        now = datetime.fromisoformat(seen.now)
        talking = {names[i] for i in seen.talking}
        speaking_now = {
            a for line in lines if line.spoken_at == now for a in (line.speaker, line.listener)
        }
        assert speaking_now <= talking, seen.now
        assert all(first_line.get(a, now) <= now for a in talking), seen.now
        assert all(first_line.get(a) is not None for a in talking), seen.now
    assert any(seen.talking for seen in short_town.run.snapshots)


def test_the_hour_chunks_told_are_live_plans_in_the_run(short_town: ShortTown) -> None:
    plans = short_town.audit.rows.plans
    live = {
        (p.agent, p.start, p.description)
        for p in plans
        if p.status != "superseded" and p.level in ("day", "hour")
    }
    story = short_town.story
    for agent in story.agents:
        assert agent.chunks, agent.name
        starts = [c.start for c in agent.chunks]
        assert starts == sorted(starts)
        for chunk in agent.chunks:
            assert (agent.name, chunk.start, chunk.what) in live
            assert chunk.end > story.start and chunk.start <= story.now
