"""Scale-out: two API processes and two worker pairs (fast + slow) on one PostgreSQL and one
Redis, each given by URL (nothing embedded is started by them).

- A memory written through one API is returned by a search through the other at once: each
  API keeps its own in-process retrieval cache, which must stay exact under the other's
  writes (read from the other API's `/metrics`: its searches hit its cache).
- A threshold crossing reported while both worker pairs run, with the reflection job also
  delivered twice more, gives exactly one reflection.
- The second API logs one JSON object a line (`HEARTH_LOG_FORMAT=json`) with the request id
  its answers carry.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from bench.prometheus import scrape
from db.jobs import Queue
from db.models import Agent, Memory, ReflectionRun
from db.settings import Settings
from tests.conftest import REPO, child_env
from tests.polling import broker_idle, wait_until
from workers.app import make_celery

BROKER_DB = "7"
"""A Redis database of its own: the session's worker (database 0) takes none of these jobs."""
START_TIMEOUT_S = 90.0
WAIT_S = 60.0


@dataclass
class Deployment:
    apis: list[str]
    redis_url: str
    api_log: Path


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _hearth(env: dict[str, str], *args: str, log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "service", *args],
            env=env,
            cwd=REPO,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


@pytest.fixture(scope="module")
def deployment(
    settings: Settings, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Deployment]:
    folder = tmp_path_factory.mktemp("scale-out")
    redis_url = str(settings.redis_url).rsplit("/", 1)[0] + "/" + BROKER_DB
    base = child_env(settings) | {"HEARTH_REDIS_URL": redis_url}
    processes, apis = [], []
    for n in range(2):  # each API and worker pair as on its own host: own metrics folder
        env = base | {
            "HEARTH_METRICS_DIR": str(folder / f"metrics-{n}"),
            "HEARTH_LOG_FORMAT": "json" if n else "text",
        }
        port = _free_port()
        processes.append(_hearth(env, "api", "--port", str(port), log=folder / f"api-{n}.log"))
        for queue in Queue:
            worker = ("worker", "--queues", queue.value, "--concurrency", "1")
            processes.append(_hearth(env, *worker, log=folder / f"worker-{queue.value}-{n}.log"))
        apis.append(f"http://127.0.0.1:{port}")
    try:
        _wait_for_processes(apis, redis_url, processes)
        yield Deployment(apis=apis, redis_url=redis_url, api_log=folder / "api-1.log")
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()


def _wait_for_processes(
    apis: list[str], redis_url: str, processes: list[subprocess.Popen[bytes]]
) -> None:
    app = make_celery(redis_url=redis_url)

    def started() -> bool:
        dead = [p.args for p in processes if p.poll() is not None]
        assert not dead, f"exited: {dead}"
        answering = len(app.control.ping(timeout=0.5) or [])
        return answering == 4 and all(_answers(api) for api in apis)

    wait_until(started, "the two APIs and four workers' start", timeout_s=START_TIMEOUT_S)


def _answers(api: str) -> bool:
    try:
        return httpx.get(f"{api}/healthz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


@pytest.fixture
def world(
    deployment: Deployment, admin_headers: dict[str, str]
) -> Iterator[tuple[str, str, dict[str, str]]]:
    """A world and one agent, made through the first API; its id, the agent's, world headers."""
    body = {"name": "Twinville", "clock": {"mode": "driven", "start": "2023-02-13T07:00:00"}}
    created = httpx.post(f"{deployment.apis[0]}/v1/worlds", json=body, headers=admin_headers)
    assert created.status_code == 201, created.text
    headers = {"Authorization": f"Bearer {created.json()['api_key']}"}
    world_id = created.json()["id"]
    agent = httpx.post(
        f"{deployment.apis[0]}/v1/worlds/{world_id}/agents",
        json={"name": "Isabella Rodriguez"},
        headers=headers,
    )
    assert agent.status_code == 201, agent.text
    yield world_id, agent.json()["id"], headers
    broker_idle(deployment.redis_url, timeout_s=WAIT_S)


def test_a_memory_written_through_one_api_is_found_through_the_other_at_once(
    deployment: Deployment,
    world: tuple[str, str, dict[str, str]],
    admin_headers: dict[str, str],
    sessions: sessionmaker[Session],
) -> None:
    world_id, agent_id, headers = world
    first, second = deployment.apis
    memories = f"/v1/worlds/{world_id}/agents/{agent_id}/memories"
    newest_first = {
        "k": 1,
        "touch": False,
        "weights": {"recency": 1, "importance": 0, "relevance": 0},
    }
    hits_before = _cache(second, admin_headers).get("hit", 0.0)
    for n in range(6):
        writer, reader = (first, second) if n % 2 == 0 else (second, first)
        line = {"memories": [{"description": f"Isabella rang bell {n}"}]}
        written = httpx.post(f"{writer}{memories}", headers=headers, json=line)
        assert written.status_code == 201, written.text
        [memory] = written.json()["items"]
        found = httpx.post(
            f"{reader}{memories}/search",
            headers=headers,
            json={**newest_first, "query": f"bell {n}"},
        )
        assert found.status_code == 200, found.text
        assert [r["id"] for r in found.json()["results"]] == [memory["id"]]
    cache = _cache(second, admin_headers)
    assert cache.get("hit", 0.0) - hits_before >= 2  # the second API answered from its cache


def test_one_threshold_crossing_gives_one_reflection_with_two_worker_pairs(
    deployment: Deployment, world: tuple[str, str, dict[str, str]], sessions: sessionmaker[Session]
) -> None:
    world_id, agent_id, headers = world
    memories = f"/v1/worlds/{world_id}/agents/{agent_id}/memories"
    seeds = [{"description": f"Isabella served customer number {n} at the cafe"} for n in range(8)]
    assert (
        httpx.post(
            f"{deployment.apis[0]}{memories}", headers=headers, json={"memories": seeds}
        ).status_code
        == 201
    )
    wait_until(lambda: _unenriched(sessions) == 0, "the enrichment", timeout_s=WAIT_S)
    with sessions.begin() as session:  # one point short of a crossing (strictly above 150)
        session.execute(sa.update(Agent).values(importance_since_reflection=150))
    batches = [
        (api, [{"description": f"Isabella saw a fire start in the kitchen, batch {n}"}])
        for n in range(4)
        for api in deployment.apis
    ]
    with ThreadPoolExecutor(max_workers=4) as pool:
        statuses = list(
            pool.map(
                lambda job: (
                    httpx.post(
                        f"{job[0]}{memories}", headers=headers, json={"memories": job[1]}
                    ).status_code
                ),
                batches,
            )
        )
    assert statuses == [201] * len(batches)
    celery = make_celery(redis_url=deployment.redis_url)
    for copy in range(3):  # the job delivered again, to whichever pair takes it
        celery.send_task("hearth.reflect", args=[agent_id, 1], task_id=f"again-{copy}")
    wait_until(
        lambda: _done(sessions) >= 1 and _unenriched(sessions) == 0,
        "one reflection and the enrichment",
        timeout_s=WAIT_S,
    )
    broker_idle(deployment.redis_url, timeout_s=WAIT_S)
    with sessions() as session:
        runs = session.scalars(sa.select(ReflectionRun)).all()
        agent = session.get_one(Agent, uuid.UUID(agent_id))
    assert [(run.seq, run.status) for run in runs] == [(1, "done")]
    assert agent.reflections_done == 1
    assert agent.importance_since_reflection <= 150  # nothing left to cross a second time


def test_the_second_api_logs_json_lines_with_request_ids(
    deployment: Deployment, world: tuple[str, str, dict[str, str]]
) -> None:
    world_id, _, headers = world
    missing = httpx.get(
        f"{deployment.apis[1]}/v1/worlds/{world_id}/agents/00000000-0000-0000-0000-000000000000",
        headers=headers,
    )
    assert missing.status_code == 404
    request_id = missing.json()["error"]["request_id"]
    assert request_id == missing.headers["x-request-id"]

    def logged() -> list[dict[str, Any]]:
        lines = deployment.api_log.read_text().splitlines()
        return [json.loads(line) for line in lines if line.startswith("{")]

    wait_until(
        lambda: any(e.get("request_id") == request_id for e in logged()),
        "the request's log line",
        timeout_s=WAIT_S,
    )
    [line] = [e for e in logged() if e.get("request_id") == request_id]
    assert line["logger"] == "hearth.access" and line["status"] == 404
    assert line["route"] == "/v1/worlds/{world_id}/agents/{agent_id}"


def _cache(api: str, admin_headers: dict[str, str]) -> dict[str, float]:
    with httpx.Client(base_url=api, headers=admin_headers) as client:
        return scrape(client).by("hearth_retrieval_cache_total", "result")


def _unenriched(sessions: sessionmaker[Session]) -> int:
    with sessions() as session:
        pending = sa.or_(Memory.embedding.is_(None), ~Memory.importance_scored)
        return int(session.scalar(sa.select(sa.func.count()).where(pending)) or 0)


def _done(sessions: sessionmaker[Session]) -> int:
    with sessions() as session:
        query = sa.select(sa.func.count()).where(ReflectionRun.status == "done")
        return int(session.scalar(query) or 0)
