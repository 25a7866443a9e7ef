"""`hearth up`: run the API, a fast worker, a slow worker and beat as child processes.

One Ctrl-C (or SIGTERM) stops them all, in order, then the embedded servers. A child that dies
on its own is started again after a backoff — 1, 2, 4, 8, 16, then every 30 s while it keeps
dying, from 1 s again once it has run for a minute — and the others keep serving: one child's
death costs its own restart, not the whole stack (the API's was 13–32 s of downtime until
someone restarted `hearth up` by hand). Each death and restart is printed.
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
RESTART_BACKOFF_S = 1.0
MAX_RESTART_BACKOFF_S = 30.0
STEADY_AFTER_S = 60.0
"""A child that ran this long before dying is restarted after the shortest wait again."""


@dataclass(frozen=True)
class ChildSpec:
    name: str
    args: tuple[str, ...]


def hearth_command(*args: str) -> tuple[str, ...]:
    """The same `hearth` CLI in a child process, with this interpreter."""
    return (sys.executable, "-m", "service", *args)


def restart_delay_s(deaths_in_a_row: int) -> float:
    """How long to wait before starting a child that died `deaths_in_a_row` times quickly."""
    return min(RESTART_BACKOFF_S * 2.0 ** (deaths_in_a_row - 1), MAX_RESTART_BACKOFF_S)


@dataclass
class _Life:
    """One child's current process and its history of quick deaths."""

    spec: ChildSpec
    process: subprocess.Popen[bytes]
    started: float
    deaths_in_a_row: int = 0
    restart_at: float | None = None
    """Set while the child is dead: when it is started again."""


class Supervisor:
    def __init__(self, specs: list[ChildSpec], env: Mapping[str, str]) -> None:
        self.specs = specs
        self.env = dict(env)
        self.restarts: dict[str, int] = {spec.name: 0 for spec in specs}
        self._lives: dict[str, _Life] = {}
        self._stopping = False

    @property
    def children(self) -> dict[str, subprocess.Popen[bytes]]:
        """Each child's current process (a dead one's until it is restarted)."""
        return {name: life.process for name, life in self._lives.items()}

    def start(self, *, trap_signals: bool = True) -> None:
        """Start the children; with `trap_signals`, Ctrl-C/SIGTERM end `run_until_stopped`
        (otherwise Ctrl-C raises KeyboardInterrupt in the caller as usual)."""
        for spec in self.specs:
            self._lives[spec.name] = _Life(spec, self._spawn(spec), time.monotonic())
        if trap_signals:
            signal.signal(signal.SIGINT, self._on_signal)
            signal.signal(signal.SIGTERM, self._on_signal)

    def _spawn(self, spec: ChildSpec) -> subprocess.Popen[bytes]:
        return subprocess.Popen(spec.args, env=self.env)

    def _on_signal(self, signum: int, _frame: FrameType | None) -> None:
        self._stopping = True

    def wait_ready(self, url: str, *, timeout_s: float = READY_TIMEOUT_S) -> float | None:
        """Seconds until `url` answers 200 (children that die meanwhile are restarted), or
        None if the stack was stopped or timed out."""
        started = time.monotonic()
        while time.monotonic() - started < timeout_s and not self._stopping:
            self.tend()
            try:
                if httpx.get(url, timeout=5.0).status_code == 200:
                    return time.monotonic() - started
            except httpx.HTTPError:
                pass
            time.sleep(POLL_INTERVAL_S * 2)
        return None

    def tend(self) -> None:
        """Note children that died (printing when each restarts) and restart those whose wait
        is over."""
        now = time.monotonic()
        for name, life in self._lives.items():
            if life.restart_at is None and life.process.poll() is not None:
                ran = now - life.started
                life.deaths_in_a_row = 1 if ran >= STEADY_AFTER_S else life.deaths_in_a_row + 1
                delay = restart_delay_s(life.deaths_in_a_row)
                life.restart_at = now + delay
                print(
                    f"hearth: {name} exited with code {life.process.returncode} after "
                    f"{ran:.0f} s; restarting it in {delay:.0f} s",
                    flush=True,
                )
            elif life.restart_at is not None and now >= life.restart_at:
                life.process, life.started, life.restart_at = self._spawn(life.spec), now, None
                self.restarts[name] += 1
                print(f"hearth: {name} restarted (pid {life.process.pid})", flush=True)

    def run_until_stopped(self) -> int:
        """Tend the children until Ctrl-C / SIGTERM, then stop them all (exit 0)."""
        while not self._stopping:
            self.tend()
            time.sleep(POLL_INTERVAL_S)
        self.stop()
        return 0

    def stop(self) -> None:
        """SIGTERM every child (workers finish their current job), then SIGKILL stragglers."""
        self._stopping = True
        processes = [life.process for life in self._lives.values()]
        for proc in processes:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_TIMEOUT_S
        for proc in processes:
            remaining = max(0.1, deadline - time.monotonic())
            try:
                proc.wait(timeout=remaining)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
