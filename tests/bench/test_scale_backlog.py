"""`bench.scale_backlog`: the backlog at the end of the day and its share of the day's jobs,
CPU-seconds per agent-day by role, and the series of jobs waiting with its figure, from scrapes
built by hand."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from bench.prometheus import Scrape
from bench.scale_backlog import QUEUES, Depths, backlog, cpu_per_agent_day, describe, plot

Sample = tuple[str, float, dict[str, str]]


def scrape_of(*samples: Sample) -> Scrape:
    found = Scrape()
    for name, value, labels in samples:
        found.samples.setdefault(name, {})[frozenset(labels.items())] = value
    return found


def waiting(fast: float, slow: float, *, in_flight: float = 0, outbox: float = 0) -> Scrape:
    return scrape_of(
        ("hearth_queue_depth", fast, {"queue": "fast"}),
        ("hearth_queue_depth", slow, {"queue": "slow"}),
        ("hearth_jobs_in_flight", in_flight, {}),
        ("hearth_outbox_jobs", outbox, {}),
    )


def test_the_backlog_is_what_waits_anywhere_against_the_jobs_finished_not_retried() -> None:
    run = scrape_of(
        ("hearth_jobs_total", 1500, {"task": "hearth.decompose", "outcome": "success"}),
        ("hearth_jobs_total", 470, {"task": "hearth.converse_turn", "outcome": "success"}),
        ("hearth_jobs_total", 10, {"task": "hearth.decompose", "outcome": "failure"}),
        ("hearth_jobs_total", 500, {"task": "hearth.decompose", "outcome": "retry"}),
    )
    found = backlog(waiting(3, 12, in_flight=2, outbox=3), run)
    assert found.as_json() == {
        "queued": {"fast": 3, "slow": 12},
        "in_flight": 2,
        "outbox": 3,
        "total": 20,
        "day_jobs": 2000,
        "percent": 1.0,
    }
    assert describe(found.as_json()) == (
        "queued fast 3, slow 12; in flight 2; outbox 3",
        "20 of 2,000 jobs: 1.00 % (target ≤ 1 %)",
    )


def test_a_day_without_jobs_has_no_share_and_a_queue_not_scraped_counts_none() -> None:
    last = scrape_of(("hearth_queue_depth", 0, {"queue": "fast"}))
    found = backlog(last, Scrape())
    assert found.queued == {"fast": 0, "slow": 0} and found.percent is None
    assert describe(found.as_json())[1] == "0 of 0 jobs: - (target ≤ 1 %)"


def test_cpu_per_agent_day_divides_each_role_by_agents_times_the_share_of_a_day() -> None:
    roles = [
        {"role": "api", "cpu_s": 10.0},
        {"role": "worker-fast", "cpu_s": 25.0},
        {"role": "postgres", "cpu_s": 5.0},
    ]
    # 10 agents through 12 game hours are 5 agent-days
    assert cpu_per_agent_day(roles, agents=10, hours=12) == {
        "api": 2.0,
        "worker-fast": 5.0,
        "postgres": 1.0,
        "all": 8.0,
    }
    assert cpu_per_agent_day(roles, agents=0, hours=12) == {}
    assert cpu_per_agent_day(roles, agents=10, hours=0) == {}


def test_the_series_keeps_a_column_per_queue_a_sample_per_game_time_and_no_gaps() -> None:
    depths = Depths()
    depths.add(game_time=datetime(2023, 2, 13, 0, 0), wall_s=0.0, scrape=waiting(0, 0))
    depths.add(game_time=datetime(2023, 2, 13, 0, 30), wall_s=5.04, scrape=Scrape())
    depths.add(
        game_time=datetime(2023, 2, 13, 1, 0),
        wall_s=10.04,
        scrape=waiting(4, 40, in_flight=2, outbox=1),
    )
    depths.add(game_time=datetime(2023, 2, 13, 2, 0), wall_s=19.0, scrape=waiting(9, 9))
    # a later scrape at the same game time replaces the sample
    depths.add(game_time=datetime(2023, 2, 13, 2, 0), wall_s=20.0, scrape=waiting(1, 7))
    data = depths.as_json()
    assert data == {
        "game_time": ["2023-02-13T00:00:00", "2023-02-13T01:00:00", "2023-02-13T02:00:00"],
        "wall_s": [0.0, 10.0, 20.0],
        "fast": [0, 4, 1],
        "slow": [0, 40, 7],
        "in_flight": [0, 2, 0],
        "outbox": [0, 1, 0],
    }
    assert Depths.from_json(data) == depths
    assert depths.peaks() == {"fast": 4, "slow": 40, "in_flight": 2, "outbox": 1}
    assert depths.peaks(QUEUES) == {"fast": 4, "slow": 40}


def test_the_plot_of_a_series_is_written_as_a_png(tmp_path: Path) -> None:
    import matplotlib.image

    depths = Depths()
    for hour, (fast, slow) in enumerate([(0, 0), (5, 30), (2, 60), (0, 12)]):
        depths.add(
            game_time=datetime(2023, 2, 13, hour), wall_s=hour * 15.0, scrape=waiting(fast, slow)
        )
    path = tmp_path / "queues.png"
    plot(depths, path, title="Jobs waiting: 4 agents, 3 game hours in 1 min")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    height, width, _ = matplotlib.image.imread(path).shape
    assert (width, height) == (990, 528)  # 9 × 4.8 inches at 110 dpi
