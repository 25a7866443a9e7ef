"""What `bench.scale` leaves undone and what it costs: the backlog when the clock reaches the
end of the game day, the queue depths sampled through the run (and their figure), and
CPU-seconds per agent-day by process role.

The backlog is every job not yet done at the end, read from `/metrics` as an operator would:
waiting in Redis, per queue (`hearth_queue_depth`); delivered to a worker and not yet
acknowledged (`hearth_jobs_in_flight`, prefetched ones included); and staged in PostgreSQL's
job outbox, not yet sent (`hearth_outbox_jobs`, one total: the gauge has no kind). Work that
the next sweep would find due (an outline, decompositions, a stale summary) is not counted: it
is not stored as rows but derived in Python from the plan rows at each sweep
(`db.queries.due`), so there is no cheap SQL count of it; the sweep sends it every few seconds,
and `hearth_agents{action="day"}` and the plan lead show what is late. The day's jobs are
those finished while the clock ran (a retried job counts once, when it finally succeeds or
fails) plus the backlog.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from bench.prometheus import Scrape
from db.jobs import Queue

TARGET_PERCENT = 1.0
"""Issue 22's target: at most 1 % of the day's jobs still waiting when the day ends."""
FINISHED = ("success", "failure")
"""`hearth_jobs_total` outcomes that end a job (`retry` sends it again)."""
QUEUES = tuple(q.value for q in Queue)
SERIES = (*QUEUES, "in_flight", "outbox")
LABELS = {
    "fast": "fast queue (Redis)",
    "slow": "slow queue (Redis)",
    "in_flight": "in flight (delivered, not acknowledged)",
    "outbox": "outbox (PostgreSQL, not yet sent)",
}


@dataclass(frozen=True)
class Backlog:
    """The jobs waiting at one scrape, and the jobs finished before it."""

    queued: dict[str, int]
    in_flight: int
    outbox: int
    finished: int

    @property
    def total(self) -> int:
        return sum(self.queued.values()) + self.in_flight + self.outbox

    @property
    def percent(self) -> float | None:
        """The backlog's share of the day's jobs (finished + waiting); None for no jobs."""
        day = self.finished + self.total
        return 100 * self.total / day if day else None

    def as_json(self) -> dict[str, Any]:
        return {
            "queued": self.queued,
            "in_flight": self.in_flight,
            "outbox": self.outbox,
            "total": self.total,
            "day_jobs": self.finished + self.total,
            "percent": None if self.percent is None else round(self.percent, 2),
        }


def waiting(scrape: Scrape) -> dict[str, int]:
    """The jobs waiting in one scrape, by series (`SERIES`)."""
    return {
        **{q: int(scrape.total("hearth_queue_depth", queue=q)) for q in QUEUES},
        "in_flight": int(scrape.total("hearth_jobs_in_flight")),
        "outbox": int(scrape.total("hearth_outbox_jobs")),
    }


def backlog(last: Scrape, run: Scrape) -> Backlog:
    """The backlog in `last`, against the jobs `run` (counters since the start) finished."""
    now = waiting(last)
    return Backlog(
        queued={q: now[q] for q in QUEUES},
        in_flight=now["in_flight"],
        outbox=now["outbox"],
        finished=int(sum(run.total("hearth_jobs_total", outcome=o) for o in FINISHED)),
    )


def cpu_per_agent_day(
    roles: Sequence[Mapping[str, Any]], *, agents: int, hours: float
) -> dict[str, float]:
    """CPU-seconds of each role (`scale_processes.Watch.peaks`) per agent-day (an agent
    through 24 game hours), and of them all under `all`; empty for no agent-days."""
    agent_days = agents * hours / 24
    if agent_days <= 0:
        return {}
    found = {str(r["role"]): r["cpu_s"] / agent_days for r in roles}
    found["all"] = sum(found.values())
    return {role: round(value, 3) for role, value in found.items()}


@dataclass
class Depths:
    """The waiting jobs at moments of the run, one column per series of `SERIES`."""

    game_time: list[datetime] = field(default_factory=list)
    wall_s: list[float] = field(default_factory=list)
    waiting: dict[str, list[int]] = field(default_factory=lambda: {s: [] for s in SERIES})

    def add(self, *, game_time: datetime, wall_s: float, scrape: Scrape) -> None:
        """One sample, replacing one at the same game time; none from a scrape without queue
        depths (Redis did not answer)."""
        if "hearth_queue_depth" not in scrape.samples:
            return
        if self.game_time and self.game_time[-1] == game_time:
            self._drop_last()
        values = waiting(scrape)
        self.game_time.append(game_time)
        self.wall_s.append(round(wall_s, 1))
        for name in SERIES:
            self.waiting[name].append(values[name])

    def peaks(self, names: Sequence[str] = SERIES) -> dict[str, int]:
        return {name: max(self.waiting[name], default=0) for name in names}

    def _drop_last(self) -> None:
        self.game_time.pop()
        self.wall_s.pop()
        for column in self.waiting.values():
            column.pop()

    def as_json(self) -> dict[str, Any]:
        return {
            "game_time": [t.isoformat() for t in self.game_time],
            "wall_s": self.wall_s,
            **self.waiting,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Depths:
        return cls(
            game_time=[datetime.fromisoformat(t) for t in data["game_time"]],
            wall_s=list(data["wall_s"]),
            waiting={name: list(data[name]) for name in SERIES},
        )


def plot(depths: Depths, path: Path, *, title: str) -> None:
    """Jobs waiting against game time, one line per series, to a PNG."""
    import matplotlib

    matplotlib.use("Agg")  # files only: no display, no GUI toolkit
    import matplotlib.dates as mdates
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    figure, axes = plt.subplots(figsize=(9, 4.8))
    times = mdates.date2num(depths.game_time)
    for name in SERIES:
        style = "--" if name in ("in_flight", "outbox") else "-"
        axes.plot(times, depths.waiting[name], style, marker=".", label=LABELS[name])
    axes.set_xlabel("game time")
    axes.set_ylabel("jobs waiting")
    axes.set_ylim(0, max(1, *depths.peaks().values()) * 1.1)
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_title(title)
    axes.grid(alpha=0.3)
    axes.xaxis.set_major_locator(mdates.AutoDateLocator(maxticks=8))
    axes.xaxis.set_major_formatter(mdates.DateFormatter("%a %H:%M"))
    axes.legend(fontsize=8, loc="best")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def describe(backlog: Mapping[str, Any]) -> tuple[str, str]:
    """The report's two lines from `Backlog.as_json()`: where the backlog waits, and its share
    of the day's jobs."""
    queued = ", ".join(f"{q} {n:,}" for q, n in backlog["queued"].items())
    where = f"queued {queued}; in flight {backlog['in_flight']:,}; outbox {backlog['outbox']:,}"
    percent = backlog["percent"]
    share = "-" if percent is None else f"{percent:.2f} %"
    target = f"target ≤ {TARGET_PERCENT:g} %"
    return where, f"{backlog['total']:,} of {backlog['day_jobs']:,} jobs: {share} ({target})"
