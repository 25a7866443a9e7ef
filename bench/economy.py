"""Economy benchmark: model calls and tokens per agent per game day, by operation.

    python -m bench.economy [--agents 25] [--hours 24] [--step-minutes 10] [--profile economy|paper]

Runs a town (`bench.town`) for a game day with every agent-loop feature on — perception with
importance scoring, reflection at 150, day outlines, just-in-time hour and task decomposition,
react-or-continue with re-planning, two-agent conversations, relationship updates, summaries —
with the LLM mind pointed at the counting fake OpenAI-compatible server, which answers each
operation as the offline heuristics would (`bench.responder`). Everything runs in process on an
embedded PostgreSQL: each step sets the game clock, runs the beat sweep, posts what every agent
perceives (the others in the same area and the objects they use) to the real step route, and
runs every job that work queued (`workers.local_queue.LocalDispatch`) until none is left.

Figures come from the audit (`llm_calls`): calls answered by the model, their tokens, and the
calls the offline heuristics answered instead (free). Progress goes to stderr, the table to
stdout. The economy profile's target is at most 100 model calls per agent-day; the paper
profile (every call the paper's architecture makes) is measured beside the paper's reference
code, which spends about 1,300.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session, sessionmaker

from bench.responder import OfflineResponder
from bench.town import RESIDENTS, Resident, seed_memories, town_map
from cognition.places import flatten_map
from cognition.types import MemoryKind, MemorySource, NewMemory
from db import jobs, migrate, outbox
from db.embedded import EmbeddedPostgres
from db.jobs import Job
from db.models import LlmCall, Plan, World
from db.queries.agents import create_agent
from db.queries.api_keys import generate_key, store_key
from db.queries.memories import add_memories
from db.queries.places import apply_map, learn_places, world_places
from db.queries.step import current_actions
from db.queries.worlds import create_world, set_clock
from db.settings import Settings
from service.app import create_app
from tests.fakes.openai_server import FakeOpenAI
from workers.local_queue import LocalDispatch, drain
from workers.runtime import build_runtime, set_runtime
from workers.tasks.sweep import sweep_worlds

START = datetime(2023, 2, 13, 0, 0)
"""Midnight: every agent makes exactly one outline in the game day measured (an outline starts
at wake-up, or at midnight for night owls, and lasts 24 hours)."""
MODEL = "bench-model"
ATTENTION_BANDWIDTH = 3
"""Events an agent attends to per step: the reference implementation's `att_bandwidth`."""
TARGET_CALLS = 100
REFERENCE_CALLS = 1300


class LocalCelery:
    """What the API's `app.state.celery` is asked for (`send_task`), queued in process."""

    def __init__(self, dispatch: LocalDispatch) -> None:
        self.dispatch = dispatch

    def send_task(
        self, name: str, args: Sequence[Any], task_id: str | None = None, **_: Any
    ) -> None:
        self.dispatch.send(Job(name, tuple(args), task_id))


@dataclass
class Run:
    world_id: Any
    agents: dict[Any, Resident]
    headers: dict[str, str]
    jobs: Counter[str]


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    residents = RESIDENTS[: args.agents]
    with tempfile.TemporaryDirectory(prefix="hearth-economy-") as home:
        postgres = EmbeddedPostgres(Path(home) / "postgres")
        postgres.start()
        try:
            migrate.upgrade(postgres.url)
            with FakeOpenAI(chat_responder=OfflineResponder(year=START.year)) as fake:
                settings = Settings(
                    home=Path(home),
                    database_url=postgres.url,
                    redis_url="redis://127.0.0.1:1/0",
                    rate_limit_per_minute=0,  # no Redis here: nothing to count requests in
                    step_rate_limit_per_minute=0,
                    llm_base_url=fake.base_url,
                    llm_model=MODEL,
                    llm_api_key="bench",
                    llm_fallback=False,
                    llm_cheap_operations=args.cheap_operations,
                    profile=args.profile,
                )
                figures = _simulate(settings, residents, args)
                served = fake.calls()
        finally:
            postgres.stop()
    _report(figures, residents, args, served)
    return 0


def _simulate(
    settings: Settings, residents: list[Resident], args: argparse.Namespace
) -> dict[str, Any]:
    dispatch = LocalDispatch()
    runtime = replace(build_runtime(settings), dispatch=dispatch)
    set_runtime(runtime)
    app = create_app(settings)
    try:
        with TestClient(app) as client:
            app.state.celery = LocalCelery(dispatch)
            app.state.outbox.stop()  # the bench relays what requests stage, in order (`_drain`)
            run = _setup(runtime.sessions, residents, dispatch)
            before = _audit(runtime.sessions)
            started, steps = time.monotonic(), int(args.hours * 60 // args.step_minutes)
            for n in range(steps):
                now = START + timedelta(minutes=n * args.step_minutes)
                _step(runtime.sessions, client, run, dispatch, now)
                if n % 6 == 0:
                    _progress(runtime.sessions, run, now, started)
            return {
                "usage": _since(_audit(runtime.sessions), before),
                "jobs": run.jobs,
                "plans": _plan_counts(runtime.sessions),
                "wall_s": time.monotonic() - started,
            }
    finally:
        set_runtime(None)
        runtime.engine.dispose()


def _setup(
    sessions: sessionmaker[Session], residents: list[Resident], dispatch: LocalDispatch
) -> Run:
    key = generate_key("admin")
    with sessions.begin() as session:
        store_key(session, key)
        world = create_world(session, name="Smallville", start=START)
        apply_map(session, world_id=world.id, specs=flatten_map(town_map(residents)))
        places = world_places(session, world.id)
        agents: dict[Any, Resident] = {}
        seeds: list[int] = []
        for resident in residents:
            agent = create_agent(
                session,
                world_id=world.id,
                fields={**resident.persona(), "place": f"{resident.home}: bedroom"},
            )
            agents[agent.id] = resident
            mine = [
                p
                for p in places
                if p.path.split(":")[0].strip() == resident.home or "'s house" not in p.path
            ]
            learn_places(session, agent_ids=[agent.id], places=mine, at=START)
            rows = add_memories(
                session,
                world_id=world.id,
                agent_id=agent.id,
                now=START,
                items=[
                    NewMemory(description=text, kind=MemoryKind.SEED, source=MemorySource.ADMIN)
                    for text in seed_memories(resident, residents)
                ],
            )
            seeds += [row.id for row in rows]
        world_id = world.id
    dispatch.send(jobs.enrich_memories(seeds))
    run = Run(
        world_id=world_id, agents=agents, headers={"Authorization": f"Bearer {key}"}, jobs=Counter()
    )
    _drain(sessions, dispatch, run)
    return run


def _step(
    sessions: sessionmaker[Session],
    client: TestClient,
    run: Run,
    dispatch: LocalDispatch,
    now: datetime,
) -> None:
    with sessions.begin() as session:
        set_clock(session, session.get_one(World, run.world_id), to=now)
    sweep_worlds()
    _drain(sessions, dispatch, run)
    body = {"agents": _perceptions(sessions, run, now)}
    response = client.post(f"/v1/worlds/{run.world_id}/step", json=body, headers=run.headers)
    if response.status_code != 200:
        raise RuntimeError(f"step failed: {response.status_code} {response.text}")
    _drain(sessions, dispatch, run)


def _perceptions(sessions: sessionmaker[Session], run: Run, now: datetime) -> list[dict[str, Any]]:
    """Where each agent is (its current action's place), and what it sees in its area: the
    other agents there, doing what their plans say, and the objects they use — at most
    ATTENTION_BANDWIDTH of them, nearest (same room) first, as the paper's agents attend."""
    with sessions() as session:
        doing = current_actions(session, list(run.agents), now)
    where: dict[Any, str] = {a: f"{r.home}: bedroom" for a, r in run.agents.items()}
    where |= {a: plan.location for a, plan in doing.items() if plan.location}
    steps = []
    for agent_id in run.agents:
        here = _path(where[agent_id])
        near: list[tuple[int, dict[str, str]]] = []
        for other_id, other in run.agents.items():
            plan, there = doing.get(other_id), _path(where[other_id])
            if other_id == agent_id or plan is None or there[:1] != here[:1]:
                continue
            room = 0 if there[:2] == here[:2] else 1
            near.append((room, {"kind": "agent", "subject": other.name, "state": plan.description}))
            if plan.object_state and len(there) >= 3:
                near.append(
                    (
                        room,
                        {"kind": "object", "subject": where[other_id], "state": plan.object_state},
                    )
                )
        seen = [event for _, event in sorted(near, key=lambda n: n[0])][:ATTENTION_BANDWIDTH]
        steps.append({"agent_id": str(agent_id), "place": where[agent_id], "perceived": seen})
    return steps


def _path(place: str) -> list[str]:
    return [part.strip() for part in place.split(":")]


def _drain(sessions: sessionmaker[Session], dispatch: LocalDispatch, run: Run) -> None:
    """Send what requests staged (`db.outbox`), then run every job, until neither is left."""

    def send(job: Job) -> None:
        dispatch.send(job)

    while outbox.relay(sessions, send) or drain(dispatch, ran=run.jobs):
        pass


Usage = dict[tuple[str, str], tuple[int, int, int]]


def _audit(sessions: sessionmaker[Session]) -> Usage:
    """Calls, tokens in and tokens out so far, by (operation, model)."""
    with sessions() as session:
        rows = session.execute(
            sa.select(
                LlmCall.operation,
                LlmCall.model,
                sa.func.count(),
                sa.func.sum(LlmCall.tokens_in),
                sa.func.sum(LlmCall.tokens_out),
            ).group_by(LlmCall.operation, LlmCall.model)
        )
        return {(op, model): (int(n), int(i or 0), int(o or 0)) for op, model, n, i, o in rows}


def _since(after: Usage, before: Usage) -> Usage:
    zero = (0, 0, 0)
    diff: Usage = {}
    for key, (calls, t_in, t_out) in after.items():
        was = before.get(key, zero)
        diff[key] = (calls - was[0], t_in - was[1], t_out - was[2])
    return diff


def _plan_counts(sessions: sessionmaker[Session]) -> dict[str, int]:
    with sessions() as session:
        rows = session.execute(sa.select(Plan.level, sa.func.count()).group_by(Plan.level))
        return {level: int(n) for level, n in rows}


def _progress(sessions: sessionmaker[Session], run: Run, now: datetime, started: float) -> None:
    with sessions() as session:
        calls = session.scalar(sa.select(sa.func.count()).where(LlmCall.model == MODEL)) or 0
    print(
        f"{now:%H:%M}  model calls so far {calls:6d}  jobs {sum(run.jobs.values()):6d}  "
        f"wall {time.monotonic() - started:6.0f} s",
        file=sys.stderr,
        flush=True,
    )


def _report(
    figures: dict[str, Any], residents: list[Resident], args: argparse.Namespace, served: int
) -> None:
    usage: Usage = figures["usage"]
    per = len(residents) * (args.hours / 24)  # agent-days
    model = {op: u for (op, m), u in usage.items() if m == MODEL and u[0]}
    offline = {op: u[0] for (op, m), u in usage.items() if m != MODEL and u[0]}
    total = sum(u[0] for u in model.values())
    print(
        f"Economy: {len(residents)} agents, {args.hours:g} game hours in steps of "
        f"{args.step_minutes} min, profile {args.profile}; LLM mind against the counting "
        f"fake server ({figures['wall_s']:.0f} s wall)\n"
    )
    print(
        f"{'operation':<22}{'calls/agent-day':>16}{'tokens in':>12}{'tokens out':>12}"
        f"{'offline/agent-day':>19}"
    )
    for op in sorted(set(model) | set(offline), key=lambda o: -model.get(o, (0, 0, 0))[0]):
        calls, t_in, t_out = model.get(op, (0, 0, 0))
        print(
            f"{op:<22}{calls / per:>16.1f}{t_in / per:>12.0f}{t_out / per:>12.0f}"
            f"{offline.get(op, 0) / per:>19.1f}"
        )
    t_in = sum(u[1] for u in model.values())
    t_out = sum(u[2] for u in model.values())
    print(
        f"{'total':<22}{total / per:>16.1f}{t_in / per:>12.0f}{t_out / per:>12.0f}"
        f"{sum(offline.values()) / per:>19.1f}"
    )
    if args.profile == "economy":  # the paper profile is the reference's shape, not a target
        verdict = "met" if total / per <= TARGET_CALLS else "MISSED"
        judged = f"target <= {TARGET_CALLS}: {verdict}"
    else:
        judged = f"the economy profile's target <= {TARGET_CALLS} does not apply"
    print(
        f"\nmodel calls per agent-day: {total / per:.1f} ({judged}; "
        f"the reference implementation: ~{REFERENCE_CALLS})"
    )
    print(f"requests the fake server answered (setup included): {served}")
    print(f"jobs run: {dict(sorted(figures['jobs'].items()))}")
    print(f"plan rows: {figures['plans']}")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bench.economy", description=__doc__)
    parser.add_argument(
        "--agents",
        type=int,
        default=25,
        choices=range(1, len(RESIDENTS) + 1),
        metavar=f"1..{len(RESIDENTS)}",
    )
    parser.add_argument("--hours", type=float, default=24.0)
    parser.add_argument(
        "--profile",
        choices=("economy", "paper"),
        default="economy",
        help="HEARTH_PROFILE: economy (frugal gates, the default) or paper (every call asked)",
    )
    parser.add_argument("--step-minutes", type=int, default=10)
    parser.add_argument(
        "--cheap-operations",
        default=Settings.model_fields["llm_cheap_operations"].default,
        help="operations the offline heuristics answer (HEARTH_LLM_CHEAP_OPERATIONS); "
        '"" sends every operation to the model',
    )
    return parser


if __name__ == "__main__":
    raise SystemExit(main())
