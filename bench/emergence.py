"""`python -m bench.emergence [--days 2] [--step-minutes M] [--json FILE] [--plot FILE.png]`:
the paper's end-to-end evaluation (§7.1) as one command — information diffusion, relationship
formation and coordination in the demo town, beside the paper's table.

It launches the real stack (API, workers, beat) in a temporary home, imports the demo town
(only Junie knows of her party and only Walter of his candidacy), and interviews every agent
through `POST …/interview` with the paper's two questions and "Do you know of <name>?" for
every other agent; then drives the town from 07:00 on February 13 to 21:00 on the last day (the
party is on February 14, 6–8 pm) and interviews everyone again. Each answer is labelled yes or
no by the offline rule and, when `HEARTH_LLM_*` configures one, by the model (whose labels the
table then shows); every yes is checked against the memories it cites (`emergence_trace`).
Invited guests who did not come are asked why. Progress goes to stderr; the table, the
transmission trees and the checks to stdout. Nothing here passes or fails: the targets are
printed as met or not.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from hearth_client.demo import TOWN_START
from hearth_client.demo.drive import DemoConfig, drive, quiesce

from bench.audit import TownUnderAudit, progress, town_on_stack
from bench.emergence_data import RunRows, read_rows, wait_until_embedded
from bench.emergence_interviews import Judge, Judged, Question, interview, judged
from bench.emergence_measures import attendance, diffusion, network, relationship_edges
from bench.emergence_report import (
    Emergence,
    Phase,
    as_json,
    details,
    table,
    transmission_tree,
    verdicts,
)
from bench.emergence_scenario import as_json as scenario_json
from bench.emergence_scenario import evaluate_scenario
from bench.emergence_scenario import report as scenario_report
from bench.emergence_topics import EVENING_ENDS, PARTY, PARTY_GATHERING, TOPICS
from bench.emergence_trace import Knowledge, trace, transmissions
from bench.scenario import load as load_scenario
from cognition.offline import OfflineMind
from cognition.offline.text import first_name
from db.providers import build_mind
from db.settings import Settings

WORLD_NAME = "Larkspur emergence"
DEFAULT_STEP_MINUTES = 15
"""The demo's step: everyone perceives and may react four times a game hour."""


def run_hours(days: int) -> float:
    """From the pack's morning (07:00 on day one) to 21:00 on the last day."""
    start = datetime.fromisoformat(TOWN_START)
    return (days - 1) * 24 + EVENING_ENDS - start.hour - start.minute / 60


def judges() -> list[Judge]:
    """The offline rule always; the configured model too, when there is one."""
    found = [Judge("offline", OfflineMind())]
    settings = Settings()
    if settings.llm_configured:
        found.append(Judge("model", build_mind(settings)))
    return found


def questions(town: TownUnderAudit) -> dict[str, list[Question]]:
    """The paper's two questions to everyone, and every ordered pair's "Do you know of …?"."""
    agents = [(a["id"], a["name"]) for a in town.run.agents]
    firsts = [first_name(name) for _, name in agents]
    asked = {
        topic.key: [
            Question(i, name, topic.question, topic.subject, topic.cues) for i, name in agents
        ]
        for topic in TOPICS
    }
    asked["people"] = [
        Question(
            i,
            name,
            f"Do you know of {other}?",
            other,
            (other, first_name(other)) if firsts.count(first_name(other)) == 1 else (other,),
            about=other,
        )
        for i, name in agents
        for _, other in agents
        if other != name
    ]
    return asked


def interview_town(
    town: TownUnderAudit, judging: Sequence[Judge], *, label: str, quiet: bool
) -> dict[str, list[Judged]]:
    asked = questions(town)
    flat = [q for group in asked.values() for q in group]
    replies = interview(town.client, town.run.world_id, flat, label=label, quiet=quiet)
    labelled = judged(replies, judging)
    out: dict[str, list[Judged]] = {}
    at = 0
    for key, group in asked.items():
        out[key] = labelled[at : at + len(group)]
        at += len(group)
    return out


def ask_why(town: TownUnderAudit, no_shows: Sequence[str], *, quiet: bool) -> dict[str, str]:
    """Each invited guest who did not come, asked why (the paper's §7.1.2 follow-up)."""
    ids = {a["name"]: a["id"] for a in town.run.agents}
    asked = [
        Question(ids[name], name, PARTY_GATHERING.why_question, PARTY.subject, PARTY.cues)
        for name in no_shows
    ]
    replies = interview(town.client, town.run.world_id, asked, label="no-shows", quiet=quiet)
    return {reply.question.agent: reply.answer for reply in replies}


def phase(
    at: datetime,
    answers: dict[str, list[Judged]],
    *,
    judging: Sequence[Judge],
    knowledge: dict[str, Knowledge],
    rows: RunRows,
    agents: Sequence[str],
) -> Phase:
    return Phase(
        at=at,
        diffusion={
            j.name: {
                t.key: diffusion(
                    answers[t.key], judge=j.name, knowledge=knowledge[t.key], rows=rows
                )
                for t in TOPICS
            }
            for j in judging
        },
        network={
            j.name: network(answers["people"], judge=j.name, agents=agents, rows=rows)
            for j in judging
        },
    )


def evaluate(config: DemoConfig, *, quiet: bool = False, keep: Path | None = None) -> Emergence:
    """Run the town and measure it (module docstring); `keep`: the stack's home, left behind."""
    started = time.monotonic()
    judging = judges()
    with town_on_stack(config, keep=keep) as town:
        world = town.run.world_id
        wait_until_embedded(town.database_url, world)
        begin = datetime.fromisoformat(TOWN_START)
        first = interview_town(town, judging, label="start", quiet=quiet)
        driving = time.monotonic()
        drive(town.client, town.run, config, progress(quiet))
        if not quiet:
            print(file=sys.stderr)
        quiesce(town.client, town.run)
        drive_s = time.monotonic() - driving
        last = interview_town(town, judging, label="end", quiet=quiet)
        end = datetime.fromisoformat(town.run.snapshots[-1].now) if town.run.snapshots else begin
        names = {a["id"]: a["name"] for a in town.run.agents}
        rows = read_rows(town.database_url, world)
        came = attendance(
            rows.heard, town.run.snapshots, names=names, topic=PARTY, gathering=PARTY_GATHERING
        )
        over = end >= PARTY_GATHERING.end  # before it, no one has missed the party yet
        why = ask_why(town, came.no_shows if over else (), quiet=quiet)
    wall_s = time.monotonic() - started
    agents = tuple(names.values())
    everyone = set(agents)
    known = {
        t.key: trace(
            transmissions(rows.memories.values(), t, everyone), t, start=begin, names=everyone
        )
        for t in TOPICS
    }
    judge = judging[-1].name
    return Emergence(
        world_id=world,
        agents=agents,
        hours=config.hours,
        step_minutes=config.step_minutes,
        judge=judge,
        start=phase(begin, first, judging=judging, knowledge=known, rows=rows, agents=agents),
        end=phase(end, last, judging=judging, knowledge=known, rows=rows, agents=agents),
        knowledge=known,
        attendance=came,
        party_over=over,
        why=why,
        relationships={
            "start": relationship_edges(rows, at=begin),
            "end": relationship_edges(rows),
        },
        wall_s=wall_s,
        drive_s=drive_s,
        model_calls=rows.model_calls + sum(j.model_calls for j in judging),
    )


def town_arguments(parser: argparse.ArgumentParser) -> None:
    """How long and how big a town to run (shared with bench.believability)."""
    parser.add_argument("--days", type=int, default=2, help="game days, to 21:00 on the last")
    parser.add_argument("--hours", type=float, default=None, help="instead of --days: game hours")
    parser.add_argument("--step-minutes", type=int, default=DEFAULT_STEP_MINUTES)
    parser.add_argument("--agents", type=int, default=None, help="only the first N characters")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    parser.add_argument(
        "--keep",
        type=Path,
        default=None,
        metavar="DIR",
        help="keep the town's data in DIR (then `HEARTH_HOME=DIR hearth up`, `hearth sql`)",
    )


def town_config(args: argparse.Namespace, *, world_name: str) -> DemoConfig:
    hours = args.hours if args.hours is not None else run_hours(args.days)
    return DemoConfig(
        hours=hours, step_minutes=args.step_minutes, agents=args.agents, world_name=world_name
    )


def run_scenario(args: argparse.Namespace) -> int:
    """`--scenario FILE`: the per-news report of `bench.emergence_scenario`."""
    scenario = load_scenario(args.scenario)
    hours = args.hours if args.hours is not None else None
    if args.hours is None and args.days != scenario.days:
        scenario = replace(scenario, days=args.days)
    result = evaluate_scenario(
        scenario, judges(), step_minutes=args.step_minutes, hours=hours, keep=args.keep
    )
    print(scenario_report(result))
    if args.json is not None:
        args.json.write_text(json.dumps(scenario_json(result), indent=2) + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.emergence",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    town_arguments(parser)
    parser.add_argument("--plot", type=Path, default=None, help="draw the figure here (PNG)")
    parser.add_argument(
        "--scenario",
        type=Path,
        default=None,
        metavar="FILE",
        help="another town and its news (bench/scenario.py; shipped: bench/scenarios/*.json, "
        "by path or name): each piece of news measured on its own",
    )
    args = parser.parse_args(argv)
    if args.scenario is not None:
        return run_scenario(args)
    config = town_config(args, world_name=WORLD_NAME)
    hours = config.hours
    result = evaluate(config, keep=args.keep)
    print(
        f"emergence: {len(result.agents)} agents, {hours:g} game hours in "
        f"{config.step_minutes}-minute steps, judge {result.judge} (world {result.world_id})\n"
    )
    print(table(result), transmission_tree(result), details(result), verdicts(result), sep="\n\n")
    if args.json is not None:
        args.json.write_text(json.dumps(as_json(result), indent=2) + "\n")
    if args.plot is not None:
        from bench.emergence_plot import plot

        plot(result, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
