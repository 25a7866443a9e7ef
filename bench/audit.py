"""`python -m bench.audit [--hours H] [--agents N] [--json FILE]`: run the demo town through the
real stack (API, workers and beat from `service.launcher`, in a temporary HEARTH_HOME on a free
port), then measure what a player would notice, per agent and for the town:

- ungrammatical texts: lines, reflections, summaries, plans and observations flagged by any
  rule of `bench.audit_grammar` (each distinct text of an agent judged once);
- nested quotes: utterance memories quoting a quotation;
- duplicate memories: the same description for the same agent within 10 game minutes;
- tasks inside their hour chunk's area (the first segment of the place path);
- at work in work hours: steps where the game saw the agent in the area its persona works in
  at that hour (`bench.audit_routine` reads the persona's own words);
- meals at meal times: plan items naming breakfast, lunch or dinner that start in its window;
- conversations whose lines span more than one game minute.

Rows are read as `hearth_analyst` from the views and, for what the views do not hold, through
the API. Progress goes to stderr, the figures to stdout; nothing here passes or fails — the
targets are checked in tests/bench/test_audit_targets.py.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import textwrap
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from hearth_client.client import Hearth
from hearth_client.demo.drive import DemoConfig, TownRun, drive, quiesce, start_town
from hearth_client.demo.run import progress_line
from hearth_client.types import PersonaSpec

from bench.audit_data import RunRows, read_rows
from bench.audit_measures import (
    GrammarFindings,
    Share,
    at_workplace,
    duplicate_memories,
    grammar,
    long_conversations,
    meals_on_time,
    nested_quotes,
    tasks_in_chunk_area,
    town,
)
from bench.audit_talk import audit_talk
from bench.audit_talk import report as talk_report
from bench.scenario import load as load_scenario
from bench.scenario import seed
from db.providers import llm_config
from db.settings import Settings
from service.instance import free_port
from service.launcher import launched

DEFAULT_HOURS = 12.0
BEAT_INTERVAL_S = 1.0


@dataclass(frozen=True)
class Measure:
    key: str
    title: str
    higher_is_better: bool


MEASURES = (
    Measure("grammar", "grammar", False),
    Measure("nested_quotes", "nested q.", False),
    Measure("duplicates", "duplicate", False),
    Measure("tasks_in_area", "task area", True),
    Measure("at_work", "at work", True),
    Measure("meals", "meal time", True),
    Measure("long_talks", "talk>1min", True),
)


@dataclass(frozen=True)
class Target:
    measure: str
    text: str
    met: Callable[[Share], bool]


TARGETS = (
    Target("nested_quotes", "0 nested quotes", lambda s: s.hits == 0),
    Target("duplicates", "0 duplicates within 10 game minutes", lambda s: s.hits == 0),
    Target("grammar", "0 hits of the grammar checks", lambda s: s.hits == 0),
    Target(
        "tasks_in_area",
        "≥ 95 % of tasks inside their chunk's area",
        lambda s: s.rate is not None and s.rate >= 0.95,
    ),
)


@dataclass(frozen=True)
class Audit:
    world_id: str
    agents: tuple[str, ...]
    measures: dict[str, dict[str, Share]]
    findings: GrammarFindings
    rows: RunRows

    def town(self, measure: str) -> Share:
        return town(self.measures[measure])


@dataclass(frozen=True)
class TownUnderAudit:
    """A driven town whose stack still serves: read it before the block ends."""

    client: Hearth
    run: TownRun
    database_url: str
    settings: Settings


@contextmanager
def town_on_stack(config: DemoConfig, *, keep: Path | None = None) -> Iterator[TownUnderAudit]:
    """Launch the stack in a temporary home (or `keep`, left behind for `HEARTH_HOME=keep
    hearth up` and the analyst) on a free port and create the town, not yet driven (a
    benchmark may look at it before the first step)."""
    kept = nullcontext(str(keep)) if keep is not None else None
    with kept or tempfile.TemporaryDirectory(prefix="hearth-audit-") as home:
        settings = Settings(
            home=Path(home),
            api_port=free_port("127.0.0.1"),
            database_url=None,
            redis_url=None,
            admin_key=None,
        )
        with launched(settings, beat_interval_s=BEAT_INTERVAL_S, trap_signals=False) as up:
            if up.supervisor.wait_ready(f"{up.base_url}/readyz") is None:
                raise SystemExit("bench: the stack did not become ready")
            patient = replace(config, request_timeout_s=request_timeout(up.stack.settings))
            with Hearth(up.base_url, api_key=up.admin.key) as admin:
                client, run = start_town(admin, up.base_url, patient)
            with client:
                yield TownUnderAudit(client, run, up.stack.database_url, up.stack.settings)


def request_timeout(settings: Settings) -> float:
    """How long a call to the town may wait: with a model, an interview is the model's answer
    and perhaps one re-ask, each up to the model's own timeout (600 s for a local model)."""
    usual = DemoConfig().request_timeout_s
    if not settings.llm_configured:
        return usual
    return usual + 2 * llm_config(settings).timeout_s


@contextmanager
def audited_town(config: DemoConfig, *, quiet: bool = False) -> Iterator[TownUnderAudit]:
    """Launch the stack in a temporary home on a free port, create and drive the town."""
    with town_on_stack(config) as town:
        drive(town.client, town.run, config, progress(quiet))
        quiesce(town.client, town.run)
        yield town


def progress(quiet: bool) -> Callable[..., None]:
    """The demo's progress bar on stderr, one line redrawn per step (nothing when quiet)."""
    if quiet:
        return lambda _p: None
    return lambda p: print(progress_line(p), end="", file=sys.stderr, flush=True)


def measure(under: TownUnderAudit) -> Audit:
    rows = read_rows(under.database_url, under.client, under.run)
    findings = grammar(rows.texts(), rows.names)
    measures = {
        "grammar": findings.shares,
        "nested_quotes": nested_quotes(rows.memories, rows.names),
        "duplicates": duplicate_memories(rows.memories),
        "tasks_in_area": tasks_in_chunk_area(rows.plans),
        "at_work": at_workplace(rows.samples, rows.routines),
        "meals": meals_on_time(rows.plans),
        "long_talks": long_conversations(rows.lines),
    }
    return Audit(
        under.run.world_id, tuple(a["name"] for a in under.run.agents), measures, findings, rows
    )


# --- printing ---------------------------------------------------------------------------------

NAME_WIDTH = 17
CELL = 11


def _cell(share: Share | None) -> str:
    return "—" if share is None or share.total == 0 else f"{share.hits}/{share.total}"


def _percent(share: Share) -> str:
    return "—" if share.rate is None else f"{100 * share.rate:.0f} %"


LEGEND = (
    "cells are hits/total: texts flagged (grammar), utterance memories quoting a quotation,\n"
    "memories repeated within 10 game minutes (fewer is better); tasks in their chunk's area,\n"
    "steps at the workplace in work hours, meals started in their window, conversations over\n"
    "more than a game minute (more is better); — nothing to count"
)


def table(audit: Audit) -> str:
    head = "agent".ljust(NAME_WIDTH) + "".join(m.title.rjust(CELL) for m in MEASURES)
    lines = [head, "-" * len(head)]
    for name in audit.agents:
        cells = [_cell(audit.measures[m.key].get(name)) for m in MEASURES]
        lines.append(
            name[: NAME_WIDTH - 1].ljust(NAME_WIDTH) + "".join(c.rjust(CELL) for c in cells)
        )
    totals = [_cell(audit.town(m.key)) for m in MEASURES]
    rates = [_percent(audit.town(m.key)) for m in MEASURES]
    lines += ["-" * len(head), "town".ljust(NAME_WIDTH) + "".join(c.rjust(CELL) for c in totals)]
    lines.append("".ljust(NAME_WIDTH) + "".join(r.rjust(CELL) for r in rates))
    lines.append(LEGEND)
    return "\n".join(lines)


def rules_table(findings: GrammarFindings) -> str:
    kinds = ", ".join(f"{k} {_cell(s)}" for k, s in sorted(findings.by_kind.items()))
    lines = textwrap.wrap(f"texts flagged by kind: {kinds}", width=100)
    lines.append("rule                      texts  first example")
    for rule, count in findings.by_rule.most_common():
        example = findings.examples[rule]
        lines.append(f"{rule:<25} {count:>5}  {example[:66]}")
    return "\n".join(lines)


def verdicts(audit: Audit) -> str:
    lines = []
    for target in TARGETS:
        share = audit.town(target.measure)
        mark = "met    " if target.met(share) else "NOT MET"
        lines.append(f"{mark}  {target.text}: {_cell(share)} ({_percent(share)})")
    return "\n".join(lines)


def as_json(audit: Audit, config: DemoConfig) -> dict[str, object]:
    def share(s: Share) -> dict[str, object]:
        return {"hits": s.hits, "total": s.total, "rate": s.rate}

    return {
        "config": {
            "hours": config.hours,
            "agents": len(audit.agents),
            "step_minutes": config.step_minutes,
        },
        "world_id": audit.world_id,
        "measures": {
            m.key: {
                "town": share(audit.town(m.key)),
                "higher_is_better": m.higher_is_better,
                "agents": {a: share(s) for a, s in sorted(audit.measures[m.key].items())},
            }
            for m in MEASURES
        },
        "grammar": {
            "by_rule": dict(audit.findings.by_rule.most_common()),
            "by_kind": {k: share(s) for k, s in audit.findings.by_kind.items()},
            "examples": audit.findings.examples,
        },
        "targets": {t.text: t.met(audit.town(t.measure)) for t in TARGETS},
    }


def audit_scenario(args: argparse.Namespace) -> int:
    """`--scenario FILE`: the scenario's town, seeded and driven, then `bench.audit_talk`."""
    scenario = load_scenario(args.scenario)
    config = scenario.config(step_minutes=args.step_minutes, hours=args.hours)
    with town_on_stack(config) as town:
        seed(town.client, town.run, scenario)
        drive(town.client, town.run, config, progress(False))
        print(file=sys.stderr)
        quiesce(town.client, town.run)
        rows = read_rows(town.database_url, town.client, town.run)
    personas = scenario.pack["personas"]
    audit = audit_talk(
        lines=rows.lines,
        plans=rows.plans,
        memories=rows.memories,
        **personas_of(personas),
    )
    print(
        f"talk audit of {scenario.name}: {len(personas)} agents over {config.hours:g} game hours\n"
    )
    print(talk_report(audit))
    if args.json is not None:
        figures = {
            "opening": audit.opening,
            "lines": audit.lines,
            "repeats": audit.repeats,
            "introduced": len(audit.introduced),
            "borrowed": len(audit.borrowed),
            "tasks": audit.tasks,
            "longest": audit.longest[0],
            "targets": audit.targets(),
        }
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


def _relations(personas: list[PersonaSpec]) -> dict[str, set[str]]:
    return {p["name"]: {r["other"] for r in p.get("relationships", [])} for p in personas}


def _job(persona: PersonaSpec) -> str:
    return f"{persona.get('background', '')} {persona.get('daily_plan_requirement', '')}"


def personas_of(personas: list[PersonaSpec]) -> dict[str, Any]:
    """What the talk audit needs of a pack: whom each persona knows, and its own job's words."""
    return {
        "relationships": {
            p["name"]: {r["other"] for r in p.get("relationships", [])} for p in personas
        },
        "jobs": {
            p["name"]: f"{p.get('background', '')} {p.get('daily_plan_requirement', '')}"
            for p in personas
        },
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.audit",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--hours", type=float, default=None, help="game hours to run (12; a scenario: its days)"
    )
    parser.add_argument("--agents", type=int, default=None, help="only the first N characters")
    parser.add_argument("--step-minutes", type=int, default=15)
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    parser.add_argument(
        "--scenario",
        type=Path,
        default=None,
        metavar="FILE",
        help="audit another town's talk and plans (bench/scenario.py; shipped: bench/scenarios)",
    )
    args = parser.parse_args(argv)
    if args.scenario is not None:
        return audit_scenario(args)
    config = DemoConfig(
        hours=args.hours if args.hours is not None else DEFAULT_HOURS,
        step_minutes=args.step_minutes,
        agents=args.agents,
        world_name="Larkspur audit",
    )
    with audited_town(config) as under:
        print(file=sys.stderr)
        audit = measure(under)
    print(
        f"audit of {len(audit.agents)} agents over {config.hours:g} game hours "
        f"(world {audit.world_id})\n"
    )
    print(table(audit), rules_table(audit.findings), verdicts(audit), sep="\n\n")
    if args.json is not None:
        args.json.write_text(json.dumps(as_json(audit, config), indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
