"""`run_demo`: create the town, drive it with a progress bar, print the report and what to
look at next. Used by `hearth demo`; runs against any Hearth server given its admin key."""

from __future__ import annotations

import sys
from typing import TextIO

from hearth_client.client import Hearth
from hearth_client.demo.drive import DemoConfig, Progress, drive, start_town
from hearth_client.demo.report import agent_reports, format_reports

BAR_WIDTH = 30


def progress_line(p: Progress) -> str:
    filled = BAR_WIDTH * p.step // p.steps
    bar = "#" * filled + "-" * (BAR_WIDTH - filled)
    return (
        f"\r[{bar}] step {p.step}/{p.steps}  game time {p.now[:16].replace('T', ' ')}  "
        f"acting {p.acting}/{p.agents}  talking {p.talking}"
    )


def run_demo(base_url: str, admin_key: str, config: DemoConfig, *, out: TextIO = sys.stdout) -> int:
    """Returns a process exit code: 0 once the town has run and been reported on (API errors
    raise); the report shows who, if anyone, ended the run between plans."""
    with Hearth(base_url, api_key=admin_key) as admin:
        client, run = start_town(admin, base_url, config)
    with client:
        print(
            f"demo: world {run.world_id} with {len(run.agents)} agents; "
            f"driving {config.hours:g} game hours in {config.step_minutes}-minute steps",
            file=out,
        )
        drive(
            client,
            run,
            config,
            lambda p: print(progress_line(p), end="", file=sys.stderr, flush=True),
        )
        print(file=sys.stderr)
        reports = agent_reports(client, run)
        print(format_reports(reports), file=out)
        print(next_steps(base_url, run.world_id, run.world_key), file=out)
    idle = [r.name for r in reports if not r.doing]
    if idle:
        print(f"demo: between plans at the end: {', '.join(idle)}", file=out)
    return 0


SQL_EXAMPLES = (
    "SELECT agent, kind, description FROM memory_stream ORDER BY id DESC LIMIT 20",
    "SELECT agent, reflection, evidence, tree_level FROM reflection_evidence LIMIT 20",
    "SELECT speaker, text FROM dialogue ORDER BY spoken_at, seq LIMIT 40",
)


def next_steps(base_url: str, world_id: str, world_key: str) -> str:
    world = f"{base_url}/v1/worlds/{world_id}"
    auth = f"-H 'Authorization: Bearer {world_key}'"
    sql = "\n".join(f'  hearth sql "{query}"' for query in SQL_EXAMPLES)
    return (
        f"\nWhere to look next:\n  API docs     {base_url}/docs\n"
        f"  this world   curl {auth} {world}\n"
        f"  live events  curl -N {auth} {world}/events\n"
        f"  model usage  curl {auth} {world}/usage\n"
        f"  SQL, as the read-only analyst:\n{sql}"
    )
