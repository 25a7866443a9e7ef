"""Focus benchmark: the mind's level of detail (issue 22) on the real stack with a slow model.

    python -m bench.focus [--agents 1000] [--focused 20] [--hours 3] [--minutes 12]
                          [--latency-ms 300 800] [--json FILE]

Starts the stack as `bench.scale` does (embedded PostgreSQL and Redis in a temporary
HEARTH_HOME, the API, a fast and a slow worker, beat) with the LLM mind pointed at the fake
OpenAI-compatible server of the tests, which answers as the offline responder does after a
random latency in `--latency-ms` (a hosted model's pace), on its own thread here. It imports
`bench.scale_town`'s town into a world whose `mind_focus` is `focused`, marks `--focused`
agents in focus in the first step (`in_focus`, sticky: later steps leave it out), runs the
clock from 06:00 for `--hours` game hours in `--minutes` wall minutes, and plays the game as
`bench.scale` does.

It prints model calls by focus and model (`/metrics`), the usage report's split (`/usage`),
the requests the fake model server received, and whether the agents kept up: per focus, the
agents with a current action at the end and those never planned, the queues at the end. The
model calls should all be the focused agents'; the rest think with the offline mind and keep
their actions. Progress goes to stderr, the report to stdout; nothing asserts on time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
import threading
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from hearth_client import Hearth

from bench import scale_game
from bench.prometheus import Scrape, scrape
from bench.responder import OfflineResponder
from bench.scale import SCRUBBED, Game, _import, _observe
from bench.scale_town import Town, generate
from bench.stack import UNLIMITED, free_port, say
from db.settings import load_settings
from service.launcher import launched
from tests.fakes.openai_server import FakeOpenAI, Step

START = datetime(2023, 2, 13, 6, 0)
"""Morning: every agent plans its day and starts it within the run."""
MODEL = "fake-hosted-model"
MODEL_CONCURRENCY = "8"
"""Calls in flight per process, as for a hosted model (a loopback URL would get a local
model's one at a time)."""
PROGRESS_S = 15.0


class Latency:
    """A fake model's pace: each answer waits a random time in [low, high] seconds (seeded)."""

    def __init__(self, low_s: float, high_s: float, *, seed: int) -> None:
        self.low_s, self.high_s = low_s, high_s
        self._rng = random.Random(seed)
        self._lock = threading.Lock()

    def __call__(self, route: str) -> Step | None:
        with self._lock:
            return Step(delay_s=self._rng.uniform(self.low_s, self.high_s))


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    for name in SCRUBBED:
        os.environ.pop(name, None)
    os.environ.update(UNLIMITED)
    town = generate(args.agents, seed=args.seed)
    low, high = (ms / 1000 for ms in args.latency_ms)
    fake = FakeOpenAI(
        chat_responder=OfflineResponder(year=START.year),
        faults=Latency(low, high, seed=args.seed),
    )
    with fake, tempfile.TemporaryDirectory(prefix="hearth-focus-") as home:
        os.environ.update(
            HEARTH_HOME=home,
            HEARTH_API_PORT=str(free_port()),
            HEARTH_LLM_BASE_URL=fake.base_url,
            HEARTH_LLM_MODEL=MODEL,
            HEARTH_LLM_API_KEY="bench",
            HEARTH_LLM_MAX_CONCURRENCY=MODEL_CONCURRENCY,
        )
        say(f"starting the stack in {home} (a fake model of {low:g}–{high:g} s a call) …")
        with launched(load_settings(), trap_signals=False) as up:
            if up.supervisor.wait_ready(f"{up.base_url}/readyz", timeout_s=180) is None:
                raise SystemExit("bench: the stack did not become ready")
            figures = _run(up.base_url, up.admin.key, town, args)
            figures["model_server_requests"] = fake.calls()
    _report(figures)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2, default=str) + "\n")
    return 0


def _run(base_url: str, key: str, town: Town, args: argparse.Namespace) -> dict[str, Any]:
    with Hearth(base_url, api_key=key, timeout=120) as admin:
        world = admin.create_world(
            "Focusville",
            clock={"mode": "driven", "start": START.isoformat()},
            settings={"mind_focus": "focused"},
        )
        game = _import(admin, world["id"], town)
        focused = {r.agent_id for r in game.residents[: args.focused]}
        headers = {"Authorization": f"Bearer {key}"}
        with httpx.Client(base_url=base_url, timeout=60, headers=headers) as metrics:
            first = scrape(metrics)
            rate = args.hours * 3600 / (args.minutes * 60)
            admin.configure_clock(world["id"], mode="running", rate=rate)
            started = time.monotonic()
            _play(admin, game, town, focused, args, metrics, started)
            wall_s = time.monotonic() - started
            last = scrape(metrics)
            usage = metrics.get(f"/v1/worlds/{world['id']}/usage").json()
    return _figures(game, focused, last.minus(first), last, usage, wall_s, args)


def _play(
    client: Hearth,
    game: Game,
    town: Town,
    focused: set[str],
    args: argparse.Namespace,
    metrics: httpx.Client,
    started: float,
) -> None:
    """Step every `--step-interval` seconds until the game hours are played; the first step
    marks the focused agents (sticky: the rest leave `in_focus` out)."""
    end, now, next_progress = START + timedelta(hours=args.hours), START, started + PROGRESS_S
    marked = False
    while now < end:
        tick = time.monotonic()
        spots = scale_game.spots(game.residents, game.actions, town.coordinates, game.last_place)
        body = scale_game.step_body(spots)
        if not marked:
            for entry in body:
                entry["in_focus"] = entry["agent_id"] in focused
            marked = True
        sent = time.monotonic()
        result = client.step(game.world_id, body)  # type: ignore[arg-type]
        game.latencies.append(time.monotonic() - sent)
        now = datetime.fromisoformat(result["now"])
        _observe(game, body, result, now)
        if time.monotonic() >= next_progress:
            next_progress += PROGRESS_S
            _progress(game, focused, scrape(metrics), now, started)
        time.sleep(max(0.0, args.step_interval - (time.monotonic() - tick)))


def _progress(game: Game, focused: set[str], last: Scrape, now: datetime, started: float) -> None:
    calls = last.by("hearth_model_calls_total", "focus", model=MODEL)
    queues = " ".join(
        f"{q}={v:.0f}" for q, v in sorted(last.by("hearth_queue_depth", "queue").items())
    )
    say(
        f"{now:%H:%M} game  {time.monotonic() - started:5.0f} s wall  planned "
        f"{len(game.first_plan)}/{len(game.residents)}  model calls {_pairs(calls)}  "
        f"queues {queues or '-'}"
    )


def _figures(
    game: Game,
    focused: set[str],
    run: Scrape,
    last: Scrape,
    usage: dict[str, Any],
    wall_s: float,
    args: argparse.Namespace,
) -> dict[str, Any]:
    def kept_up(ids: set[str]) -> dict[str, int]:
        return {
            "agents": len(ids),
            "with_action_at_end": sum(1 for i in ids if game.actions.get(i) is not None),
            "never_planned": sum(1 for i in ids if i not in game.first_plan),
        }

    everyone = {r.agent_id for r in game.residents}
    calls: dict[str, dict[str, int]] = {}
    for labels, value in run.samples.get("hearth_model_calls_total", {}).items():
        found = dict(labels)
        by_model = calls.setdefault(found.get("focus", ""), {})
        by_model[found.get("model", "")] = by_model.get(found.get("model", ""), 0) + int(value)
    return {
        "agents": len(everyone),
        "focused": len(focused),
        "game_hours": args.hours,
        "clock_rate": args.hours * 3600 / (args.minutes * 60),
        "latency_ms": args.latency_ms,
        "wall_s": round(wall_s, 1),
        "steps": len(game.latencies),
        "model_calls_by_focus_and_model": calls,
        "usage_by_focus": {
            r["focus"]: {"calls": r["calls"], "tokens_in": r["tokens_in"]}
            for r in usage["by_focus"]
        },
        "kept_up_focused": kept_up(focused),
        "kept_up_unfocused": kept_up(everyone - focused),
        "jobs": int(run.total("hearth_jobs_total")),
        "job_failures": int(run.total("hearth_jobs_total", outcome="failure")),
        "queue_depth_end": last.by("hearth_queue_depth", "queue"),
        "plan_lead_min_s": last.total("hearth_plan_lead_seconds", stat="min"),
        "load_average": os.getloadavg()[0],
        "cores": os.cpu_count(),
    }


def _report(f: dict[str, Any]) -> None:
    rows = [
        (
            "agents (in focus) × game hours",
            f"{f['agents']} ({f['focused']}) × {f['game_hours']:g} "
            f"(clock {f['clock_rate']:g}× real time)",
        ),
        ("model latency", f"{f['latency_ms'][0]:g}–{f['latency_ms'][1]:g} ms per call"),
        ("wall time, steps", f"{f['wall_s']:.0f} s, {f['steps']} steps"),
    ]
    for focus, by_model in sorted(f["model_calls_by_focus_and_model"].items()):
        rows.append((f"calls for {focus} agents, by model", _pairs(by_model)))
    rows += [
        ("requests the model server received", f"{f['model_server_requests']:,}"),
        (
            "/usage by focus (calls)",
            _pairs({k: v["calls"] for k, v in f["usage_by_focus"].items()}),
        ),
    ]
    for name in ("focused", "unfocused"):
        k = f[f"kept_up_{name}"]
        rows.append(
            (
                f"{name} agents: with an action at the end / never planned",
                f"{k['with_action_at_end']}/{k['agents']} / {k['never_planned']}",
            )
        )
    rows += [
        ("jobs (failures)", f"{f['jobs']:,} ({f['job_failures']})"),
        ("queue depth at the end", _pairs(f["queue_depth_end"])),
        ("task lead at the end, min", f"{f['plan_lead_min_s'] / 60:.0f} game min"),
        ("load average (1 min) at the end", f"{f['load_average']:.1f} on {f['cores']} cores"),
    ]
    width = max(len(name) for name, _ in rows)
    print(f"\n{'figure'.ljust(width)}  value\n{'-' * width}  {'-' * 40}")
    for name, value in rows:
        print(f"{name.ljust(width)}  {value}")


def _pairs(values: dict[str, Any]) -> str:
    return ", ".join(f"{k} {v:,.0f}" for k, v in sorted(values.items())) or "-"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bench.focus",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--agents", type=int, default=1000)
    parser.add_argument("--focused", type=int, default=20, help="agents marked in focus")
    parser.add_argument("--hours", type=float, default=3.0, help="game hours to play")
    parser.add_argument("--minutes", type=float, default=12.0, help="wall minutes they take")
    parser.add_argument(
        "--latency-ms",
        type=float,
        nargs=2,
        default=(300.0, 800.0),
        metavar=("LOW", "HIGH"),
        help="the fake model's latency per call, drawn uniformly",
    )
    parser.add_argument("--step-interval", type=float, default=1.0, help="wall s between steps")
    parser.add_argument("--seed", type=int, default=1, help="town and latency seed")
    parser.add_argument("--json", help="also write the figures to this file")
    return parser


if __name__ == "__main__":
    raise SystemExit(main())
