"""Retrieval benchmark: the exact fast path against brute force, at 10k and 100k memories.

    python -m bench.retrieval [--rows 1000000] [--queries 200] [--home DIR]

Starts its own embedded PostgreSQL (in DIR, or a temporary folder), migrates it, builds a town
of `--rows` memories (one agent with 100k, one with 10k, the rest spread over other agents,
all interleaved in game-time order) unless DIR already holds the same town, then for both
agents times top-10 `search` over `--queries` queries twice (from the process's cache of the
agent's rows, the default, and in SQL only), checks every result against `rank` over all the
agent's memories, and times an in-process numpy brute force on the same queries (vectors
preloaded as a float32 matrix). Prints figures; never asserts on time.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import psycopg
import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from bench import retrieval_data as data
from bench.retrieval_numpy import NumpyIndex
from cognition.retrieval import rank
from cognition.types import Memory, RetrievalWeights, ScoredMemory
from db import migrate
from db.embedded import EmbeddedPostgres
from db.retrieval import SearchTrace, load_memories, search
from db.retrieval.vector_cache import VectorCache
from db.session import make_engine, make_session_factory

TARGET_SIZES = (100_000, 10_000)
K = 10
WARMUP_QUERIES = 10
QUERY_SEED = 2024
MARKER = "bench-retrieval.json"
PERCENTILE_P99 = 0.99
VERIFY_WORKERS = 2


@dataclass
class Series:
    """One way of searching, timed over the same queries."""

    mode: str
    """"cached" (the process's copy of the agent's rows, the default) or "sql"."""
    load: tuple[float, float]
    """The machine's 1-minute load average before and after the timed searches: other work
    on the same cores shows in the latencies."""
    first_ms: float
    """The first (warm-up) query: for "cached", it loads the agent's rows into memory."""
    latencies: list[float]
    cpu: list[float]
    """This process's CPU milliseconds per search (PostgreSQL's are not counted): steadier
    than wall time when other work shares the cores."""
    results: list[list[ScoredMemory]]
    traces: list[SearchTrace]
    exact: int = 0


@dataclass
class AgentReport:
    size: int
    series: list[Series]
    checked: int
    numpy_latencies: list[float]
    numpy_cpu: list[float]
    numpy_agrees: int


def main(argv: list[str] | None = None) -> None:
    args = _arguments(argv)
    home = Path(args.home) if args.home else Path(tempfile.mkdtemp(prefix="hearth-bench-"))
    server = EmbeddedPostgres(home / "postgres")
    url = _start(server, args.shared_buffers)
    try:
        town = data.build_town(args.seed, args.rows, TARGET_SIZES)
        _ensure_town(url, home, town, args)
        engine = make_engine(url, pool_size=2)
        sessions = make_session_factory(engine)
        reports = [
            _bench_agent(
                sessions, town, agent, args.queries, check=args.check, cache_mb=args.cache_mb
            )
            for agent in town.agents[: len(TARGET_SIZES)]
        ]
        _print(reports, args, home)
        engine.dispose()
    finally:
        server.stop()


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.retrieval",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--rows", type=int, default=1_000_000, help="memories in the town")
    parser.add_argument("--queries", type=int, default=200, help="timed queries per agent")
    parser.add_argument("--home", help="data folder to create or reuse (default: temporary)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--check",
        type=int,
        default=None,
        help="compare only the first N results with rank (default: all; each costs seconds "
        "at 100k memories: the reference is pure Python)",
    )
    parser.add_argument(
        "--cache-mb",
        type=int,
        default=512,
        help="the in-process cache of agents' rows (HEARTH_RETRIEVAL_CACHE_MB)",
    )
    parser.add_argument(
        "--shared-buffers",
        default="4GB",
        help="PostgreSQL shared_buffers ('' keeps the server default)",
    )
    args = parser.parse_args(argv)
    if args.rows < sum(TARGET_SIZES):
        parser.error(f"--rows must be at least {sum(TARGET_SIZES)}")
    return args


def _start(server: EmbeddedPostgres, shared_buffers: str) -> str:
    """Start, migrate, and size shared_buffers (a restart) as a deployment would."""
    url = server.start()
    migrate.upgrade(url)
    if not shared_buffers:
        return url
    engine = sa.create_engine(url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    with engine.connect() as conn:
        current = conn.execute(sa.text("SHOW shared_buffers")).scalar_one()
        if current.lower() != shared_buffers.lower():
            conn.execute(sa.text(f"ALTER SYSTEM SET shared_buffers = '{shared_buffers}'"))
            server.stop()
            url = server.start()
    engine.dispose()
    return url


def _ensure_town(url: str, home: Path, town: data.Town, args: argparse.Namespace) -> None:
    """Load the town unless the folder already holds this exact one (same rows and seed)."""
    marker = home / MARKER
    wanted = {"rows": args.rows, "seed": args.seed, "sizes": [a.size for a in town.agents]}
    if marker.exists() and json.loads(marker.read_text()) == wanted:
        print(f"reusing the town in {home}", file=sys.stderr)
        return
    raw = url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(raw) as conn:
        conn.execute("TRUNCATE memories, agents, worlds CASCADE")
        conn.commit()
        started = time.monotonic()
        data.load(conn, town)
        print(
            f"loaded {args.rows:,} memories in {time.monotonic() - started:.0f} s", file=sys.stderr
        )
    with psycopg.connect(raw, autocommit=True) as conn:
        print("vacuum analyze…", file=sys.stderr)
        conn.execute("VACUUM (ANALYZE) memories")
    marker.write_text(json.dumps(wanted))


def _bench_agent(
    sessions: sessionmaker[Session],
    town: data.Town,
    agent: data.Agent,
    count: int,
    *,
    check: int | None,
    cache_mb: int,
) -> AgentReport:
    queries = town.queries(agent, WARMUP_QUERIES + count, QUERY_SEED + agent.size)
    series = [
        _series(sessions, town, agent, queries, "cached", VectorCache.megabytes(cache_mb)),
        _series(sessions, town, agent, queries, "sql", False),
    ]
    with sessions() as session:
        memories = load_memories(session, agent_id=agent.id)
    timed = queries[WARMUP_QUERIES:]
    numpy_index = NumpyIndex(memories, town.now)
    numpy_latencies, numpy_cpu, numpy_ids = numpy_index.time(timed, RetrievalWeights(), K)
    checked = len(timed) if check is None else min(check, len(timed))
    expected = _expected(memories, timed[:checked], town.now, RetrievalWeights())
    for one in series:
        one.exact = sum(a == b for a, b in zip(one.results[:checked], expected, strict=True))
    agrees = sum(
        ids == [s.memory.id for s in r] for ids, r in zip(numpy_ids, series[0].results, strict=True)
    )
    return AgentReport(agent.size, series, checked, numpy_latencies, numpy_cpu, agrees)


def _series(
    sessions: sessionmaker[Session],
    town: data.Town,
    agent: data.Agent,
    queries: list[list[float]],
    mode: str,
    cache: VectorCache | bool,
) -> Series:
    """Every query once, after WARMUP_QUERIES untimed ones (the first loads the cache)."""
    latencies, cpu, results, traces, first_ms = [], [], [], [], 0.0
    load_before = os.getloadavg()[0]
    for index, query in enumerate(queries):
        trace = SearchTrace()
        with sessions() as session:
            started, cpu_started = time.perf_counter(), time.process_time()
            found = search(
                session,
                agent_id=agent.id,
                query_embedding=query,
                now=town.now,
                weights=RetrievalWeights(),
                k=K,
                trace=trace,
                cache=cache,
            )
            elapsed = (time.perf_counter() - started) * 1000.0
            used = (time.process_time() - cpu_started) * 1000.0
            session.commit()  # as a caller would after `touch`; a rollback would also drop
            # psycopg's prepared statements (it clears them on ROLLBACK)
        if index == 0:
            first_ms = elapsed
        if index >= WARMUP_QUERIES:
            results.append(found)
            latencies.append(elapsed)
            cpu.append(used)
            traces.append(trace)
        _progress(f"agent {agent.size:,}: search ({mode})", index + 1, len(queries))
    load = (load_before, os.getloadavg()[0])
    return Series(mode, load, first_ms, latencies, cpu, results, traces)


_SHARED: dict[str, Any] = {}


def _expected(
    memories: list[Memory],
    queries: list[list[float]],
    now: datetime,
    weights: RetrievalWeights,
) -> list[list[ScoredMemory]]:
    """`rank` over all the agent's memories for each query (in worker processes that inherit
    the memories by fork)."""
    _SHARED.update(memories=memories, now=now, weights=weights)
    context = multiprocessing.get_context("fork")
    with context.Pool(VERIFY_WORKERS) as pool:
        expected = []
        for i, ranked in enumerate(pool.imap(_reference, queries)):
            expected.append(ranked)
            _progress("  checking against rank", i + 1, len(queries))
    return expected


def _reference(query: list[float]) -> list[ScoredMemory]:
    return rank(
        _SHARED["memories"],
        query_embedding=query,
        now=_SHARED["now"],
        weights=_SHARED["weights"],
        k=K,
    )


def _progress(label: str, done: int, total: int) -> None:
    end = "\n" if done == total else ""
    print(f"\r{label}: {done}/{total}", end=end, file=sys.stderr, flush=True)


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _print(reports: list[AgentReport], args: argparse.Namespace, home: Path) -> None:
    print(
        f"\nretrieval benchmark: {args.rows:,} memories, top-{K}, {args.queries} queries "
        f"per agent, shared_buffers={args.shared_buffers or 'server default'}, cache "
        f"{args.cache_mb} MB, data in {home}"
    )
    header = (
        f"{'agent':>8} {'path':>6} | {'p50':>8} {'p99':>8} | {'first':>8} | {'exact':>6} | "
        f"{'numpy p50':>9} {'p99':>7} | {'p50 ratio':>9} | {'numpy=exact':>11}"
    )
    print(header)
    print("-" * len(header))
    for r in reports:
        numpy50 = statistics.median(r.numpy_latencies)
        numpy99 = _p(r.numpy_latencies, PERCENTILE_P99)
        for one in r.series:
            p50, p99 = statistics.median(one.latencies), _p(one.latencies, PERCENTILE_P99)
            print(
                f"{r.size:>8,} {one.mode:>6} | {p50:>5.2f} ms {p99:>5.2f} ms | "
                f"{one.first_ms:>5.0f} ms | {_share(one.exact, r.checked)} | "
                f"{numpy50:>6.2f} ms {numpy99:>4.2f} ms | {p50 / numpy50:>8.2f}× | "
                f"{100 * r.numpy_agrees / len(one.latencies):>10.1f}%"
            )
    print()
    for r in reports:
        print(
            f"agent {r.size:,} (numpy): this process's CPU p50 "
            f"{statistics.median(r.numpy_cpu):.2f} ms (every BLAS thread counted)"
        )
        for one in r.series:
            _print_details(r.size, one)


def _share(count: int, total: int) -> str:
    return "  n/a " if total == 0 else f"{100 * count / total:>5.1f}%"


def _print_details(size: int, one: Series) -> None:
    stages: dict[str, list[float]] = {}
    for t in one.traces:
        for name, ms in t.milliseconds.items():
            stages.setdefault(name, []).append(ms)
    parts = ", ".join(f"{name} {statistics.median(v):.2f}" for name, v in stages.items())
    paths = Counter(t.path for t in one.traces)
    cpu = statistics.median(one.cpu)
    print(
        f"agent {size:,} ({one.mode}): this process's CPU p50 {cpu:.2f} ms; median ms by "
        f"stage: {parts}; paths {dict(paths)}; load "
        f"average {one.load[0]:.2f} → {one.load[1]:.2f} on {os.cpu_count()} cores"
    )
    if one.mode == "sql":
        passes = Counter(t.passes for t in one.traces)
        print(
            f"  passes per query {dict(sorted(passes.items()))}; relevance estimate "
            f"{dict(Counter(t.relevance for t in one.traces))}; captured by the pass p50 "
            f"{statistics.median(t.captured for t in one.traces):.0f}, repaired p50 "
            f"{statistics.median(t.repaired for t in one.traces):.0f}"
        )
    print(f"  ranked exactly p50 {statistics.median(t.ranked for t in one.traces):.0f}")


if __name__ == "__main__":
    main()
