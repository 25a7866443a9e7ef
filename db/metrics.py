"""Prometheus metrics that every Hearth process records: requests, jobs, model calls, retrieval.

They live in `db/`, the lowest layer the API and the workers share (as settings do), so the
audit and the store can record what they see. Nothing is registered at import: `metrics()`
builds this process's set on first use.

Several processes, one view: the API and each worker (with its prefork pool processes) are
separate processes, and a Prometheus counter lives in one process's memory. A process that
calls `use_directory(path)` before its first metric writes its values to memory-mapped files
in that folder (prometheus-client's multiprocess mode; files are named by host and pid, so
containers may share one volume), and `render()` in any process sums the folder's files: the
API's `/metrics` shows every process that writes there. `hearth up` points its children at
`$HEARTH_HOME/metrics` and empties the folder first; `HEARTH_METRICS_DIR` names another.
Without a folder (tests, the economy bench) a process keeps its metrics in its own registry.
"""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest, values
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

MULTIPROCESS_ENV = "PROMETHEUS_MULTIPROC_DIR"
# The bucket ladders stay rows (fmt: skip): one bound a line would hide their spacing.
REQUEST_BUCKETS = (0.005, 0.01, 0.015, 0.02, 0.03, 0.04, 0.05, 0.06, 0.075, 0.1, 0.125, 0.15,
                   0.2, 0.25, 0.3, 0.4, 0.5, 0.75, 1.0, 1.5, 2.5, 5.0, 10.0, 30.0)  # fmt: skip
"""Seconds; fine around 10–150 ms, where the step route's p50 and p99 fall."""
JOB_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0,
               120.0, 300.0)  # fmt: skip
RETRIEVAL_BUCKETS = (0.001, 0.002, 0.003, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.05, 0.075,
                     0.1, 0.25, 0.5, 1.0, 2.5)  # fmt: skip


@dataclass(frozen=True)
class Metrics:
    """This process's metric objects (label names in each help text's order)."""

    registry: CollectorRegistry
    requests: Histogram
    """route (the template, e.g. /v1/worlds/{world_id}/step), method, status."""
    jobs: Counter
    """task, outcome (success, failure, retry)."""
    job_seconds: Histogram
    """task."""
    model_calls: Counter
    """operation, model, outcome (ok, error), focus (focused, unfocused, none)."""
    model_tokens: Counter
    """operation, direction (in, out)."""
    model_cost: Counter
    """operation (USD, at HEARTH_LLM_PRICES)."""
    model_fallbacks: Counter
    """operation: answered by the offline mind because the model failed."""
    retrieval_seconds: Histogram
    """path (cached, sql, brute_force)."""
    retrieval_cache: Counter
    """result: hit (the agent's rows were in this process), load (first search loaded them),
    bypass (searched in SQL: cache off, agent too large, or a re-embed under way)."""


_metrics: Metrics | None = None
_lock = threading.Lock()


def use_directory(directory: Path) -> None:
    """Write this process's metrics to files in `directory` (and read that folder in
    `render`). Call before the first metric is made; forked children inherit it."""
    directory.mkdir(parents=True, exist_ok=True)
    os.environ[MULTIPROCESS_ENV] = str(directory)
    host = socket.gethostname().replace("_", "-")
    values.ValueClass = values.MultiProcessValue(lambda: f"{os.getpid()}-{host}")


def empty_directory(directory: Path) -> None:
    """Remove the files of earlier processes (before a deployment's processes start)."""
    if directory.is_dir():
        for stale in directory.glob("*.db"):
            stale.unlink(missing_ok=True)


def metrics() -> Metrics:
    """This process's metrics, made on first use."""
    global _metrics
    with _lock:
        if _metrics is None:
            _metrics = _build(CollectorRegistry(auto_describe=True))
    return _metrics


def render(extra: Iterable[Collector] = ()) -> bytes:
    """The Prometheus text exposition: every process writing to this process's folder (or this
    process alone), then `extra` collectors (cluster-wide gauges read at scrape time)."""
    folder = os.environ.get(MULTIPROCESS_ENV)
    if folder:
        registry = CollectorRegistry()
        MultiProcessCollector(registry, path=folder)
    else:
        registry = metrics().registry
    text = generate_latest(registry)
    if extra:
        more = CollectorRegistry()
        for collector in extra:
            more.register(collector)
        text += generate_latest(more)
    return text


def _build(registry: CollectorRegistry) -> Metrics:
    def counter(name: str, doc: str, labels: tuple[str, ...]) -> Counter:
        return Counter(name, doc, labels, registry=registry)

    def histogram(
        name: str, doc: str, labels: tuple[str, ...], buckets: tuple[float, ...]
    ) -> Histogram:
        return Histogram(name, doc, labels, registry=registry, buckets=buckets)

    return Metrics(
        registry=registry,
        requests=histogram(
            "hearth_http_request_duration_seconds",
            "HTTP requests by route template, method and status",
            ("route", "method", "status"),
            REQUEST_BUCKETS,
        ),
        jobs=counter("hearth_jobs", "Jobs finished by task and outcome", ("task", "outcome")),
        job_seconds=histogram(
            "hearth_job_duration_seconds", "Job run time by task", ("task",), JOB_BUCKETS
        ),
        model_calls=counter(
            "hearth_model_calls",
            "Mind calls (LLM or offline) by operation, model, outcome and focus (the agents' "
            "focus the call was made for: focused, unfocused, none)",
            ("operation", "model", "outcome", "focus"),
        ),
        model_tokens=counter(
            "hearth_model_tokens",
            "Model tokens by operation and direction",
            ("operation", "direction"),
        ),
        model_cost=counter(
            "hearth_model_cost_usd", "Estimated model cost in USD by operation", ("operation",)
        ),
        model_fallbacks=counter(
            "hearth_model_fallbacks",
            "Calls the offline mind answered because the model failed, by operation",
            ("operation",),
        ),
        retrieval_seconds=histogram(
            "hearth_retrieval_duration_seconds",
            "Retrieval searches by path",
            ("path",),
            RETRIEVAL_BUCKETS,
        ),
        retrieval_cache=counter(
            "hearth_retrieval_cache",
            "Retrieval searches by what the in-process cache held",
            ("result",),
        ),
    )
