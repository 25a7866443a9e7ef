"""The beat sweep as a task body and through a real worker process."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session, sessionmaker

from db.settings import Settings
from tests.factories import make_world
from workers.app import make_celery
from workers.runtime import build_runtime, set_runtime
from workers.tasks.sweep import sweep_worlds


def test_sweep_body_counts_worlds(settings: Settings, sessions: sessionmaker[Session]) -> None:
    with sessions.begin() as session:
        make_world(session)
        make_world(session, name="Second")
    set_runtime(build_runtime(settings))
    try:
        assert sweep_worlds() == {"worlds": 2}
    finally:
        set_runtime(None)


@pytest.mark.worker
def test_sweep_runs_in_a_real_worker(
    settings: Settings, sessions: sessionmaker[Session], celery_worker: None
) -> None:
    with sessions.begin() as session:
        make_world(session)
    app = make_celery(redis_url=str(settings.redis_url))
    result = app.send_task("hearth.sweep_worlds")
    assert result.get(timeout=30) == {"worlds": 1}
