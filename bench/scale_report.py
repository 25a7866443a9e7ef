"""The table `python -m bench.scale` prints: its figures (`bench.scale._figures`), one row
each, in the order an operator reads them."""

from __future__ import annotations

from typing import Any

from bench import scale_backlog


def show(f: dict[str, Any]) -> None:
    """Print the figures as a two-column table."""
    rows = (
        [
            (
                "agents × game hours",
                f"{f['agents']} × {f['game_hours']:g} (clock {f['clock_rate']:g}× "
                f"real time, offline mind)",
            ),
            ("wall time", f"{f['wall_s']:.0f} s"),
            (
                "steps",
                f"{f['steps']} ({f['perceptions_sent']:,} perceptions sent, "
                f"{f['observations_stored']:,} stored)",
            ),
            (
                "step p50 / p99 / max (game)",
                f"{f['step_p50_ms']:.0f} / {f['step_p99_ms']:.0f} / {f['step_max_ms']:.0f} ms",
            ),
            (
                "step p50 / p99 (API, /metrics)",
                f"{f['server_step_p50_ms']} / {f['server_step_p99_ms']} ms",
            ),
            (
                "agents without action after first plan (max)",
                f"{f['agents_without_action']} "
                f"(in {f['steps_with_agents_without_action']} steps, "
                f"first at {f['agents_without_action_first_at'] or '-'})",
            ),
            ("agents never planned", str(f["agents_never_planned"])),
            (
                "first plan, game minutes after start p50 / max",
                f"{f['first_plan_game_minutes_p50']} / {f['first_plan_game_minutes_max']}",
            ),
            ("current actions seen, by level", _pairs(f["action_levels"])),
            (
                "task lead at the end, min / median",
                f"{f['plan_lead_min_s'] / 60:.0f} / {f['plan_lead_median_s'] / 60:.0f} game min",
            ),
            (
                "queue depth max / end",
                f"{_pairs(f['queue_depth_max'])} / {_pairs(f['queue_depth_end'])}",
            ),
            *zip(
                ("backlog at the end of the day", "backlog, share of the day's jobs"),
                scale_backlog.describe(f["backlog_end"]),
                strict=True,
            ),
            (
                "jobs per game hour (mean / max)",
                f"{f['jobs_per_game_hour']:,.0f} / {f['jobs_per_game_hour_max']:,}",
            ),
            ("job failures", str(f["job_failures"])),
            ("jobs by task", _pairs(f["jobs_by_task"])),
            ("job p50 by task (ms)", _pairs(f["job_p50_ms_by_task"])),
            ("rows per game hour", _pairs(f["rows_per_game_hour"])),
            ("model calls by operation", _pairs(f["model_calls_by_operation"])),
            ("database size", f"{f['database_bytes'] / 2**20:,.0f} MB"),
        ]
        + [
            (
                f"{p['role']}: peak memory, CPU",
                f"{p['peak_mb']:,.0f} MB ({p['processes']} processes), {p['cpu_s']:,.0f} CPU-s",
            )
            for p in f["peak_memory"]
        ]
        + [
            ("CPU-s per game hour, all processes", f"{f['cpu_s_per_game_hour']:,.0f}"),
            (
                "CPU-s per agent-day, by role",
                ", ".join(f"{r} {v:,.2f}" for r, v in f["cpu_s_per_agent_day"].items()) or "-",
            ),
            ("load average (1 min) at the end", f"{f['load_average']:.1f} on {f['cores']} cores"),
        ]
    )
    width = max(len(name) for name, _ in rows)
    print(f"\n{'figure'.ljust(width)}  value\n{'-' * width}  {'-' * 40}")
    for name, value in rows:
        print(f"{name.ljust(width)}  {value}")


def _pairs(values: dict[str, Any]) -> str:
    return (
        ", ".join(
            f"{k} {v:,.0f}" if isinstance(v, int | float) else f"{k} {v}"
            for k, v in values.items()
            if v is not None
        )
        or "-"
    )
