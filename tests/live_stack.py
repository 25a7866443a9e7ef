"""A whole live stack for clients written in other languages (the TypeScript and C# clients'
tests): embedded PostgreSQL + Redis in a temporary HEARTH_HOME, migrated, an admin key, and the
API on a free loopback port. Prints one JSON line `{"url", "admin_key"}` when ready, and stops
everything (and deletes the folder) when its standard input closes.

    python -m tests.live_stack            # the API alone, in this process
    python -m tests.live_stack --workers  # and, as `hearth up` runs them, a worker (both queues)
                                          # and beat (every second): a town lives and plans
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from db import migrate
from db.queries.api_keys import generate_key, store_key
from db.session import make_engine, make_session_factory
from db.settings import Settings
from service.app import create_app
from service.stack import Stack, running_stack
from service.supervisor import ChildSpec, Supervisor, hearth_command
from tests.live import serve

BEAT_INTERVAL_S = 1.0
"""As the demo's: a driven clock's new hour is planned within a second of the game's step."""
WORKERS = [
    ChildSpec("worker", hearth_command("worker", "--queues", "fast,slow")),
    ChildSpec("beat", hearth_command("beat", "--interval", str(BEAT_INTERVAL_S))),
]
"""`hearth up`'s children but the API (served here) and with one worker for both queues: two
processes to start instead of four, which is most of the time a test run waits for."""


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.live_stack")
    parser.add_argument("--workers", action="store_true", help="also a worker and beat")
    args = parser.parse_args()
    ready = sys.stdout
    if args.workers:  # the children write to our standard error: the ready line is alone
        ready = os.fdopen(os.dup(sys.stdout.fileno()), "w")
        os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    with tempfile.TemporaryDirectory(prefix="hearth-live-") as home:
        settings = Settings(home=Path(home), database_url=None, redis_url=None)
        with running_stack(settings) as stack:
            migrate.upgrade(stack.database_url)
            key = _admin_key(stack)
            with _workers(stack, args.workers) as workers, serve(create_app(stack.settings)) as url:
                if workers is not None and workers.wait_ready(f"{url}/readyz") is None:
                    print("live stack: no worker answered", file=sys.stderr, flush=True)
                    return 1
                _announce(url, key, ready)
    return 0


def _admin_key(stack: Stack) -> str:
    key = generate_key("admin")
    engine = make_engine(stack.database_url)
    with make_session_factory(engine).begin() as session:
        store_key(session, key, name="live stack")
    engine.dispose()
    return key


@contextmanager
def _workers(stack: Stack, wanted: bool) -> Iterator[Supervisor | None]:
    if not wanted:
        yield None
        return
    supervisor = Supervisor(WORKERS, stack.child_env())
    supervisor.start(trap_signals=False)
    try:
        yield supervisor
    finally:
        supervisor.stop()


def _announce(url: str, admin_key: str, out: TextIO) -> None:
    print(json.dumps({"url": url, "admin_key": admin_key}), file=out, flush=True)
    sys.stdin.read()  # until the test runner closes our input (or exits)


if __name__ == "__main__":
    sys.exit(main())
