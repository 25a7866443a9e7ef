"""Fair share under a burst: how long world B's requests take while world A's key bursts.

    python -m bench.fairness [--requests 150] [--streams 200] [--seconds 20]

Starts the stack as `hearth up` does (embedded PostgreSQL and Redis in a temporary HEARTH_HOME,
the API, the workers, beat; offline mind) with the deployed rate limits (not the benchmarks'
unlimited ones), makes two worlds with an agent each, and times world B's `GET …/agents/{a}`
one after the other: first idle, then while world A's key holds `--streams` event streams
open and `--requests` clients send `GET …/agents/{a}` as fast as they are answered (waiting
`Retry-After` when told to, as the SDKs do). It prints B's median, p99 and max against idle,
B's statuses, and A's (how many requests were served, how many 429 and why, how many streams
opened). Nothing asserts on time; `tests/service/test_key_slots.py` asserts the 429s.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from bench.stack import hearth_up, say

DEPLOYED_LIMITS = {
    "HEARTH_RATE_LIMIT_PER_MINUTE": "1200",
    "HEARTH_STEP_RATE_LIMIT_PER_MINUTE": "600",
}
TIMEOUT_S = 60.0
B_PAUSE_S = 0.05


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=150)
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--idle", type=int, default=100, help="B's requests timed idle")
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory(prefix="hearth-fairness-") as folder,
        hearth_up(Path(folder), settings=DEPLOYED_LIMITS) as (base, admin, _),
    ):
        asyncio.run(_run(base, admin, args))


async def _run(base: str, admin: dict[str, str], args: argparse.Namespace) -> None:
    limits = httpx.Limits(max_connections=args.requests + args.streams + 10)
    async with httpx.AsyncClient(base_url=base, timeout=TIMEOUT_S, limits=limits) as client:
        a_url, a_key = await _world(client, admin, "A")
        b_url, b_key = await _world(client, admin, "B")
        say(f"B idle: {args.idle} requests one after the other …")
        idle, _ = await _in_process(base, b_url, b_key, count=args.idle)
        stop = asyncio.Event()
        a_status: Counter[str] = Counter()
        say(f"A: {args.streams} streams and {args.requests} clients; B timed meanwhile …")
        streams = [
            asyncio.create_task(_stream(client, a_url, a_key, stop, a_status))
            for _ in range(args.streams)
        ]
        bursts = [
            asyncio.create_task(_burst(client, a_url, a_key, stop, a_status))
            for _ in range(args.requests)
        ]
        await asyncio.sleep(1.0)  # the burst under way
        loaded, b_status = await _in_process(base, b_url, b_key, seconds=args.seconds)
        stop.set()
        await asyncio.gather(*streams, *bursts, return_exceptions=True)
    _report(args, idle, loaded, b_status, a_status)


async def _world(
    client: httpx.AsyncClient, admin: dict[str, str], name: str
) -> tuple[str, dict[str, str]]:
    world = (await client.post("/v1/worlds", json={"name": name}, headers=admin)).json()
    key = {"Authorization": f"Bearer {world['api_key']}"}
    url = f"/v1/worlds/{world['id']}"
    agent = (await client.post(f"{url}/agents", json={"name": "Rosa"}, headers=key)).json()
    return f"{url}/agents/{agent['id']}", key


async def _in_process(
    base: str, url: str, key: dict[str, str], **until: Any
) -> tuple[list[float], Counter[str]]:
    """B's timings from a process of its own, so A's clients cannot delay B's client."""
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        latencies, statuses = await asyncio.to_thread(pool.apply, _time_b, (base, url, key), until)
    return latencies, Counter(statuses)


def _time_b(
    base: str,
    url: str,
    key: dict[str, str],
    *,
    count: int | None = None,
    seconds: float | None = None,
) -> tuple[list[float], dict[str, int]]:
    """B's latencies (ms), one request after another, for `count` requests or `seconds`."""
    latencies: list[float] = []
    statuses: Counter[str] = Counter()
    end = time.monotonic() + (seconds or 0.0)
    with httpx.Client(base_url=base, timeout=TIMEOUT_S) as client:
        while (count is not None and len(latencies) < count) or (
            seconds is not None and time.monotonic() < end
        ):
            began = time.perf_counter()
            try:
                statuses[str(client.get(url, headers=key).status_code)] += 1
            except httpx.HTTPError as exc:
                statuses[type(exc).__name__] += 1
            latencies.append((time.perf_counter() - began) * 1000)
            time.sleep(B_PAUSE_S)
    return latencies, dict(statuses)


async def _burst(
    client: httpx.AsyncClient,
    url: str,
    key: dict[str, str],
    stop: asyncio.Event,
    seen: Counter[str],
) -> None:
    while not stop.is_set():
        try:
            response = await client.get(url, headers=key)
        except httpx.HTTPError as exc:
            seen[f"request {type(exc).__name__}"] += 1
            continue
        code = response.json().get("error", {}).get("code", "") if response.is_error else ""
        seen[f"request {response.status_code} {code}".strip()] += 1
        if response.status_code == 429:
            await asyncio.sleep(float(response.headers.get("Retry-After", "1")))


async def _stream(
    client: httpx.AsyncClient,
    url: str,
    key: dict[str, str],
    stop: asyncio.Event,
    seen: Counter[str],
) -> None:
    events = url.split("/agents/")[0] + "/events"
    try:
        async with client.stream("GET", events, headers=key) as response:
            seen[f"stream {response.status_code}"] += 1
            if response.status_code != 200:
                return
            lines = response.aiter_lines()
            while not stop.is_set():
                try:
                    await asyncio.wait_for(anext(lines), timeout=0.5)
                except TimeoutError:
                    continue
    except (httpx.HTTPError, StopAsyncIteration) as exc:
        seen[f"stream {type(exc).__name__}"] += 1


def _report(
    args: argparse.Namespace,
    idle: list[float],
    loaded: list[float],
    b_status: Counter[str],
    a_status: Counter[str],
) -> None:
    def figures(values: list[float]) -> dict[str, Any]:
        ordered = sorted(values)
        p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
        return {"median": statistics.median(ordered), "p99": p99, "max": ordered[-1]}

    quiet, busy = figures(idle), figures(loaded)
    print(f"\nworld B, GET …/agents/{{a}}, one after another ({len(loaded)} under load)")
    print(f"{'':>8} {'median':>9} {'p99':>9} {'max':>9}")
    for name, row in (("idle", quiet), ("burst", busy)):
        print(f"{name:>8} {row['median']:>7.1f}ms {row['p99']:>7.1f}ms {row['max']:>7.1f}ms")
    print(f"median under the burst / idle: {busy['median'] / quiet['median']:.1f}×")
    print(f"B's answers under the burst: {dict(b_status)}")
    print(f"A ({args.requests} clients, {args.streams} streams): {dict(sorted(a_status.items()))}")


if __name__ == "__main__":
    main()
