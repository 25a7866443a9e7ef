"""Faults through the real stack: `hearth up` (API, two workers, beat) on a PostgreSQL and a Redis
the test owns, with a model that fails 30 % of its requests (500, 429, or a slow answer) and
no offline fallback. Each scenario kills something with SIGKILL under traffic and starts it
again (or lets `hearth up` restart it), then waits for the world to settle and checks:

- every write the API acknowledged is stored exactly once (none lost, none duplicated);
- every memory is enriched in the end (an embedding and the model's importance);
- one reflection per threshold crossing: each agent's runs are 1…n, all done, n counted on
  the agent, and no agent is left above the threshold;
- while a dependency is down the API answers 503 `unavailable` with the envelope, the request
  id and `Retry-After` — never a 500 — and writes while Redis is down answer at once;
- nothing is repaired by hand: the test only restarts what it killed.

Last, a bounded load (many agents stepping from several clients while the workers run) answers
every step without an error.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from bench.load import observations, run_load
from bench.responder import OfflineResponder, Override, Prompt
from db import outbox
from db.models import Agent, LlmCall, Memory, ReflectionRun
from tests.fakes.openai_server import FakeOpenAI, Flaky
from tests.polling import wait_until
from tests.proof.fault_stack import ADMIN, FaultStack, fault_stack

FAULT_RATE = 0.3
VISIBILITY_TIMEOUT_S = 5
"""Short, so a killed worker's job comes back within the test (60 s by default)."""
IMPORTANCE = 7
"""Every memory's score from the model: 22 observations cross the threshold of 150."""
THRESHOLD = 150
SETTLE_S = 240.0
LOAD_AGENTS = 40
LOAD_STEPS = 40
WRITE_TIMEOUT_S = 8.0
"""A write while Redis is down answers well within this (it stalled ~19 s)."""


class Gate:
    """Holds the first insights request made while armed until released: a reflection stuck
    mid-run, for a worker to be killed under it."""

    def __init__(self) -> None:
        self.armed = False
        self.held = threading.Event()
        self.release = threading.Event()

    def wrap(self, answer: Override) -> Override:
        def held_once(prompt: Prompt) -> Any:
            if self.armed and not self.held.is_set():
                self.held.set()
                self.release.wait(timeout=120)
            return answer(prompt)

        return held_once


@dataclass
class Ledger:
    """What the API said to one scenario's writes."""

    acknowledged: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    unavailable: list[httpx.Response] = field(default_factory=list)
    unexpected: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


@dataclass
class World:
    id: str
    agents: list[str]
    headers: dict[str, str]


@pytest.fixture(scope="module")
def gate() -> Gate:
    return Gate()


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory, gate: Gate) -> Iterator[FaultStack]:
    responder = OfflineResponder(year=2023)
    responder.overrides["rate_importance"] = _fixed_importance
    responder.overrides["insights"] = gate.wrap(responder.insights)
    flaky = Flaky(FAULT_RATE, seed=14)
    home: Path = tmp_path_factory.mktemp("faults")
    with (
        FakeOpenAI(chat_responder=responder, faults=flaky) as model,
        fault_stack(home, model, visibility_timeout_s=VISIBILITY_TIMEOUT_S) as running,
    ):
        yield running
    print(f"\nfaults: the model failed {flaky.injected} of {model.calls()} requests")


def test_the_model_failing_30_percent_loses_and_repeats_nothing(stack: FaultStack) -> None:
    world, ledger = _world(stack, agents=2), Ledger()
    for agent in world.agents:
        for batch in range(3):
            _write(stack, world, agent, _texts(agent, batch, 10), ledger)
    _settle(stack, world)
    _check(stack, world, ledger, crossings_at_least=1)
    assert stack.model.faults is not None


def test_redis_killed_writes_answer_at_once_and_their_jobs_run_when_it_is_back(
    stack: FaultStack,
) -> None:
    world, ledger = _world(stack, agents=2), Ledger()
    before, during = world.agents
    _write(stack, world, before, _texts(before, 0, 15), ledger)
    stack.redis.kill()
    try:
        for batch in range(2):
            _write(stack, world, during, _texts(during, batch, 15), ledger, retry=False)
        with stack.sessions() as session:
            assert outbox.waiting(session) > 0  # committed; their jobs wait for Redis
    finally:
        stack.redis.start()
    _write(stack, world, before, _texts(before, 1, 15), ledger)
    _settle(stack, world)
    _check(stack, world, ledger, crossings_at_least=2)


def test_postgres_killed_answers_503_and_everything_resumes_after_it_restarts(
    stack: FaultStack,
) -> None:
    world, ledger = _world(stack, agents=2), Ledger()
    stop = threading.Event()
    writers = [
        threading.Thread(target=_keep_writing, args=(stack, world, agent, ledger, stop))
        for agent in world.agents
    ]
    for writer in writers:
        writer.start()
    try:
        wait_until(lambda: _acknowledged(ledger) >= 20, "writes before the kill", timeout_s=60)
        stack.postgres.kill()
        wait_until(lambda: bool(ledger.unavailable), "a 503 while PostgreSQL is down")
        stack.postgres.start()
        settled_at = _acknowledged(ledger)
        wait_until(lambda: _acknowledged(ledger) >= settled_at + 20, "writes after the restart")
    finally:
        stop.set()
        for writer in writers:
            writer.join(60)
    for answer in ledger.unavailable:
        error = answer.json()["error"]
        assert error["code"] == "unavailable", error
        assert error["request_id"] == answer.headers["x-request-id"]
        assert int(answer.headers["retry-after"]) > 0
    _settle(stack, world)
    _check(stack, world, ledger, crossings_at_least=1)


def test_a_worker_killed_mid_reflection_reflects_once_and_its_call_is_audited(
    stack: FaultStack, gate: Gate
) -> None:
    world, ledger = _world(stack, agents=1), Ledger()
    [agent] = world.agents
    gate.armed = True
    try:
        _write(stack, world, agent, _texts(agent, 0, 25), ledger)
        assert gate.held.wait(timeout=120), "no reflection reached its insights"
        killed = stack.kill_child("worker-slow")
        with stack.sessions() as session:
            unfinished = session.scalars(
                sa.select(LlmCall.operation).where(
                    LlmCall.agent_id == uuid.UUID(agent), LlmCall.finished_at.is_(None)
                )
            ).all()
        assert "insights" in unfinished  # the killed call was written before it was made
    finally:
        gate.armed = False
        gate.release.set()
    stack.wait_restarted("worker-slow", killed)
    _settle(stack, world)
    _check(stack, world, ledger, crossings_at_least=1)


def test_the_api_killed_mid_batch_stores_every_batch_exactly_once(stack: FaultStack) -> None:
    world, ledger = _world(stack, agents=3), Ledger()
    writers = [
        threading.Thread(
            target=lambda a=agent: [
                _write(stack, world, a, _texts(a, n, 5), ledger) for n in range(8)
            ]
        )
        for agent in world.agents
    ]
    for writer in writers:
        writer.start()
    wait_until(lambda: _acknowledged(ledger) >= 20, "writes before the kill", timeout_s=60)
    killed = stack.kill_child("api")
    stack.wait_restarted("api", killed)
    for writer in writers:
        writer.join(120)
    assert _acknowledged(ledger) == 3 * 8 * 5
    _settle(stack, world)
    _check(stack, world, ledger, crossings_at_least=1)
    assert any("api exited with code -9" in line for line in stack.output)


def test_a_bounded_load_steps_without_an_error(stack: FaultStack) -> None:
    """40 agents stepping 40 times from 3 clients at once, each posting them in its own order,
    while the workers enrich what they perceive (the model failing 30 %) and the sweep marks
    their actions: not one error (`python -m bench.load` runs 200 × 200 and prints figures)."""
    world, report = run_load(
        stack.base_url, ADMIN, stack.sessions, agents=LOAD_AGENTS, steps=LOAD_STEPS, clients=3
    )
    written, _ = observations(stack.sessions, world)
    print(
        f"\nload: {len(report.latencies_ms)} steps of {LOAD_AGENTS} agents, {written} "
        f"observations, errors {dict(report.errors)}"
    )
    assert not report.errors
    assert len(report.latencies_ms) == LOAD_STEPS
    assert written > LOAD_AGENTS  # the steps kept the workers busy


def _fixed_importance(prompt: Prompt) -> dict[str, Any]:
    memories = prompt.numbered("memories")
    ratings = [{"memory": n, "rating": IMPORTANCE} for n in range(1, len(memories) + 1)]
    return {"ratings": ratings}


def _texts(agent: str, batch: int, count: int) -> list[str]:
    return [
        f"Observation {batch}.{n} of {agent[:8]}: the bakery smells of bread" for n in range(count)
    ]


def _world(stack: FaultStack, *, agents: int) -> World:
    with httpx.Client(base_url=stack.base_url, headers=ADMIN, timeout=30) as client:
        created = client.post(
            "/v1/worlds",
            json={
                "name": f"Faults {uuid.uuid4().hex[:6]}",
                "clock": {"mode": "driven", "start": "2023-02-13T07:00:00"},
            },
        )
        assert created.status_code == 201, created.text
        world = created.json()
        headers = {"Authorization": f"Bearer {world['api_key']}"}
        ids = []
        for n in range(agents):
            agent = client.post(
                f"/v1/worlds/{world['id']}/agents",
                json={"name": f"Agent {n}", "age": 30, "innate": "curious"},
                headers=headers,
            )
            assert agent.status_code == 201, agent.text
            ids.append(agent.json()["id"])
    return World(world["id"], ids, headers)


def _write(
    stack: FaultStack,
    world: World,
    agent: str,
    texts: list[str],
    ledger: Ledger,
    *,
    retry: bool = True,
) -> None:
    """Write a batch under one Idempotency-Key, again after a dropped connection or a 503."""
    url = f"{stack.base_url}/v1/worlds/{world.id}/agents/{agent}/memories"
    headers = world.headers | {"Idempotency-Key": uuid.uuid4().hex}
    body = {"memories": [{"description": text} for text in texts]}
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            answer = httpx.post(url, json=body, headers=headers, timeout=WRITE_TIMEOUT_S)
        except httpx.TransportError:
            assert retry, "a write did not answer in time"
            time.sleep(0.2)
            continue
        with ledger.lock:
            if answer.status_code == 201:
                ledger.acknowledged[agent].extend(texts)
                return
            if answer.status_code == 503:
                ledger.unavailable.append(answer)
            else:
                ledger.unexpected.append(f"{answer.status_code} {answer.text[:200]}")
        assert retry and answer.status_code == 503, answer.text
        time.sleep(0.2)
    pytest.fail("a write was not acknowledged within 180 s")


def _keep_writing(
    stack: FaultStack, world: World, agent: str, ledger: Ledger, stop: threading.Event
) -> None:
    batch = 0
    while not stop.is_set():
        _write(stack, world, agent, _texts(agent, batch, 5), ledger)
        batch += 1


def _acknowledged(ledger: Ledger) -> int:
    with ledger.lock:
        return sum(len(texts) for texts in ledger.acknowledged.values())


def _settle(stack: FaultStack, world: World) -> None:
    """Until every memory of the world is enriched, no agent is due a reflection, no run is
    under way and nothing waits in the outbox."""
    world_id = uuid.UUID(world.id)

    def settled() -> bool:
        with stack.sessions() as session:
            unenriched = session.scalar(
                sa.select(sa.func.count())
                .select_from(Memory)
                .where(
                    Memory.world_id == world_id,
                    sa.or_(Memory.embedding.is_(None), ~Memory.importance_scored),
                )
            )
            due = session.scalar(
                sa.select(sa.func.count())
                .select_from(Agent)
                .where(Agent.world_id == world_id, Agent.importance_since_reflection > THRESHOLD)
            )
            running = session.scalar(
                sa.select(sa.func.count())
                .select_from(ReflectionRun)
                .join(Agent, Agent.id == ReflectionRun.agent_id)
                .where(Agent.world_id == world_id, ReflectionRun.status != "done")
            )
            return unenriched == 0 and due == 0 and running == 0 and outbox.waiting(session) == 0

    try:
        wait_until(settled, "the world settling", timeout_s=SETTLE_S, every_s=0.5)
    except BaseException:
        print("".join(stack.output[-40:]))
        raise


def _check(stack: FaultStack, world: World, ledger: Ledger, *, crossings_at_least: int) -> None:
    assert not ledger.unexpected, ledger.unexpected  # no 500, no other surprise
    with stack.sessions() as session:
        for agent, texts in ledger.acknowledged.items():
            agent_id = uuid.UUID(agent)
            stored = session.scalars(
                sa.select(Memory.description).where(
                    Memory.agent_id == agent_id, Memory.kind == "observation"
                )
            ).all()
            counts = {text: stored.count(text) for text in texts}
            assert set(counts.values()) == {1}, {t: c for t, c in counts.items() if c != 1}
        crossings = 0
        for agent_id in [uuid.UUID(a) for a in world.agents]:
            runs = session.execute(
                sa.select(ReflectionRun.seq, ReflectionRun.status)
                .where(ReflectionRun.agent_id == agent_id)
                .order_by(ReflectionRun.seq)
            ).all()
            done = session.get_one(Agent, agent_id).reflections_done
            assert [tuple(r) for r in runs] == [(n, "done") for n in range(1, done + 1)]
            reflections = session.scalar(
                sa.select(sa.func.count())
                .select_from(Memory)
                .where(Memory.agent_id == agent_id, Memory.kind == "reflection")
            )
            assert (reflections or 0) >= done
            crossings += done
    assert crossings >= crossings_at_least
    print(
        f"\n{world.id}: {_acknowledged(ledger)} memories acknowledged, each stored once, all "
        f"enriched; {crossings} reflections, one per crossing; {len(ledger.unavailable)} 503s"
    )
