"""Peak memory and CPU time of each process of a launched stack: the API, each worker (with
its pool processes), beat, Redis and PostgreSQL (the postmaster and its backends).

Linux keeps each process's peak resident set (`VmHWM` in /proc/<pid>/status); elsewhere the
peak of periodic samples is used. A role's figure is the largest process of the role and the
sum of the role's peaks (forked pool processes share pages, so the sum overstates). CPU time
(user + system) is counted from `start()`: on a machine shared with other work, CPU-seconds
per game hour are the figure that does not depend on who else is running.
"""

from __future__ import annotations

import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import psutil

from service.launcher import Launched

SAMPLE_EVERY_S = 2.0
MB = 2**20


class Watch:
    """Samples the stack's processes; `peaks()` reads their high-water marks."""

    def __init__(self, up: Launched) -> None:
        self.roles: dict[str, psutil.Process] = {
            name: psutil.Process(child.pid) for name, child in up.supervisor.children.items()
        }
        self.postgres_folder = Path(up.stack.settings.home) / "postgres"
        self.peak: dict[tuple[str, int], int] = {}
        self.cpu_first: dict[tuple[str, int], float] = {}
        self.cpu_last: dict[tuple[str, int], float] = {}
        self.last = 0.0

    def start(self) -> None:
        """Count CPU time from now on."""
        self.last = 0.0
        self.sample()
        self.cpu_first = dict(self.cpu_last)  # those alive now count from now

    def sample(self) -> None:
        if time.monotonic() - self.last < SAMPLE_EVERY_S:
            return
        self.last = time.monotonic()
        for role, process in self._processes():
            try:
                rss = max(process.memory_info().rss, _high_water(process.pid))
                times = process.cpu_times()
            except psutil.Error:
                continue
            key = (role, process.pid)
            self.peak[key] = max(self.peak.get(key, 0), rss)
            self.cpu_last[key] = times.user + times.system
            self.cpu_first.setdefault(key, 0.0)  # a process born after start() counts whole

    def peaks(self) -> list[dict[str, Any]]:
        self.last = 0.0
        self.sample()
        by_role: dict[str, list[int]] = defaultdict(list)
        cpu: dict[str, float] = defaultdict(float)
        for (role, pid), rss in self.peak.items():
            by_role[role].append(rss)
            cpu[role] += self.cpu_last.get((role, pid), 0.0) - self.cpu_first.get((role, pid), 0.0)
        return [
            {
                "role": role,
                "processes": len(values),
                "peak_mb": round(max(values) / MB, 1),
                "sum_of_peaks_mb": round(sum(values) / MB, 1),
                "cpu_s": round(cpu[role], 1),
            }
            for role, values in sorted(by_role.items())
        ]

    def _processes(self) -> list[tuple[str, psutil.Process]]:
        found: list[tuple[str, psutil.Process]] = []
        for role, process in self.roles.items():
            try:
                found += [(role, process)]
                found += [(role, c) for c in process.children(recursive=True)]
            except psutil.Error:
                continue
        found += [
            ("redis", p) for p in psutil.Process().children(recursive=True) if "redis" in p.name()
        ]
        postmaster = _postmaster(self.postgres_folder)
        if postmaster is not None:
            found += [("postgres", postmaster)]
            found += [("postgres", c) for c in postmaster.children()]
        return found


def _postmaster(folder: Path) -> psutil.Process | None:
    try:
        pid = int((folder / "postmaster.pid").read_text().split()[0])
        return psutil.Process(pid)
    except (OSError, ValueError, IndexError, psutil.Error):
        return None


def _high_water(pid: int) -> int:
    """VmHWM in bytes (0 where /proc does not have it)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return 0
