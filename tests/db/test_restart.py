"""Embedded servers keep their data: stop them, start them again, and the rows are there."""

from __future__ import annotations

from pathlib import Path

import redis
import sqlalchemy as sa

from db.embedded import EmbeddedPostgres
from workers.embedded_redis import EmbeddedRedis


def test_postgres_rows_survive_a_restart(tmp_path: Path) -> None:
    folder = tmp_path / "pg"
    first = EmbeddedPostgres(folder)
    engine = sa.create_engine(first.start(), poolclass=sa.pool.NullPool)
    with engine.begin() as conn:
        conn.execute(sa.text("CREATE TABLE kept (note text)"))
        conn.execute(sa.text("INSERT INTO kept VALUES ('written before the restart')"))
    engine.dispose()
    first.stop()

    second = EmbeddedPostgres(folder)
    engine = sa.create_engine(second.start(), poolclass=sa.pool.NullPool)
    with engine.connect() as conn:
        assert conn.scalar(sa.text("SELECT note FROM kept")) == "written before the restart"
    engine.dispose()
    second.stop()


def test_redis_data_survives_a_restart(tmp_path: Path) -> None:
    first = EmbeddedRedis(tmp_path / "redis")
    client = redis.Redis.from_url(first.start())
    client.rpush("queued-job", "payload")
    first.stop()
    second = EmbeddedRedis(tmp_path / "redis")
    client = redis.Redis.from_url(second.start())
    assert client.lrange("queued-job", 0, -1) == [b"payload"]
    second.stop()


def test_a_second_process_joins_the_running_redis(tmp_path: Path) -> None:
    owner = EmbeddedRedis(tmp_path / "redis")
    url = owner.start()
    joiner = EmbeddedRedis(tmp_path / "redis")
    assert joiner.start() == url
    joiner.stop()  # joining does not own: the server keeps running
    assert redis.Redis.from_url(url).ping()
    owner.stop()
