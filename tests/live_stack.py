"""A whole live stack for clients written in other languages (the TypeScript client's tests):
embedded PostgreSQL + Redis in a temporary HEARTH_HOME, migrated, an admin key, and the API on
a free loopback port. Prints one JSON line `{"url", "admin_key"}` when ready, and stops
everything (and deletes the folder) when its standard input closes.

    python -m tests.live_stack        # from the repository root
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from db import migrate
from db.queries.api_keys import generate_key, store_key
from db.session import make_engine, make_session_factory
from db.settings import Settings
from service.app import create_app
from service.stack import running_stack
from tests.live import serve


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="hearth-live-") as home:
        settings = Settings(home=Path(home), database_url=None, redis_url=None)
        with running_stack(settings) as stack:
            migrate.upgrade(stack.database_url)
            key = generate_key("admin")
            engine = make_engine(stack.database_url)
            with make_session_factory(engine).begin() as session:
                store_key(session, key, name="live stack")
            engine.dispose()
            with serve(create_app(stack.settings)) as url:
                print(json.dumps({"url": url, "admin_key": key}), flush=True)
                sys.stdin.read()  # until the test runner closes our input (or exits)
    return 0


if __name__ == "__main__":
    sys.exit(main())
