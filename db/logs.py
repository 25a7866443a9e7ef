"""Logging for every Hearth process: text for a terminal, or one JSON object a line
(`HEARTH_LOG_FORMAT=json`) for a log pipeline.

Each record carries what identifies the unit of work it belongs to: the API's request id (the
one the error envelope and the `X-Request-ID` header show) or a job's task name and id. They
are context variables, set by the API's middleware and the workers' task signals, so any
logger anywhere below picks them up. In `db/` because both edges configure it.
"""

from __future__ import annotations

import json
import logging
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

request_id: ContextVar[str | None] = ContextVar("hearth_request_id", default=None)
task: ContextVar[tuple[str, str] | None] = ContextVar("hearth_task", default=None)
"""(task name, task id) of the job this process is running."""

DEFAULT_LEVELS = {"text": "WARNING", "json": "INFO"}
"""A terminal stays quiet; a pipeline gets a line per request and per failed job too."""
_STANDARD = frozenset(vars(logging.makeLogRecord({})).keys()) | {"message", "asctime"}


class ContextFilter(logging.Filter):
    """Stamps each record with the current request id or job."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        job = task.get()
        record.task, record.task_id = job if job is not None else (None, None)
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, the context, any `extra=` fields,
    and the traceback as text."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and value is not None:
                entry[key] = value
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


class TextFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        request = getattr(record, "request_id", None)
        return f"{line} [request {request}]" if request else line


def configure_logging(log_format: str, level: str | None = None) -> None:
    """Replace the root logger's handlers with one on stderr in `log_format` (text or json)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if log_format == "json" else TextFormatter())
    handler.addFilter(ContextFilter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel((level or DEFAULT_LEVELS.get(log_format, "WARNING")).upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "celery"):
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
