"""`python -m bench.emergence --scenario FILE`: any town and any news (`bench.scenario`), driven
like the demo, with every piece of news measured on its own.

For each news item: who knew it at the start and at the end by interview (the scenario's own
question, judged yes or no as in the demo's evaluation), how many of those yeses rest on the
news as it reached the agent from its originator (`emergence_trace.grounded`), the
transmission tree and its depth in hops, and — for news with a time and a place — who was
invited (heard a line mentioning it before it ended) and who of them the game put there while
it happened. With a language model configured, each hearing in the tree says whether the line
that carried the news was one the model wrote or one the offline mind stood in for. The targets
of the issue on any town are printed as met or not:

    news with an event   known (traced) by at least half the town, over at least two hops,
                         and at least half of those invited attend
    news without a time  known (traced) by at least 40 % of the town
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from hearth_client.demo.drive import drive, quiesce

from bench.audit import TownUnderAudit, personas_of, progress, request_timeout, town_on_stack
from bench.audit_data import read_rows as read_audit_rows
from bench.audit_talk import TalkAudit, audit_talk
from bench.audit_talk import report as talk_report
from bench.emergence_data import model_lines, read_rows, wait_for_talk, wait_until_embedded
from bench.emergence_interviews import Judge, Judged, Question, interview, judged
from bench.emergence_measures import Attendance, Diffusion, attendance, diffusion
from bench.emergence_trace import Knowledge, MemoryRow, trace, transmissions
from bench.scenario import NewsItem, Scenario, seed
from cognition.offline.knowledge import said

EVENT_KNOWN = 0.5
EVENT_HOPS = 2
EVENT_ATTENDED = 0.5
PLAIN_KNOWN = 0.4


@dataclass(frozen=True)
class NewsResult:
    item: NewsItem
    start: Diffusion
    end: Diffusion
    knowledge: Knowledge
    attendance: Attendance | None
    model_heard: frozenset[str] | None = None
    """Agents who first heard the news in a line a language model wrote; None without a model."""

    @property
    def traced(self) -> int:
        """Agents whose yes at the end rests on the news as it reached them."""
        return len(self.end.knew) - len(self.end.hallucinated)

    @property
    def hops(self) -> int:
        """The depth of the transmission tree: 1 when only the originator told anyone."""
        depth: dict[str, int] = {self.item.topic.originator: 0}

        def of(agent: str) -> int:
            if agent not in depth:
                step = self.knowledge.first.get(agent)
                depth[agent] = 0 if step is None else of(step.source) + 1
            return depth[agent]

        return max((of(agent) for agent in self.knowledge.since), default=0)

    def met(self, agents: int) -> dict[str, bool]:
        """Each target of the module docstring, by name."""
        if self.item.gathering is None:
            return {"known ≥ 40 %": self.traced >= PLAIN_KNOWN * agents}
        came = self.attendance
        invited = len(came.invited) if came else 0
        attended = len(came.attended) if came else 0
        return {
            "known ≥ 50 %": self.traced >= EVENT_KNOWN * agents,
            "hops ≥ 2": self.hops >= EVENT_HOPS,
            "attended ≥ 50 % of invited": invited > 0 and attended >= EVENT_ATTENDED * invited,
        }


@dataclass(frozen=True)
class ScenarioResult:
    scenario: Scenario
    world_id: str
    agents: tuple[str, ...]
    news: tuple[NewsResult, ...]
    talk: TalkAudit
    """What a player would notice in the same run's talk and plans (`bench.audit_talk`)."""
    wall_s: float


def questions(town: TownUnderAudit, item: NewsItem) -> list[Question]:
    topic = item.topic
    return [
        Question(a["id"], a["name"], topic.question, topic.subject, topic.cues)
        for a in town.run.agents
    ]


def talk_pace(town: TownUnderAudit) -> Callable[[], object] | None:
    """With a model, the clock waits for conversations (`emergence_data.wait_for_talk`), as
    a turn-based game would; the offline mind talks faster than any step."""
    if not town.settings.llm_configured:
        return None
    limit = request_timeout(town.settings)
    return lambda: wait_for_talk(town.database_url, town.run.world_id, timeout_s=limit)


def interview_news(
    town: TownUnderAudit, scenario: Scenario, judging: Sequence[Judge], *, label: str, quiet: bool
) -> list[list[Judged]]:
    asked = [questions(town, item) for item in scenario.news]
    flat = [q for group in asked for q in group]
    replies = judged(
        interview(town.client, town.run.world_id, flat, label=label, quiet=quiet), judging
    )
    out, at = [], 0
    for group in asked:
        out.append(replies[at : at + len(group)])
        at += len(group)
    return out


def evaluate_scenario(
    scenario: Scenario,
    judging: Sequence[Judge],
    *,
    step_minutes: int,
    hours: float | None = None,
    quiet: bool = False,
    keep: Path | None = None,
) -> ScenarioResult:
    """Run the scenario's town and measure each piece of news (module docstring)."""
    started = time.monotonic()
    config = scenario.config(step_minutes=step_minutes, hours=hours)
    judge = judging[-1].name
    with town_on_stack(config, keep=keep) as town:
        seed(town.client, town.run, scenario)
        world = town.run.world_id
        wait_until_embedded(town.database_url, world)
        first = interview_news(town, scenario, judging, label="start", quiet=quiet)
        pace = talk_pace(town)
        drive(town.client, town.run, config, progress(quiet), pace=pace)
        if not quiet:
            print(file=sys.stderr)
        if pace is not None:
            pace()  # the last step's conversations too
        quiesce(town.client, town.run)
        last = interview_news(town, scenario, judging, label="end", quiet=quiet)
        rows = read_rows(town.database_url, world)
        audited = read_audit_rows(town.database_url, town.client, town.run)
        names = {a["id"]: a["name"] for a in town.run.agents}
        snapshots = town.run.snapshots
        written = model_lines(town.database_url, world) if rows.model_calls else None
    everyone = set(names.values())
    results = []
    for item, before, after in zip(scenario.news, first, last, strict=True):
        topic = item.topic
        known = trace(
            transmissions(rows.memories.values(), topic, everyone),
            topic,
            start=scenario.start,
            names=everyone,
        )
        came = (
            attendance(rows.heard, snapshots, names=names, topic=topic, gathering=item.gathering)
            if item.gathering is not None
            else None
        )
        results.append(
            NewsResult(
                item=item,
                start=diffusion(before, judge=judge, knowledge=known, rows=rows),
                end=diffusion(after, judge=judge, knowledge=known, rows=rows),
                knowledge=known,
                attendance=came,
                model_heard=None if written is None else heard_in(known, rows.memories, written),
            )
        )
    return ScenarioResult(
        scenario=scenario,
        world_id=world,
        agents=tuple(names.values()),
        news=tuple(results),
        talk=audit_talk(
            lines=audited.lines,
            plans=audited.plans,
            memories=audited.memories,
            **personas_of(scenario.pack["personas"]),
        ),
        wall_s=time.monotonic() - started,
    )


def heard_in(
    known: Knowledge, memories: Mapping[int, MemoryRow], lines: frozenset[str]
) -> frozenset[str]:
    """Agents whose first hearing of the news was one of `lines` (the quote of its
    `X said to Y: "line"` memory, read as the offline mind reads it)."""

    def quote(memory_id: int) -> str | None:
        heard = said(memories[memory_id].description)
        return None if heard is None else heard.text

    return frozenset(
        agent
        for agent, step in known.first.items()
        if step.how == "heard" and quote(step.memory_id) in lines
    )


def report(result: ScenarioResult) -> str:
    """Per news item: diffusion, hops, attendance, the tree and the targets."""
    n = len(result.agents)
    lines = [
        f"scenario {result.scenario.name}: {n} agents, {result.scenario.hours:g} game hours "
        f"from {result.scenario.start:%A %B %d %H:%M}, {result.wall_s:.0f} s "
        f"(world {result.world_id})",
        "",
        "| news | start | end (yes) | end (traced) | hops | invited | attended |",
        "|---|---|---|---|---|---|---|",
    ]
    for news in result.news:
        came = news.attendance
        lines.append(
            f"| {news.item.topic.title} | {len(news.start.knew)}/{n} | {len(news.end.knew)}/{n} "
            f"| {news.traced}/{n} ({news.traced / n:.0%}) | {news.hops} "
            f"| {len(came.invited) if came else '—'} | {len(came.attended) if came else '—'} |"
        )
    lines += ["", "talk and plans (bench.audit_talk):", talk_report(result.talk)]
    for news in result.news:
        lines += ["", f"{news.item.topic.title} — transmission tree:", *_tree(news)]
        if news.model_heard is not None:
            hearings = sum(1 for step in news.knowledge.first.values() if step.how == "heard")
            lines.append(
                f"  first heard in a line the model wrote: {len(news.model_heard)} of "
                f"{hearings} (the rest in lines the offline mind stood in for)"
            )
        if news.attendance is not None:
            missing = ", ".join(news.attendance.no_shows) or "none"
            lines.append(f"  invited who did not come: {missing}")
        verdicts = news.met(n)
        lines.append(
            "  targets: "
            + "; ".join(f"{k} {'met' if ok else 'NOT met'}" for k, ok in verdicts.items())
        )
    return "\n".join(lines)


def _tree(news: NewsResult) -> list[str]:
    order = sorted(news.knowledge.since.items(), key=lambda kv: (kv[1], kv[0]))
    out = []
    for agent, since in order:
        step = news.knowledge.first.get(agent)
        how = f"← {step.source} ({_how(news, agent, step.how)})" if step else "(originator)"
        out.append(f"  {_when(since)}  {agent} {how}")
    return out or ["  nobody"]


def _how(news: NewsResult, agent: str, how: str) -> str:
    """ "heard", or with a model "heard, model's line" / "heard, offline mind's line"."""
    if how != "heard" or news.model_heard is None:
        return how
    return f"{how}, {'model' if agent in news.model_heard else 'offline mind'}'s line"


def _when(at: datetime) -> str:
    return f"{at:%a %H:%M}"


def as_json(result: ScenarioResult) -> dict[str, object]:
    n = len(result.agents)
    return {
        "scenario": result.scenario.name,
        "world_id": result.world_id,
        "agents": n,
        "hours": result.scenario.hours,
        "wall_s": round(result.wall_s, 1),
        "news": [
            {
                "key": news.item.topic.key,
                "start": len(news.start.knew),
                "end": len(news.end.knew),
                "traced": news.traced,
                "hallucinated": len(news.end.hallucinated),
                "hops": news.hops,
                "invited": len(news.attendance.invited) if news.attendance else None,
                "attended": len(news.attendance.attended) if news.attendance else None,
                "heard_in_model_lines": (
                    None if news.model_heard is None else len(news.model_heard)
                ),
                "targets": news.met(n),
            }
            for news in result.news
        ],
        "talk": {
            "lines": result.talk.lines,
            "opening": list(result.talk.opening),
            "repeats": result.talk.repeats,
            "introduced": len(result.talk.introduced),
            "borrowed": len(result.talk.borrowed),
            "tasks": result.talk.tasks,
            "longest": result.talk.longest[0],
            "targets": result.talk.targets(),
        },
    }
