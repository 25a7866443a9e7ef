"""A whole embedded Hearth stack for benchmarks: `hearth up` in a temporary HEARTH_HOME, its
worker processes (to pause them), and the enrichment backlog (read straight from PostgreSQL)."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import psutil
import sqlalchemy as sa

from db.embedded import EmbeddedPostgres

REPO = Path(__file__).resolve().parent.parent
UNLIMITED = {"HEARTH_RATE_LIMIT_PER_MINUTE": "0", "HEARTH_STEP_RATE_LIMIT_PER_MINUTE": "0"}
"""Benchmarks measure what the service can take, not a key's rate limit: every stack they
start runs without one (each figure's client is a single key sending as fast as it can)."""
READY_TIMEOUT_S = 180.0
DRAIN_TIMEOUT_S = 600.0


@contextmanager
def hearth_up(
    home: Path, *, settings: dict[str, str] | None = None
) -> Iterator[tuple[str, dict[str, str], psutil.Process]]:
    """`hearth up` in `home` (with extra `HEARTH_*` settings); yields the API base URL, admin
    headers and the `up` process."""
    port, key = free_port(), f"hk_admin_{secrets.token_urlsafe(32)}"
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "HEARTH_HOME": str(home),
        "HEARTH_API_PORT": str(port),
        "HEARTH_ADMIN_KEY": key,
        **UNLIMITED,
        **(settings or {}),
    }
    for name in ("HEARTH_DATABASE_URL", "HEARTH_REDIS_URL"):
        env.pop(name, None)
    say(f"starting the stack in {home} …")
    proc = subprocess.Popen(
        [sys.executable, "-m", "service", "up"],
        env=env,
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(base, proc)
        yield base, {"Authorization": f"Bearer {key}"}, psutil.Process(proc.pid)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()


def workers(up: psutil.Process) -> list[psutil.Process]:
    """The Celery worker and beat processes of the stack (pool children included)."""
    return [p for p in up.children(recursive=True) if {"worker", "beat"} & set(p.cmdline())]


def pause_or_resume(processes: list[psutil.Process], signum: int) -> None:
    for process in processes:
        process.send_signal(signum)
    if processes:
        say(
            f"{'paused' if signum == signal.SIGSTOP else 'resumed'} {len(processes)} "
            "worker processes"
        )


def wait_ready(base: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"bench: `hearth up` exited with {proc.returncode}")
        try:
            if httpx.get(f"{base}/readyz", timeout=5).status_code == 200:
                say("stack ready")
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise SystemExit("bench: the stack did not become ready")


def drain(home: Path, load_end: float) -> float | None:
    """Seconds after the load until no observation awaits enrichment (None on timeout).
    Reflections the agents write meanwhile are left out: they are not the load."""
    postgres = EmbeddedPostgres(home / "postgres")
    engine = sa.create_engine(postgres.start())
    waiting = sa.text(
        "SELECT count(*) FROM memories WHERE kind = 'observation' "
        "AND (embedding IS NULL OR NOT importance_scored)"
    )
    try:
        while time.monotonic() - load_end < DRAIN_TIMEOUT_S:
            with engine.connect() as conn:
                left = int(conn.scalar(waiting) or 0)
            if left == 0:
                return time.monotonic() - load_end
            say(f"drain: {left} memories await enrichment")
            time.sleep(1.0)
        return None
    finally:
        engine.dispose()
        postgres.stop()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def say(message: str) -> None:
    print(f"bench: {message}", file=sys.stderr, flush=True)
