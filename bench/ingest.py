"""Ingest benchmark: sustained observations/second through the HTTP API, and how soon a written
memory is visible to search (immediately, by design) and enriched by the worker.

    python -m bench.ingest [--seconds 20] [--clients 4] [--batch 500] [--agents 8]
                           [--defer-enrichment] [--embedder wordllama|hashing|local]

Starts a whole embedded stack with `hearth up` in a temporary HEARTH_HOME (PostgreSQL, Redis,
the API, a fast and a slow worker, beat), creates a world and agents, and then:

- load: `--clients` threads POST batches of `--batch` observations, round-robin over the
  agents, for `--seconds`; half the texts repeat from a pool (games repeat themselves), half
  are unique;
- visibility probes (during the load): POST one memory to a quiet probe agent, then search it
  with recency-only weights (the newest memory ranks first); time from the POST to the first
  search that returns it;
- enrichment probes: time from a probe's POST to the moment its row is embedded and scored;
- drain: after the load, time until the worker has enriched every memory written.

The workers share the machine with the API, so by default the figure is ingest *while*
enrichment runs. `--defer-enrichment` pauses the workers and beat (SIGSTOP) during the load and
resumes them for the drain: the API's own ingest capacity, then enrichment's own throughput.

Progress goes to stderr, the table to stdout. Figures depend on the machine; nothing asserts.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from bench.stack import DRAIN_TIMEOUT_S, drain, hearth_up, pause_or_resume, say, workers

PROBE_INTERVAL_S = 0.5
VISIBLE_ATTEMPTS = 20
POOL = [
    f"{who} is {what}"
    for who in ("Isabella", "Klaus", "Maria", "Sam", "Tom")
    for what in (
        "idle",
        "reading",
        "brewing coffee",
        "painting",
        "sleeping",
        "walking",
        "talking to a customer",
        "cleaning the counter",
    )
]
"""Repeated observations, as a game's perception sends every tick."""


@dataclass
class Figures:
    requests: list[float] = field(default_factory=list)
    written: int = 0
    visible: list[float] = field(default_factory=list)
    first_search: int = 0
    enriched: list[float] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    chosen = {"HEARTH_EMBEDDING_PROVIDER": args.embedder} if args.embedder else {}
    with (
        tempfile.TemporaryDirectory(prefix="hearth-bench-") as home,
        hearth_up(Path(home), settings=chosen) as api,
    ):
        base, headers, up = api
        agents, probe = _setup(base, headers, args.agents)
        paused = workers(up) if args.defer_enrichment else []
        pause_or_resume(paused, signal.SIGSTOP)
        figures = Figures()
        stop = threading.Event()
        probes = threading.Thread(target=_probe_loop, args=(base, headers, probe, figures, stop))
        probes.start()
        machine_load = os.getloadavg()
        started = time.monotonic()
        _load(base, headers, agents, figures, args, started)
        load_s = time.monotonic() - started
        pause_or_resume(paused, signal.SIGCONT)
        stop.set()
        probes.join()
        drain_s = drain(Path(home), started + load_s)
        _report(figures, args, load_s, drain_s, machine_load)
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bench.ingest",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--agents", type=int, default=8)
    parser.add_argument(
        "--embedder",
        choices=["wordllama", "hashing", "local"],
        help="HEARTH_EMBEDDING_PROVIDER for the stack (default: Hearth's default, wordllama)",
    )
    parser.add_argument(
        "--defer-enrichment",
        action="store_true",
        help="pause the workers during the load (API capacity alone)",
    )
    return parser


def _setup(base: str, headers: dict[str, str], count: int) -> tuple[list[str], str]:
    """A world, `count` load agents and one quiet probe agent; their memory URLs."""
    with httpx.Client(base_url=base, headers=headers, timeout=30) as client:
        world = client.post("/v1/worlds", json={"name": "Benchville"}).json()["id"]
        urls = []
        for i in range(count + 1):
            agent = client.post(f"/v1/worlds/{world}/agents", json={"name": f"Agent {i}"}).json()
            urls.append(f"/v1/worlds/{world}/agents/{agent['id']}/memories")
    return urls[:-1], urls[-1]


def _load(
    base: str,
    headers: dict[str, str],
    agents: list[str],
    figures: Figures,
    args: argparse.Namespace,
    started: float,
) -> None:
    deadline = started + args.seconds
    threads = [
        threading.Thread(
            target=_client, args=(base, headers, agents, figures, args.batch, deadline, n)
        )
        for n in range(args.clients)
    ]
    for thread in threads:
        thread.start()
    while any(t.is_alive() for t in threads):
        time.sleep(1.0)
        elapsed = time.monotonic() - started
        say(
            f"load {min(elapsed, args.seconds):5.1f}/{args.seconds:.0f} s  "
            f"{figures.written} memories  {figures.written / elapsed:,.0f}/s"
        )
    for thread in threads:
        thread.join()


def _client(
    base: str,
    headers: dict[str, str],
    agents: list[str],
    figures: Figures,
    batch: int,
    deadline: float,
    seed: int,
) -> None:
    rng = random.Random(seed)
    with httpx.Client(base_url=base, headers=headers, timeout=60) as client:
        n = 0
        while time.monotonic() < deadline:
            texts = [
                rng.choice(POOL) if rng.random() < 0.5 else f"client {seed} saw event {n + i}"
                for i in range(batch)
            ]
            n += batch
            sent = time.monotonic()
            body = {"memories": [{"description": t} for t in texts]}
            response = client.post(agents[n // batch % len(agents)], json=body)
            response.raise_for_status()
            with figures.lock:
                figures.requests.append(time.monotonic() - sent)
                figures.written += batch


def _probe_loop(
    base: str, headers: dict[str, str], url: str, figures: Figures, stop: threading.Event
) -> None:
    """Visibility probes every PROBE_INTERVAL_S; a second thread watches them get enriched."""
    pending: list[tuple[int, float]] = []
    done = threading.Event()
    watcher = threading.Thread(target=_watch, args=(base, headers, url, figures, pending, done))
    watcher.start()
    with httpx.Client(base_url=base, headers=headers, timeout=60) as client:
        n = 0
        while not stop.is_set():
            n += 1
            probe = _probe(client, url, n, figures)
            with figures.lock:
                pending.append(probe)
            time.sleep(PROBE_INTERVAL_S)
    done.set()
    watcher.join()


def _watch(
    base: str,
    headers: dict[str, str],
    url: str,
    figures: Figures,
    pending: list[tuple[int, float]],
    done: threading.Event,
) -> None:
    with httpx.Client(base_url=base, headers=headers, timeout=60) as client:
        while True:
            with figures.lock:
                waiting = list(pending)
            finished = {p for p in waiting if _enriched(client, url, p, figures)}
            with figures.lock:
                pending[:] = [p for p in pending if p not in finished]
                left = list(pending)
            if done.is_set() and (not left or time.monotonic() - left[0][1] > DRAIN_TIMEOUT_S):
                return
            time.sleep(0.1)


def _probe(client: httpx.Client, url: str, n: int, figures: Figures) -> tuple[int, float]:
    """Write one memory and search until it is the top result; (id, time written)."""
    sent = time.monotonic()
    written = client.post(url, json={"memories": [{"description": f"probe {n} rang the bell"}]})
    memory_id = written.json()["items"][0]["id"]
    query = {
        "query": f"probe {n} bell",
        "k": 1,
        "touch": False,
        "weights": {"recency": 1, "importance": 0, "relevance": 0},
    }
    for attempt in range(1, VISIBLE_ATTEMPTS + 1):
        results = client.post(f"{url}/search", json=query).json()["results"]
        if results and results[0]["id"] == memory_id:
            with figures.lock:
                figures.visible.append(time.monotonic() - sent)
                figures.first_search += attempt == 1
            break
    return memory_id, sent


def _enriched(client: httpx.Client, url: str, probe: tuple[int, float], figures: Figures) -> bool:
    memory_id, sent = probe
    memory = client.get(f"{url}/{memory_id}").json()
    if memory["embedded"] and memory["importance_scored"]:
        figures.enriched.append(time.monotonic() - sent)
        return True
    return False


def _report(
    figures: Figures,
    args: argparse.Namespace,
    load_s: float,
    drain_s: float | None,
    load: tuple[float, float, float],
) -> None:
    rate = figures.written / load_s
    enriched_rate = None
    if drain_s is not None:
        busy_s = drain_s if args.defer_enrichment else load_s + drain_s
        enriched_rate = figures.written / max(busy_s, 1e-9)
    rows = [
        ("cores", str(os.cpu_count())),
        ("clients × batch", f"{args.clients} × {args.batch}"),
        ("enrichment during the load", "paused" if args.defer_enrichment else "running"),
        ("embedder", args.embedder or "default (wordllama)"),
        ("load average (1 min) before / after", f"{load[0]:.1f} / {os.getloadavg()[0]:.1f}"),
        ("load", f"{load_s:.1f} s, {figures.written:,} memories"),
        ("ingest", f"{rate:,.0f} memories/s"),
        ("request latency p50 / p99", _quantiles(figures.requests)),
        ("write → search-visible p50 / p99", _quantiles(figures.visible)),
        (
            "found by the first search after the write",
            f"{figures.first_search} of {len(figures.visible)} probes",
        ),
        ("write → enriched p50 / p99 (probes under load)", _quantiles(figures.enriched)),
        ("drain after load", "timed out" if drain_s is None else f"{drain_s:.1f} s"),
        (
            "enrichment throughput (written ÷ time enriching)",
            "—" if enriched_rate is None else f"{enriched_rate:,.0f} memories/s",
        ),
    ]
    width = max(len(name) for name, _ in rows)
    print(f"\n{'figure'.ljust(width)}  value\n{'-' * width}  {'-' * 28}")
    for name, value in rows:
        print(f"{name.ljust(width)}  {value}")


def _quantiles(values: list[float]) -> str:
    if len(values) < 2:
        return "n/a"
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return f"{cuts[49] * 1000:,.0f} ms / {cuts[98] * 1000:,.0f} ms  (n={len(values)})"


if __name__ == "__main__":
    sys.exit(main())
