"""Each HEARTH_HOME has one instance id, made once, answered by its API on /healthz."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from fastapi import FastAPI

from db.settings import Settings
from service.app import create_app
from service.instance import (
    INSTANCE_FILE,
    answering_instance,
    free_port,
    instance_id,
    port_in_use,
    serves_home,
)
from tests.live import serve


def test_a_home_keeps_one_id_and_another_home_has_another(tmp_path: Path) -> None:
    first = instance_id(tmp_path / "a")
    assert first is not None and first.startswith("hi_")
    assert instance_id(tmp_path / "a") == first
    assert (tmp_path / "a" / INSTANCE_FILE).read_text().strip() == first
    assert instance_id(tmp_path / "b") not in (None, first)


def test_processes_making_the_id_at_once_agree(tmp_path: Path) -> None:
    with ThreadPoolExecutor(max_workers=8) as pool:
        ids = set(pool.map(lambda _: instance_id(tmp_path / "home"), range(32)))
    assert len(ids) == 1 and None not in ids
    assert [p.name for p in (tmp_path / "home").iterdir()] == [INSTANCE_FILE]


def test_a_home_that_cannot_be_written_has_no_id(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    assert instance_id(blocked / "home") is None


def test_the_api_answers_its_homes_id_and_a_stranger_does_not(settings: Settings) -> None:
    stranger = FastAPI()
    stranger.get("/healthz")(lambda: {"status": "ok"})
    with serve(create_app(settings)) as ours, serve(stranger) as theirs:
        assert answering_instance(ours) == instance_id(settings.home)
        assert serves_home(ours, settings.home)
        assert answering_instance(theirs) == ""
        assert not serves_home(theirs, settings.home)
    assert answering_instance(ours) is None  # stopped: nothing answers


def test_a_free_port_is_free_and_a_served_one_is_not() -> None:
    port = free_port("127.0.0.1")
    assert not port_in_use("127.0.0.1", port)
    app = FastAPI()
    with serve(app) as url:
        assert port_in_use("127.0.0.1", int(url.rsplit(":", 1)[1]))
