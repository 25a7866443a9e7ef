"""Step benchmark: the step route alone, in process, for a town of N agents.

    python -m bench.step [--agents 1000] [--steps 40] [--home DIR]

Starts an embedded PostgreSQL and Redis in a temporary folder (or `--home`), migrates, builds
the API in this process (FastAPI's TestClient: no network, no other process competing),
imports the generated town of `bench.scale_town`, gives every agent a day item that uses an
object (so each one is seen doing something), and posts steps as `bench.scale`'s game does —
every agent with its position, place and up to three perceptions — advancing the driven clock
3 game minutes between steps. After the first steps everything perceived is a repeat, so the
figures are the steady state of a busy town: validation, moves, the repeat check of every
(agent, subject) pair, current actions and the answer.

It prints, over the steps after two warm-up ones, the wall latency and the CPU time of this
process (client and server: the client's part is building and reading JSON) per step, p50 and
p99. CPU time does not depend on what else runs on the machine; wall time does. Nothing
asserts on time.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import uuid
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient

from bench import scale_game
from bench.scale_town import Town, generate
from bench.stack import say
from cognition.types import PlanItem, PlanLevel
from db import migrate
from db.embedded import EmbeddedPostgres
from db.queries.api_keys import generate_key, store_key
from db.queries.plans import save_items
from db.session import make_engine, make_session_factory, session_scope
from db.settings import Settings
from service.app import create_app
from workers.embedded_redis import EmbeddedRedis

START = datetime(2023, 2, 13, 8, 0)
WARM_UP = 2


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="hearth-step-") as scratch:
        home = Path(args.home or scratch)
        postgres, redis = EmbeddedPostgres(home / "postgres"), EmbeddedRedis(home / "redis")
        try:
            url = postgres.start()
            migrate.upgrade(url)
            settings = Settings(
                home=home,
                database_url=url,
                redis_url=redis.start(),
                rate_limit_per_minute=0,  # the step's capacity, not a key's allowance
                step_rate_limit_per_minute=0,
            )
            wall, cpu, perceived = _run(settings, generate(args.agents, seed=args.seed), args)
        finally:
            redis.stop()
            postgres.stop()
    print(
        f"\nstep of {args.agents} agents, {perceived:,} perceptions "
        f"({len(wall)} steps after {WARM_UP} warm-up)"
    )
    print(f"wall  p50 {_q(wall, 0.5):6.1f} ms   p99 {_q(wall, 0.99):6.1f} ms")
    print(f"CPU   p50 {_q(cpu, 0.5):6.1f} ms   p99 {_q(cpu, 0.99):6.1f} ms  (this process)")
    return 0


def _run(
    settings: Settings, town: Town, args: argparse.Namespace
) -> tuple[list[float], list[float], int]:
    engine = make_engine(str(settings.database_url))
    sessions = make_session_factory(engine)
    key = generate_key("admin")
    with session_scope(sessions) as session:
        store_key(session, key)
    headers = {"Authorization": f"Bearer {key}", "content-type": "application/json"}
    with TestClient(create_app(settings)) as client:
        clock = {"mode": "driven", "start": START.isoformat()}
        world = client.post(
            "/v1/worlds", json={"name": "Stepton", "clock": clock}, headers=headers
        ).json()["id"]
        residents = import_town(client, headers, world, town)
        with session_scope(sessions) as session:
            for resident in residents:
                stove = f"{resident.home}: kitchen: stove"
                item = PlanItem(
                    START - timedelta(hours=1),
                    12 * 60,
                    "cook a big breakfast",
                    stove,
                    object_state="cooking",
                )
                save_items(
                    session,
                    agent_id=uuid.UUID(resident.agent_id),
                    level=PlanLevel.DAY,
                    items=[item],
                )
        wall: list[float] = []
        cpu: list[float] = []
        actions: dict[str, Any] = {}
        last: dict[str, str] = {}
        perceived = 0
        for n in range(WARM_UP + args.steps):
            spots = scale_game.spots(residents, actions, town.coordinates, last)
            body = scale_game.step_body(spots)
            payload = json.dumps({"agents": body}).encode()
            started, used = time.perf_counter(), time.process_time()
            answer = client.post(f"/v1/worlds/{world}/step", content=payload, headers=headers)
            if n >= WARM_UP:
                wall.append((time.perf_counter() - started) * 1000)
                cpu.append((time.process_time() - used) * 1000)
            answer.raise_for_status()
            actions = {a["agent_id"]: a["action"] for a in answer.json()["agents"]}
            perceived = sum(len(a["perceived"]) for a in body)
            client.post(f"/v1/worlds/{world}/clock", json={"advance_minutes": 3}, headers=headers)
            if n % 10 == 9:
                say(f"{n + 1}/{WARM_UP + args.steps} steps, last {wall[-1] if wall else 0:.0f} ms")
    engine.dispose()
    return wall, cpu, perceived


def import_town(
    client: httpx.Client | TestClient, headers: dict[str, str], world: str, town: Town
) -> list[scale_game.Resident]:
    """The town's map and personas into `world` (through the API); its residents."""
    for at in range(0, len(town.personas), 500):
        pack = town.pack(at, at + 500, with_map=at == 0, relationships=False)
        client.post(
            f"/v1/worlds/{world}/personas/import", json=pack, headers=headers
        ).raise_for_status()
        say(f"imported {min(at + 500, len(town.personas))}/{len(town.personas)} personas")
    homes = {p["name"]: p["living_area"].split(":")[0] for p in town.personas}
    found, cursor = [], None
    while True:
        query = f"?limit=500&cursor={cursor}" if cursor else "?limit=500"
        page = client.get(f"/v1/worlds/{world}/agents{query}", headers=headers).json()
        found += [scale_game.Resident(a["id"], a["name"], homes[a["name"]]) for a in page["items"]]
        cursor = page.get("next_cursor")
        if not cursor:
            return found


def _q(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bench.step",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--agents", type=int, default=1000)
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--home", help="data folder (default: a temporary one)")
    return parser


if __name__ == "__main__":
    sys.exit(main())
