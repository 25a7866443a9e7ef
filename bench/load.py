"""Bounded load: N agents stepping M times from several clients at once, while the workers
enrich what they perceive and the sweep plans and announces their actions.

    python -m bench.load [--agents 200] [--steps 200] [--clients 4]

Starts the stack as `hearth up` does (embedded PostgreSQL and Redis in a temporary HEARTH_HOME,
the API, a fast and a slow worker, beat; offline mind), imports the generated town of
`bench.scale_town` into a world whose driven clock the clients move 3 game minutes a step, and
runs the steps: each client takes the next step number until M were sent, and posts every
agent — its place, position and what it perceives (`bench.scale_game`) — in an order of its
own (the first in id order, the second reversed, the others shuffled), so concurrent steps
write the same agents in different orders while enrichment adds to their reflection
accumulators and the sweep marks their actions: the mix that deadlocked before every writer
of many agents locked them in id order.

It prints the steps' wall latency (p50, p99, max), the errors (any answer but 200, or no
answer) by kind, the observations written, how many were enriched when the load ended, and
how long the workers took to enrich the rest.
Nothing asserts on time; `tests/proof/test_faults.py` runs a smaller load and asserts that
nothing failed.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from bench import scale_game
from bench.scale_town import generate
from bench.stack import drain, hearth_up, say
from bench.step import import_town
from cognition.types import PlanItem, PlanLevel
from db.embedded import EmbeddedPostgres
from db.queries.plans import save_items
from db.session import make_engine, make_session_factory

START = datetime(2023, 2, 13, 8, 0)
CLOCK_STEP_MIN = 3
REQUEST_TIMEOUT_S = 60.0
ROUTINE_BLOCK_MIN = 30
ROUTINE_HOURS = 12
ROUTINE = (
    ("cook a meal", "{home}: kitchen: stove", "cooking"),
    ("read at the desk", "{home}: bedroom: desk", None),
    ("sit on a bench in the park", "Riverside Park: lawn: bench", None),
    ("put the groceries away", "{home}: kitchen: refrigerator", "open"),
)
"""Each resident's day, in half-hour blocks starting at a different activity: actions change
as the clock moves, so residents keep perceiving something new and the workers keep enriching."""


@dataclass
class LoadReport:
    """What the clients saw: each step's latency (ms) and every error by kind."""

    latencies_ms: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    perceptions: int = 0

    def quantile(self, q: float) -> float:
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def run_load(
    base_url: str,
    headers: dict[str, str],
    sessions: sessionmaker[Session],
    *,
    agents: int,
    steps: int,
    clients: int,
    seed: int = 1,
) -> tuple[str, LoadReport]:
    """Import a town of `agents` into a new world, give each a routine, and step it `steps`
    times from `clients` threads at once; the world's id and what the clients saw."""
    town = generate(agents, seed=seed)
    with httpx.Client(base_url=base_url, headers=headers, timeout=REQUEST_TIMEOUT_S) as client:
        clock = {"mode": "driven", "start": START.isoformat()}
        created = client.post("/v1/worlds", json={"name": "Loadton", "clock": clock})
        created.raise_for_status()
        world = str(created.json()["id"])
        residents = import_town(client, headers, world, town)
    with sessions.begin() as session:
        for index, resident in enumerate(residents):
            items = routine(resident.home, offset=index)
            save_items(
                session, agent_id=uuid.UUID(resident.agent_id), level=PlanLevel.DAY, items=items
            )
    report, lock = LoadReport(), threading.Lock()
    numbers = iter(range(steps))

    def client_loop(index: int) -> None:
        order = sorted(residents, key=lambda r: r.agent_id)
        if index == 1:
            order.reverse()
        elif index > 1:
            random.Random(seed + index).shuffle(order)
        actions: dict[str, Any] = {}
        last: dict[str, str] = {}
        with httpx.Client(base_url=base_url, headers=headers, timeout=REQUEST_TIMEOUT_S) as http:
            while True:
                with lock:
                    n = next(numbers, None)
                if n is None:
                    return
                body = scale_game.step_body(
                    scale_game.spots(order, actions, town.coordinates, last)
                )
                started = time.perf_counter()
                kind, answer = _post(http, f"/v1/worlds/{world}/step", {"agents": body})
                elapsed = (time.perf_counter() - started) * 1000
                with lock:
                    report.latencies_ms.append(elapsed)
                    report.perceptions += sum(len(a["perceived"]) for a in body)
                    if kind:
                        report.errors[kind] += 1
                if answer is not None:
                    actions = {a["agent_id"]: a["action"] for a in answer["agents"]}
                clock = {"advance_minutes": CLOCK_STEP_MIN}
                kind, _ = _post(http, f"/v1/worlds/{world}/clock", clock)
                if kind:
                    with lock:
                        report.errors[f"clock {kind}"] += 1
                if n % 20 == 19:
                    say(f"step {n + 1}/{steps}: {elapsed:.0f} ms")

    threads = [threading.Thread(target=client_loop, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return world, report


def routine(home: str, *, offset: int) -> list[PlanItem]:
    """A day of half-hour blocks from an hour before the start, beginning at `offset`."""
    first = START - timedelta(hours=1)
    items = []
    for block in range(ROUTINE_HOURS * 60 // ROUTINE_BLOCK_MIN):
        what, where, state = ROUTINE[(offset + block) % len(ROUTINE)]
        at = first + timedelta(minutes=block * ROUTINE_BLOCK_MIN)
        items.append(
            PlanItem(at, ROUTINE_BLOCK_MIN, what, where.format(home=home), object_state=state)
        )
    return items


def _post(client: httpx.Client, path: str, body: dict[str, Any]) -> tuple[str, Any]:
    """("", the answer's JSON) on 200; else (what went wrong, None)."""
    try:
        answer = client.post(path, content=json.dumps(body).encode(), headers=_JSON)
    except httpx.HTTPError as exc:
        return type(exc).__name__, None
    if answer.status_code != 200:
        code = answer.json().get("error", {}).get("code", "?") if answer.content else "?"
        return f"{answer.status_code} {code}", None
    return "", answer.json()


_JSON = {"content-type": "application/json"}


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="hearth-load-") as scratch:
        home = Path(args.home or scratch)
        with hearth_up(home) as (base, headers, _), database(home) as sessions:
            started = time.monotonic()
            world, report = run_load(
                base, headers, sessions, agents=args.agents, steps=args.steps, clients=args.clients
            )
            ended = time.monotonic()
            written, enriched = observations(sessions, world)
            drained = drain(home, ended)
    print(
        f"\nload: {args.agents} agents, {len(report.latencies_ms)} steps from {args.clients} "
        f"clients in {ended - started:.0f} s, {report.perceptions:,} perceptions reported"
    )
    print(
        f"step  p50 {report.quantile(0.5):6.1f} ms   p99 {report.quantile(0.99):6.1f} ms   "
        f"max {max(report.latencies_ms, default=0):6.1f} ms"
    )
    print(f"errors: {sum(report.errors.values())} {dict(report.errors) or ''}")
    print(f"observations: {written:,} written, {enriched:,} enriched when the load ended")
    print(
        "enrichment caught up "
        + (f"{drained:.0f} s after the load" if drained is not None else "(timed out)")
    )
    return 1 if report.errors else 0


@contextmanager
def database(home: Path) -> Iterator[sessionmaker[Session]]:
    """Sessions on the stack's embedded PostgreSQL (joined, not started again)."""
    postgres = EmbeddedPostgres(home / "postgres")
    engine = make_engine(postgres.start(), pool_size=2)
    try:
        yield make_session_factory(engine)
    finally:
        engine.dispose()
        postgres.stop()


def observations(sessions: sessionmaker[Session], world: str) -> tuple[int, int]:
    """(written, enriched) observations of the world."""
    counts = sa.text(
        "SELECT count(*), count(*) FILTER (WHERE embedding IS NOT NULL AND importance_scored) "
        "FROM memories WHERE world_id = :world AND kind = 'observation'"
    )
    with sessions() as session:
        written, enriched = session.execute(counts, {"world": world}).one()
    return int(written), int(enriched)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bench.load",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--agents", type=int, default=200)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--home", help="data folder (default: a temporary one)")
    return parser


if __name__ == "__main__":
    sys.exit(main())
