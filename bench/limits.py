"""What the two checks cost: a world's model budget before every model call, and a key's rate
limit before every request.

    python -m bench.limits [--calls 2000] [--processes 4]

Starts an embedded PostgreSQL and Redis in a temporary folder and migrates. Then times, in
this process:

- `admit` of a world's budget (`db.budget.MeteredAudit`): one short transaction — the windows'
  rows ensured, locked, counted — with a limit per game day, and with one per game day and
  one per wall hour;
- the same with `--processes` processes admitting at once for one world (they take turns on
  the rows' locks: the figure a busy world's calls pay);
- `wait` of a key's rate limit (`service.rate_limits.RateLimiter`): one Lua script in Redis.

It prints p50 and p99 per check in microseconds. A model call takes hundreds of milliseconds
and a request a few; nothing asserts on time. Progress goes to stderr, the table to stdout.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import redis

from bench.stack import say
from cognition.budget import Budget, Limits
from cognition.mind import ListAudit
from db import migrate
from db.budget import MeteredAudit
from db.embedded import EmbeddedPostgres
from db.models import World
from db.queries.worlds import wall_now
from db.session import make_engine, make_session_factory, session_scope
from service.rate_limits import DEFAULT, Allowance, RateLimiter
from workers.embedded_redis import EmbeddedRedis

START = datetime(2023, 2, 13, 7, 0)
DAY_ONLY = Budget(per_game_day=Limits(calls=10**9))
DAY_AND_HOUR = Budget(per_game_day=Limits(calls=10**9), per_wall_hour=Limits(cost_usd=10**6))


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="hearth-limits-") as home:
        postgres = EmbeddedPostgres(Path(home) / "postgres")
        server = EmbeddedRedis(Path(home) / "redis")
        try:
            url = postgres.start()
            migrate.upgrade(url)
            rows = _measure(url, server.start(), args)
        finally:
            server.stop()
            postgres.stop()
    print(f"\n{'check':<48} {'p50 µs':>9} {'p99 µs':>9}")
    for name, samples in rows:
        print(f"{name:<48} {_q(samples, 0.5):>9.0f} {_q(samples, 0.99):>9.0f}")
    return 0


def _measure(database_url: str, redis_url: str, args: argparse.Namespace) -> list[Any]:
    world = _world(database_url)
    rows = []
    for label, budget in (
        ("budget: a game day", DAY_ONLY),
        ("budget: a game day and an hour", DAY_AND_HOUR),
    ):
        say(f"{label}: {args.calls} admits")
        rows.append((label, _admits(database_url, world, budget, args.calls)))
    say(f"budget, {args.processes} processes at once: {args.calls} admits each")
    rows.append(
        (
            f"budget: a game day, {args.processes} processes at once",
            _contended(database_url, world, args),
        )
    )
    limiter = RateLimiter(redis.Redis.from_url(redis_url), {DEFAULT: Allowance(10**9, 10**9)})
    key = uuid.uuid4()
    say(f"rate limit: {args.calls} checks")
    rows.append(("rate limit: one key", _timed(lambda: limiter.wait(key, DEFAULT), args.calls)))
    return rows


def _world(database_url: str) -> uuid.UUID:
    engine = make_engine(database_url, pool_size=1)
    with session_scope(make_session_factory(engine)) as session:
        world = World(name="Bench", game_time=START)
        session.add(world)
        session.flush()
        world_id = world.id
    engine.dispose()
    return world_id


def _admits(database_url: str, world_id: uuid.UUID, budget: Budget, calls: int) -> list[float]:
    engine = make_engine(database_url, pool_size=1)
    meter = MeteredAudit(
        ListAudit(),
        sessions=make_session_factory(engine),
        world_id=world_id,
        budget=budget,
        game_time=START,
        clock=wall_now,
    )
    samples = _timed(lambda: meter.admit("bench"), calls)
    engine.dispose()
    return samples


def _timed(check: Callable[[], object], times: int) -> list[float]:
    samples = []
    for _ in range(times):
        started = time.perf_counter()
        check()
        samples.append((time.perf_counter() - started) * 1e6)
    return samples


def _one_process(database_url: str, world_id: uuid.UUID, calls: int, start: Any, out: Any) -> None:
    start.wait()
    out.put(_admits(database_url, world_id, DAY_ONLY, calls))


def _contended(database_url: str, world_id: uuid.UUID, args: argparse.Namespace) -> list[float]:
    context = multiprocessing.get_context("spawn")
    start, out = context.Barrier(args.processes), context.Queue()
    processes = [
        context.Process(target=_one_process, args=(database_url, world_id, args.calls, start, out))
        for _ in range(args.processes)
    ]
    for process in processes:
        process.start()
    samples = [s for _ in processes for s in out.get()]
    for process in processes:
        process.join()
    return samples


def _q(samples: list[float], q: float) -> float:
    return statistics.quantiles(samples, n=100)[round(q * 100) - 1]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bench.limits", description=__doc__)
    parser.add_argument("--calls", type=int, default=2000, help="checks per measurement")
    parser.add_argument("--processes", type=int, default=4, help="processes admitting at once")
    return parser


if __name__ == "__main__":
    sys.exit(main())
