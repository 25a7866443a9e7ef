"""`python -m bench.scale` end to end with a handful of agents for a game hour: it launches the
stack, plays the town through the API and writes its figures, read from `/metrics`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.scale_town import generate
from tests.conftest import REPO
from tests.hash_seeds import printed_under_seeds

SMALL_RUN = "--agents 5 --hours 1 --minutes 0.25 --step-interval 0.5"
REQUIRED = {"wall_s", "step_p50_ms", "step_p99_ms", "agents_without_action"}


def test_the_town_is_the_same_for_a_seed_in_every_process_and_fits_the_map_limit() -> None:
    town = generate(1000, seed=3)
    code = "from bench.scale_town import generate; print(repr(generate(1000, seed=3)))"
    assert set(printed_under_seeds(code)) == {repr(town)} and town != generate(1000, seed=4)
    names = [p["name"] for p in town.personas]
    assert len(set(names)) == 1000

    def places(nodes: list[dict[str, object]]) -> int:
        return sum(1 + places(n.get("children", [])) for n in nodes)  # type: ignore[arg-type]

    assert 2000 < places(town.map) <= 5000
    known = {area["name"] for area in town.map}
    assert all(p["known_places"][-1].split(":")[0] in known for p in town.personas)


@pytest.mark.worker
def test_bench_scale_runs_a_small_town_and_writes_its_figures(tmp_path: Path) -> None:
    out, png = tmp_path / "scale.json", tmp_path / "queues.png"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.scale",
            *SMALL_RUN.split(),
            "--json",
            str(out),
            "--plot",
            str(png),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    figures = json.loads(out.read_text())
    assert figures.keys() >= REQUIRED
    assert figures["agents"] == 5 and figures["steps"] >= 5
    assert 0 < figures["step_p50_ms"] <= figures["step_p99_ms"]
    assert figures["server_step_p50_ms"] is not None  # the API's histogram, from /metrics
    assert figures["agents_without_action"] == 0
    assert figures["agents_never_planned"] < figures["agents"]  # the workers planned
    assert {"hearth.summarize", "hearth.plan_day"} <= figures["jobs_by_task"].keys()
    assert figures["database_bytes"] > 0
    roles = {p["role"] for p in figures["peak_memory"]}
    assert {"api", "worker-fast", "worker-slow", "beat", "postgres", "redis"} <= roles
    assert figures["cpu_s_per_agent_day"].keys() == roles | {"all"}
    backlog, series = figures["backlog_end"], figures["queue_depth_series"]
    assert backlog["queued"].keys() == {"fast", "slow"} and backlog["day_jobs"] > 0
    assert len(series["game_time"]) >= 2 and len(series["slow"]) == len(series["game_time"])
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "bench: " in run.stderr and "wall time" in run.stdout  # progress, then the report
    assert "backlog, share of the day's jobs" in run.stdout
