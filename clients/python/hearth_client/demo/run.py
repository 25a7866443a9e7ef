"""`run_demo`: create the town, drive it with a progress bar, print the report and what to
look at next. Used by `hearth demo`; runs against any Hearth server given its admin key."""

from __future__ import annotations

import sys
from typing import TextIO

from hearth_client.client import Hearth
from hearth_client.demo.drive import DemoConfig, Progress, TownRun, drive, quiesce, start_town
from hearth_client.demo.report import town_story
from hearth_client.demo.story import render

BAR_WIDTH = 30


def progress_line(p: Progress) -> str:
    filled = BAR_WIDTH * p.step // p.steps
    bar = "#" * filled + "-" * (BAR_WIDTH - filled)
    return (
        f"\r[{bar}] step {p.step}/{p.steps}  game time {p.now[:16].replace('T', ' ')}  "
        f"acting {p.acting}/{p.agents}  talking {p.talking}"
    )


def run_demo(
    base_url: str,
    admin_key: str,
    config: DemoConfig,
    *,
    out: TextIO = sys.stdout,
    hearth_env: str = "",
) -> TownRun:
    """Create, drive and report on the town (API errors raise). `hearth_env` is prefixed to
    the `hearth` commands suggested at the end (e.g. "HEARTH_HOME=/tmp/x ")."""
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
        quiesce(client, run)
        print(render(town_story(client, run)), file=out)
        print(next_steps(base_url, run.world_id, run.world_key, hearth_env=hearth_env), file=out)
    return run


SQL_EXAMPLES = (
    "SELECT agent, kind, description FROM memory_stream ORDER BY id DESC LIMIT 20",
    "SELECT agent, reflection, evidence, tree_level FROM reflection_evidence LIMIT 20",
    "SELECT speaker, text FROM dialogue ORDER BY spoken_at, seq LIMIT 40",
)


def next_steps(base_url: str, world_id: str, world_key: str, *, hearth_env: str = "") -> str:
    """Commands to look at the town, short enough for a 100-column terminal: the key and the
    world's URL are exported once. `hearth_env` ("HEARTH_HOME=… ") is exported first."""
    exports = [f"export {hearth_env.strip()}"] if hearth_env.strip() else []
    exports += [f"export KEY={world_key}", f"export WORLD={base_url}/v1/worlds/{world_id}"]
    auth = '-H "Authorization: Bearer $KEY"'
    lines = [
        "",
        "Where to look next:",
        *(f"  {line}" for line in exports),
        f"  API docs     {base_url}/docs",
        f"  this world   curl {auth} $WORLD",
        f"  live events  curl -N {auth} $WORLD/events",
        f"  model usage  curl {auth} $WORLD/usage",
        "  SQL, as the read-only analyst:",
        *(f'  hearth sql "{query}"' for query in SQL_EXAMPLES),
    ]
    return "\n".join(lines)
