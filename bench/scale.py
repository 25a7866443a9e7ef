"""Scale benchmark: a generated town of N agents through a game day on the real stack.

    python -m bench.scale [--agents 1000] [--hours 24] [--minutes 10] [--json FILE] [--plot PNG]

Starts the stack as `hearth up` does (`service.launcher`: embedded PostgreSQL and Redis in a
temporary HEARTH_HOME, migrations, the API on a free port, a fast and a slow worker, beat;
offline mind), imports the town of `bench.scale_town` through the Python SDK, then runs the
world's clock at `--hours` game hours per `--minutes` wall minutes (a day in 10 minutes is
144× real time) and plays the game: every step (at most one per `--step-interval` seconds)
reports each agent's position and place — where its current action is — and up to three
things it perceives (`bench.scale_game`), and reads back what every agent is doing.

It prints wall time; step latency p50/p99 (measured by the game, and the API's own histogram
from `/metrics`); whether planning keeps up with the clock (agents without a current action
after their first plan, whose action is still an hour or day item, how far each agent's tasks
run ahead of the clock); queue depths and the backlog left when the clock reaches the end
(`bench.scale_backlog`); jobs and rows per game hour; model calls; the database size; and each
process's peak memory and CPU-seconds (also per agent-day). Every figure but the game's own
latencies and the processes' comes from `/metrics`, as an operator would see it; `--plot` draws
the jobs waiting, sampled at each game hour and progress line, against game time. Progress goes
to stderr, the report to stdout; nothing asserts on time.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from hearth_client import Hearth

from bench import scale_backlog, scale_game, scale_processes, scale_report
from bench.prometheus import Scrape, scrape
from bench.scale_town import Town, generate
from bench.stack import UNLIMITED, free_port, say
from db.settings import load_settings
from service.launcher import Launched, launched

START = datetime(2023, 2, 13, 0, 0)
"""Midnight: every agent plans its day during the run (the night first, then its wake-up)."""
IMPORT_CHUNK = 250
"""Personas per import request (the API takes up to 1000; smaller answers keep progress)."""
PROGRESS_S = 10.0
STEP_ROUTE = "/v1/worlds/{world_id}/step"
SCRUBBED = (
    "HEARTH_LLM_MODEL",
    "HEARTH_LLM_BASE_URL",
    "HEARTH_DATABASE_URL",
    "HEARTH_REDIS_URL",
    "HEARTH_HOME",
    "HEARTH_API_PORT",
    "HEARTH_METRICS_DIR",
    "PROMETHEUS_MULTIPROC_DIR",
)
"""Unset for the run: the bench starts its own servers and uses the offline mind."""


@dataclass
class Game:
    """What the game knows: its residents, their last actions and places, and what it saw."""

    world_id: str
    residents: list[scale_game.Resident]
    actions: dict[str, Any] = field(default_factory=dict)
    last_place: dict[str, str] = field(default_factory=dict)
    first_plan: dict[str, datetime] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    without_action: list[int] = field(default_factory=list)
    """Per step: agents with no current action although they had one before."""
    without_action_at: list[datetime] = field(default_factory=list)
    """The game times of the steps that had any."""
    levels: dict[str, int] = field(default_factory=dict)
    perceived: int = 0
    stored: int = 0


@dataclass
class Samples:
    """A scrape at each game hour, for rates per game hour, and the jobs waiting at every
    scrape of the run (each game hour and each progress line)."""

    at: list[datetime] = field(default_factory=list)
    scrapes: list[Scrape] = field(default_factory=list)
    depths: scale_backlog.Depths = field(default_factory=scale_backlog.Depths)

    def take(
        self, metrics: httpx.Client, *, now: datetime, wall_s: float, hour: datetime | None = None
    ) -> Scrape:
        """Scrape now; with `hour`, also the scrape of that game hour."""
        found = scrape(metrics)
        self.depths.add(game_time=now, wall_s=wall_s, scrape=found)
        if hour is not None:
            self.at.append(hour)
            self.scrapes.append(found)
        return found


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    for name in SCRUBBED:
        os.environ.pop(name, None)
    os.environ.update(UNLIMITED)
    town = generate(args.agents, seed=args.seed)
    with tempfile.TemporaryDirectory(prefix="hearth-scale-") as home:
        home_path = Path(args.home or home)
        os.environ["HEARTH_HOME"] = str(home_path)  # the stack's children read these too
        os.environ["HEARTH_API_PORT"] = str(free_port())
        settings = load_settings()
        say(f"starting the stack in {home_path} …")
        with launched(settings, trap_signals=False) as up:
            if up.supervisor.wait_ready(f"{up.base_url}/readyz", timeout_s=180) is None:
                raise SystemExit("bench: the stack did not become ready")
            say("stack ready")
            figures, depths = _run(up, town, args)
    scale_report.show(figures)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2, default=str) + "\n")
        say(f"figures written to {args.json}")
    if args.plot:
        title = f"Jobs waiting: {figures['agents']} agents, {args.hours:g} game hours"
        scale_backlog.plot(depths, Path(args.plot), title=f"{title} in {args.minutes:g} min")
        say(f"queue depths drawn in {args.plot}")
    return 0


def _run(
    up: Launched, town: Town, args: argparse.Namespace
) -> tuple[dict[str, Any], scale_backlog.Depths]:
    memory = scale_processes.Watch(up)
    with Hearth(up.base_url, api_key=up.admin.key, timeout=120) as admin:
        world = admin.create_world("Scaleton", clock={"mode": "driven", "start": START.isoformat()})
        game = _import(admin, world["id"], town)
        metrics = httpx.Client(
            base_url=up.base_url, timeout=60, headers={"Authorization": f"Bearer {up.admin.key}"}
        )
        with metrics:
            first = scrape(metrics)
            rate = args.hours * 3600 / (args.minutes * 60)
            admin.configure_clock(world["id"], mode="running", rate=rate)
            memory.start()
            started = time.monotonic()
            samples = Samples()
            samples.depths.add(game_time=START, wall_s=0.0, scrape=first)
            _play(admin, game, town, args, metrics, memory, samples, started)
            wall_s = time.monotonic() - started
            last = scrape(metrics)
    figures = _figures(game, samples, first, last, memory.peaks(), wall_s, args)
    return figures, samples.depths


def _import(admin: Hearth, world_id: str, town: Town) -> Game:
    started = time.monotonic()
    for relationships in (False, True):
        for at in range(0, len(town.personas), IMPORT_CHUNK):
            pack = town.pack(
                at,
                at + IMPORT_CHUNK,
                with_map=at == 0 and not relationships,
                relationships=relationships,
            )
            admin.import_personas(world_id, pack)  # type: ignore[arg-type]
            done = min(at + IMPORT_CHUNK, len(town.personas))
            say(
                f"imported {done}/{len(town.personas)} personas"
                f"{' with relationships' if relationships else ''}"
                f" ({time.monotonic() - started:.0f} s)"
            )
    homes = {p["name"]: p["living_area"].split(":")[0] for p in town.personas}
    residents = [
        scale_game.Resident(a["id"], a["name"], homes[a["name"]])
        for a in admin.list_agents(world_id, page_size=500)
    ]
    return Game(world_id=world_id, residents=residents)


def _play(
    client: Hearth,
    game: Game,
    town: Town,
    args: argparse.Namespace,
    metrics: httpx.Client,
    memory: scale_processes.Watch,
    samples: Samples,
    started: float,
) -> None:
    end = START + timedelta(hours=args.hours)
    next_progress = started + PROGRESS_S
    now = START
    while now < end:
        tick = time.monotonic()
        spots = scale_game.spots(game.residents, game.actions, town.coordinates, game.last_place)
        body = scale_game.step_body(spots)
        sent = time.monotonic()
        result = client.step(game.world_id, body)  # type: ignore[arg-type]
        game.latencies.append(time.monotonic() - sent)
        now = datetime.fromisoformat(result["now"])
        _observe(game, body, result, now)
        recent = None
        if not samples.at or now >= samples.at[-1] + timedelta(hours=1):
            hour = now.replace(minute=0, second=0, microsecond=0)
            recent = samples.take(metrics, now=now, wall_s=time.monotonic() - started, hour=hour)
        memory.sample()
        if time.monotonic() >= next_progress:
            next_progress += PROGRESS_S
            recent = recent or samples.take(metrics, now=now, wall_s=time.monotonic() - started)
            _progress(game, recent, now, started)
        time.sleep(max(0.0, args.step_interval - (time.monotonic() - tick)))
    samples.take(metrics, now=now, wall_s=time.monotonic() - started, hour=now)


def _observe(game: Game, body: list[dict[str, Any]], result: Any, now: datetime) -> None:
    missing = 0
    for entry in result["agents"]:
        agent_id, action = entry["agent_id"], entry["action"]
        game.actions[agent_id] = action
        game.stored += entry["stored"]
        if action is None:
            missing += agent_id in game.first_plan
            game.levels["none"] = game.levels.get("none", 0) + 1
            continue
        game.first_plan.setdefault(agent_id, now)
        game.levels[action["level"]] = game.levels.get(action["level"], 0) + 1
    game.perceived += sum(len(a["perceived"]) for a in body)
    game.without_action.append(missing)
    if missing:
        game.without_action_at.append(now)


def _progress(game: Game, last: Scrape, now: datetime, started: float) -> None:
    recent = game.latencies[-50:]
    queues = last.by("hearth_queue_depth", "queue")
    jobs = last.total("hearth_jobs_total")
    say(
        f"{now:%H:%M} game  {time.monotonic() - started:5.0f} s wall  steps {len(game.latencies)}"
        f"  step p50 {statistics.median(recent) * 1000:.0f} ms  planned "
        f"{len(game.first_plan)}/{len(game.residents)}  without action {game.without_action[-1]}"
        f"  queues {_queues(queues)}  jobs {jobs:.0f}"
    )


def _queues(depths: dict[str, float]) -> str:
    return " ".join(f"{q}={v:.0f}" for q, v in sorted(depths.items())) or "-"


def _figures(
    game: Game,
    samples: Samples,
    first: Scrape,
    last: Scrape,
    peaks: list[dict[str, Any]],
    wall_s: float,
    args: argparse.Namespace,
) -> dict[str, Any]:
    ms = sorted(x * 1000 for x in game.latencies)
    run = last.minus(first)
    hours = max(args.hours, 1e-9)
    per_hour = [b.minus(a) for a, b in zip(samples.scrapes, samples.scrapes[1:], strict=False)]
    jobs_by_task = run.by("hearth_jobs_total", "task")
    rows = run.by("hearth_db_rows_inserted_total", "table")
    plan_minutes = [(t - START).total_seconds() / 60 for t in game.first_plan.values()]
    return {
        "agents": len(game.residents),
        "game_hours": args.hours,
        "clock_rate": args.hours * 3600 / (args.minutes * 60),
        "wall_s": round(wall_s, 1),
        "steps": len(ms),
        "step_p50_ms": round(_q(ms, 0.5), 1),
        "step_p99_ms": round(_q(ms, 0.99), 1),
        "step_max_ms": round(ms[-1], 1) if ms else None,
        "server_step_p50_ms": _ms(
            run.quantile(0.5, "hearth_http_request_duration_seconds", route=STEP_ROUTE)
        ),
        "server_step_p99_ms": _ms(
            run.quantile(0.99, "hearth_http_request_duration_seconds", route=STEP_ROUTE)
        ),
        "perceptions_sent": game.perceived,
        "observations_stored": game.stored,
        "agents_without_action": max(game.without_action, default=0),
        "agents_never_planned": len(game.residents) - len(game.first_plan),
        "steps_with_agents_without_action": len(game.without_action_at),
        "agents_without_action_first_at": min(game.without_action_at, default=None),
        "first_plan_game_minutes_p50": round(_q(sorted(plan_minutes), 0.5), 1),
        "first_plan_game_minutes_max": round(max(plan_minutes, default=0.0), 1),
        "action_levels": game.levels,
        "plan_lead_min_s": last.total("hearth_plan_lead_seconds", stat="min"),
        "plan_lead_median_s": last.total("hearth_plan_lead_seconds", stat="median"),
        "agents_by_action_now": last.by("hearth_agents", "action"),
        "queue_depth_max": samples.depths.peaks(scale_backlog.QUEUES),
        "queue_depth_end": last.by("hearth_queue_depth", "queue"),
        "backlog_end": scale_backlog.backlog(last, run).as_json(),
        "queue_depth_series": samples.depths.as_json(),
        "jobs_by_task": {k: int(v) for k, v in sorted(jobs_by_task.items())},
        "jobs_per_game_hour": round(sum(jobs_by_task.values()) / hours, 1),
        "jobs_per_game_hour_max": max(
            (int(h.total("hearth_jobs_total")) for h in per_hour), default=0
        ),
        "job_failures": int(run.total("hearth_jobs_total", outcome="failure")),
        "job_p50_ms_by_task": {
            t: _ms(run.quantile(0.5, "hearth_job_duration_seconds", task=t))
            for t in sorted(jobs_by_task)
        },
        "rows_per_game_hour": {k: round(v / hours) for k, v in sorted(rows.items()) if v},
        "model_calls_by_operation": {
            k: int(v) for k, v in sorted(run.by("hearth_model_calls_total", "operation").items())
        },
        "database_bytes": int(last.total("hearth_database_size_bytes")),
        "peak_memory": peaks,
        "cpu_s_per_game_hour": round(sum(p["cpu_s"] for p in peaks) / hours, 1),
        "cpu_s_per_agent_day": scale_backlog.cpu_per_agent_day(
            peaks, agents=len(game.residents), hours=args.hours
        ),
        "load_average": os.getloadavg()[0],
        "cores": os.cpu_count(),
    }


def _q(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    return values[min(len(values) - 1, int(q * len(values)))]


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 1)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bench.scale",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--agents", type=int, default=1000)
    parser.add_argument("--hours", type=float, default=24.0, help="game hours to play")
    parser.add_argument(
        "--minutes",
        type=float,
        default=10.0,
        help="wall minutes the game hours take (sets the clock's rate)",
    )
    parser.add_argument(
        "--step-interval",
        type=float,
        default=1.0,
        help="wall seconds between step starts (a slower step starts the next at once)",
    )
    parser.add_argument("--seed", type=int, default=1, help="town generator seed")
    parser.add_argument("--home", help="HEARTH_HOME to use (default: a temporary folder)")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--plot", help="draw the jobs waiting over game time to this PNG")
    return parser


if __name__ == "__main__":
    sys.exit(main())
