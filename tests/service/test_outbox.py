"""Writes never wait on Redis: their jobs are staged in the request's transaction (the outbox)
and sent once the broker answers (`db.outbox`, `service.outbox_relay`)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import redis
import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from cognition.offline import OfflineMind
from db import jobs, outbox
from db.jobs import Job, Queue
from db.models import OutboxJob
from db.queries.api_keys import generate_key, store_key
from db.settings import Settings
from service.app import create_app
from tests.broker import queued_jobs
from tests.factories import committed_agent
from tests.live import serve
from tests.polling import wait_until
from tests.workers.support import installed
from workers.app import make_celery
from workers.embedded_redis import EmbeddedRedis
from workers.tasks.outbox import relay_outbox

WRITE_TIMEOUT_S = 8.0
"""Well under the ~19 s a write stalled for when it sent its job to a Redis that was down."""


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[EmbeddedRedis]:
    """A Redis of this test's own, to kill and start again on the same port."""
    server = EmbeddedRedis(tmp_path / "redis")
    server.start()
    yield server
    server.stop()


def test_a_write_answers_while_redis_is_down_and_its_job_is_sent_when_it_is_back(
    settings: Settings, sessions: sessionmaker[Session], own_redis: EmbeddedRedis
) -> None:
    agent = committed_agent(sessions)
    key = generate_key("admin")
    with sessions.begin() as session:
        store_key(session, key)
    port = own_redis.port
    app = create_app(settings.model_copy(update={"redis_url": own_redis.url}))
    memories = f"/v1/worlds/{agent.world_id}/agents/{agent.id}/memories"
    headers = {"Authorization": f"Bearer {key}"}
    with serve(app) as base, httpx.Client(base_url=base, timeout=WRITE_TIMEOUT_S) as client:
        own_redis.stop()
        written = client.post(
            memories, json={"memories": [{"description": "The bakery burned"}]}, headers=headers
        )
        assert written.status_code == 201, written.text
        [memory_id] = [m["id"] for m in written.json()["items"]]
        with sessions() as session:  # committed, and its job waits in the outbox
            staged = session.execute(sa.select(OutboxJob.name, OutboxJob.args)).all()
        assert [tuple(row) for row in staged] == [(jobs.ENRICH_MEMORIES.name, [[memory_id]])]

        restarted = EmbeddedRedis(own_redis.folder, port=port)
        restarted.start()
        try:
            broker = redis.Redis.from_url(restarted.url)
            wait_until(
                lambda: (
                    queued_jobs(broker, Queue.FAST) == [(jobs.ENRICH_MEMORIES.name, [[memory_id]])]
                ),
                "the staged enrichment on the broker",
            )
            with sessions() as session:
                assert outbox.waiting(session) == 0
        finally:
            restarted.stop()


def test_jobs_an_api_left_staged_are_sent_by_beats_relay(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    """An API killed between its commit and its send leaves the jobs staged; beat's
    `hearth.relay_outbox` sends them, oldest first."""
    broker_url = str(settings.redis_url)[:-1] + "7"  # a database no worker consumes
    left = [jobs.enrich_memories([1, 2]), jobs.reflect("0b3c2d1e-0000-4000-8000-000000000000", 1)]
    with sessions.begin() as session:
        outbox.stage(session, left)
    broker = redis.Redis.from_url(broker_url)
    broker.flushdb()
    make_celery(redis_url=broker_url)  # the current app, as in a worker
    with installed(settings, sessions, OfflineMind()):
        assert relay_outbox() == {"sent": 2}
    assert queued_jobs(broker, Queue.FAST) == [(left[0].name, [[1, 2]])]
    assert queued_jobs(broker, Queue.SLOW) == [(left[1].name, list(left[1].args))]
    with sessions() as session:
        assert outbox.waiting(session) == 0
    broker.flushdb()


def test_a_failed_send_keeps_the_whole_batch_staged(sessions: sessionmaker[Session]) -> None:
    staged = [jobs.enrich_memories([n]) for n in range(3)]
    with sessions.begin() as session:
        outbox.stage(session, staged)
    sent: list[Job] = []

    def send_two(job: Job) -> None:
        if len(sent) == 2:
            raise redis.ConnectionError("the broker went away")
        sent.append(job)

    with pytest.raises(redis.ConnectionError):
        outbox.relay(sessions, send_two)
    with sessions() as session:
        assert outbox.waiting(session) == 3  # rolled back: sent again later (harmless)
    again: list[Job] = []
    assert outbox.relay(sessions, again.append) == 3
    assert [json.dumps(job.args) for job in again] == [json.dumps(job.args) for job in staged]


def test_two_relays_never_take_the_same_job(sessions: sessionmaker[Session]) -> None:
    """A batch is taken with SKIP LOCKED: a relay that runs while another holds its batch
    takes the rest, never the same rows."""
    with sessions.begin() as session:
        outbox.stage(session, [jobs.enrich_memories([n]) for n in range(4)])
    inner: list[Job] = []
    outer: list[Job] = []

    def send_and_let_another_relay_run(job: Job) -> None:
        if not outer:
            outbox.relay(sessions, inner.append)
        outer.append(job)

    assert outbox.relay(sessions, send_and_let_another_relay_run, limit=2) == 2
    assert sorted(j.args[0][0] for j in outer) == [0, 1]
    assert sorted(j.args[0][0] for j in inner) == [2, 3]
