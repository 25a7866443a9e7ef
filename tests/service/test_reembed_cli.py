"""`hearth reembed` and the start-up check, as a user meets them on the command line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from cognition.hashing_embedder import HashingEmbedder
from db.embedding_space import Space, ensure_space, recorded_space
from db.models import Memory
from db.settings import Settings
from tests.factories import make_agent, make_memory, make_world

REPO = Path(__file__).resolve().parents[2]


def hearth(settings: Settings, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    variables = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "HEARTH_HOME": str(settings.home),
        "HEARTH_DATABASE_URL": str(settings.database_url),
        "HEARTH_REDIS_URL": str(settings.redis_url),
        **env,
    }
    return subprocess.run(
        [sys.executable, "-m", "service", *args],
        env=variables,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_changed_embedder_refuses_to_start_until_reembedded(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    old = HashingEmbedder(384)
    with sessions.begin() as session:
        ensure_space(session, old)
        agent = make_agent(session, make_world(session))
        for text in ("Klaus reads", "Maria paints", "Klaus reads"):
            make_memory(session, agent, description=text, embedding=old.embed([text])[0])

    refused = hearth(settings, "worker", HEARTH_EMBEDDING_DIMENSION="64")
    assert refused.returncode == 2
    [line] = refused.stderr.strip().splitlines()
    assert "hearth reembed" in line and "64-d" in line and "Traceback" not in refused.stderr

    done = hearth(settings, "reembed", "--batch-size", "2", HEARTH_EMBEDDING_DIMENSION="64")
    assert done.returncode == 0, done.stderr
    assert "100.0%" in done.stderr and "3/3 memories" in done.stderr
    with sessions() as session:
        assert recorded_space(session) == Space("hashing", "hashing-v1", 64)
        dims = session.scalars(sa.select(sa.func.vector_dims(Memory.embedding))).all()
    assert dims == [64, 64, 64]
