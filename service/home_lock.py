"""One running stack per HEARTH_HOME.

A second `hearth up` (or `hearth demo` starting its own stack) on a home that is already served
would join the first one's embedded servers, find its port taken, and report the first stack's
API as its own "ready" before failing. `hold_home` takes an exclusive lock on
`$HEARTH_HOME/up.lock` for the stack's lifetime (the operating system releases it when the
process dies, however it dies) and records who holds it, so the second one can say so and
exit.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

LOCK_FILE = "up.lock"


class HomeServed(Exception):
    """Another process serves this home; the message says which."""


@contextmanager
def hold_home(home: Path, *, api_url: str) -> Iterator[None]:
    """Hold the home's lock until the block exits, or raise `HomeServed` at once."""
    home.mkdir(parents=True, exist_ok=True)
    path = home / LOCK_FILE
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = path.read_text().strip() or "another process"
            raise HomeServed(f"this HEARTH_HOME ({home}) is already served by {holder}") from None
        os.ftruncate(fd, 0)
        os.write(fd, f"pid {os.getpid()}, API at {api_url}\n".encode())
        yield
    finally:
        os.close(fd)  # closing releases the lock
