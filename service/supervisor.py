"""`hearth up`: run the API, a fast worker, a slow worker and beat as child processes.

One Ctrl-C (or SIGTERM) stops them all, in order, then the embedded servers. If a child dies on
its own the others are stopped too, so a half-running stack never pretends to be healthy.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from types import FrameType

import httpx

STOP_TIMEOUT_S = 15.0
POLL_INTERVAL_S = 0.2
READY_TIMEOUT_S = 120.0


@dataclass(frozen=True)
class ChildSpec:
    name: str
    args: tuple[str, ...]


def hearth_command(*args: str) -> tuple[str, ...]:
    """The same `hearth` CLI in a child process, with this interpreter."""
    return (sys.executable, "-m", "service", *args)


class Supervisor:
    def __init__(self, specs: list[ChildSpec], env: Mapping[str, str]) -> None:
        self.specs = specs
        self.env = dict(env)
        self.children: dict[str, subprocess.Popen[bytes]] = {}
        self._stopping = False

    def start(self, *, trap_signals: bool = True) -> None:
        """Start the children; with `trap_signals`, Ctrl-C/SIGTERM end `run_until_stopped`
        (otherwise Ctrl-C raises KeyboardInterrupt in the caller as usual)."""
        for spec in self.specs:
            self.children[spec.name] = subprocess.Popen(spec.args, env=self.env)
        if trap_signals:
            signal.signal(signal.SIGINT, self._on_signal)
            signal.signal(signal.SIGTERM, self._on_signal)

    def _on_signal(self, signum: int, _frame: FrameType | None) -> None:
        self._stopping = True

    def wait_ready(self, url: str, *, timeout_s: float = READY_TIMEOUT_S) -> float | None:
        """Seconds until `url` answers 200, or None if the stack was stopped or timed out."""
        started = time.monotonic()
        while time.monotonic() - started < timeout_s and not self._stopping:
            if self.dead_child() is not None:
                return None
            try:
                if httpx.get(url, timeout=5.0).status_code == 200:
                    return time.monotonic() - started
            except httpx.HTTPError:
                pass
            time.sleep(POLL_INTERVAL_S * 2)
        return None

    def dead_child(self) -> str | None:
        for name, proc in self.children.items():
            if proc.poll() is not None:
                return name
        return None

    def run_until_stopped(self) -> int:
        """Block until Ctrl-C / SIGTERM (exit 0) or a child dies (exit 1)."""
        while not self._stopping:
            dead = self.dead_child()
            if dead is not None:
                code = self.children[dead].returncode
                print(f"hearth: {dead} exited with code {code}; stopping the rest", flush=True)
                self.stop()
                return 1
            time.sleep(POLL_INTERVAL_S)
        self.stop()
        return 0

    def stop(self) -> None:
        """SIGTERM every child (workers finish their current job), then SIGKILL stragglers."""
        self._stopping = True
        for proc in self.children.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_TIMEOUT_S
        for proc in self.children.values():
            remaining = max(0.1, deadline - time.monotonic())
            try:
                proc.wait(timeout=remaining)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
