"""`GET /metrics`: Prometheus text format, for the admin key.

What every process of this host recorded (`db.metrics`: requests by route, jobs by task, model
calls, retrieval), then figures read at scrape time that are the same from any API process:
queue depths and jobs in flight (Redis), jobs still in the outbox (waiting for Redis), database
size and rows per table, and per running
world whether planning keeps up with its clock (`db.queries.operations`).

It needs the admin key: it names worlds and shows every tenant's traffic and spending, which
no world's key may see. Prometheus sends it with `authorization: {credentials: <admin key>}`.
"""

from __future__ import annotations

from collections.abc import Iterator

import redis
from fastapi import APIRouter, Request, Response
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from sqlalchemy.orm import Session, sessionmaker

from db import outbox
from db.jobs import Queue
from db.metrics import render
from db.queries import operations
from service.deps import AdminDep

router = APIRouter(tags=["operations"])
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
UNACKED_KEY = "unacked"
"""Kombu's Redis transport keeps delivered, unacknowledged jobs in this hash."""


@router.get(
    "/metrics",
    response_class=Response,
    responses={200: {"content": {CONTENT_TYPE: {}}, "description": "Prometheus text format"}},
    summary="Prometheus metrics (admin key)",
)
def metrics_text(request: Request, caller: AdminDep) -> Response:
    state = request.app.state
    cluster = ClusterFigures(state.sessions, state.redis)
    return Response(render([cluster]), media_type=CONTENT_TYPE)


class ClusterFigures(Collector):
    """Gauges read from Redis and PostgreSQL when scraped (they describe the deployment, not
    this process)."""

    def __init__(self, sessions: sessionmaker[Session], broker: redis.Redis) -> None:
        self.sessions = sessions
        self.broker = broker

    def collect(self) -> Iterator[Metric]:
        yield from self._queues()
        with self.sessions() as session:
            yield from _database(session)
            yield from _planning(session)

    def _queues(self) -> Iterator[Metric]:
        depth = GaugeMetricFamily("hearth_queue_depth", "Jobs waiting, by queue", labels=["queue"])
        flight = GaugeMetricFamily(
            "hearth_jobs_in_flight", "Jobs delivered to a worker and not yet acknowledged"
        )
        try:
            pipe = self.broker.pipeline()
            for queue in Queue:
                pipe.llen(queue.value)
            pipe.hlen(UNACKED_KEY)
            *lengths, unacked = pipe.execute()
        except redis.RedisError:
            return
        for queue, length in zip(Queue, lengths, strict=True):
            depth.add_metric([queue.value], float(length))
        flight.add_metric([], float(unacked))
        yield depth
        yield flight


def _database(session: Session) -> Iterator[Metric]:
    size = GaugeMetricFamily("hearth_database_size_bytes", "Size of Hearth's database")
    size.add_metric([], float(operations.database_bytes(session)))
    yield size
    live = GaugeMetricFamily("hearth_db_rows", "Rows per table (estimate)", labels=["table"])
    inserted = CounterMetricFamily(
        "hearth_db_rows_inserted",
        "Rows inserted per table since statistics began",
        labels=["table"],
    )
    for table in operations.table_rows(session):
        live.add_metric([table.table], float(table.live))
        inserted.add_metric([table.table], float(table.inserted))
    yield live
    yield inserted
    staged = GaugeMetricFamily(
        "hearth_outbox_jobs", "Jobs requests staged that the broker does not have yet"
    )
    staged.add_metric([], float(outbox.waiting(session)))
    yield staged


def _planning(session: Session) -> Iterator[Metric]:
    agents = GaugeMetricFamily(
        "hearth_agents",
        "Agents of each running world by the level of their current action (none: no action)",
        labels=["world", "action"],
    )
    lead = GaugeMetricFamily(
        "hearth_plan_lead_seconds",
        "Game seconds the agents' decomposed tasks reach past the world's clock",
        labels=["world", "stat"],
    )
    for world in operations.planning(session):
        name = str(world.world_id)
        for level, count in sorted(world.agents_by_action.items()):
            agents.add_metric([name, level], float(count))
        lead.add_metric([name, "min"], world.lead_min_s)
        lead.add_metric([name, "median"], world.lead_median_s)
    yield agents
    yield lead
