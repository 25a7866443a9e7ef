"""`hearth demo` joins only the Hearth of its own HEARTH_HOME, otherwise starts its own on a
free port; `--keep` leaves it serving (the printed commands work) until Ctrl-C."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psutil
import pytest
from fastapi import FastAPI, Request
from hearth_client.demo.drive import TownRun
from sqlalchemy.orm import Session, sessionmaker

from db.queries.api_keys import generate_key, store_key
from db.settings import Settings
from service.app import create_app
from service.demo import choose_target, come_back, hearth_env
from service.instance import instance_id
from tests.live import serve

REPO = Path(__file__).resolve().parents[2]
KEEP_TIMEOUT_S = 240.0
STOP_TIMEOUT_S = 180.0
"""Ctrl-C to exit: the supervisor gives its children 15 s, then the embedded servers stop;
a whole test run beside a benchmark on two cores has taken over 90 s."""


def _port(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


def _stranger(seen: list[str]) -> FastAPI:
    """Someone else's Hearth: answers /healthz with no instance of ours, records every path."""
    app = FastAPI()

    @app.middleware("http")
    async def record(request: Request, call_next):  # type: ignore[no-untyped-def]
        seen.append(request.url.path)
        return await call_next(request)

    app.get("/healthz")(lambda: {"status": "ok", "instance": "hi_someone_else"})
    return app


def test_the_demo_joins_the_api_of_its_own_home(settings: Settings) -> None:
    with serve(create_app(settings)) as url:
        target = choose_target(settings.model_copy(update={"api_port": _port(url)}))
    assert target.join and target.base_url == url and not target.note


def test_the_demo_never_joins_an_api_of_another_home(settings: Settings, tmp_path: Path) -> None:
    with serve(create_app(settings)) as url:
        elsewhere = settings.model_copy(update={"home": tmp_path, "api_port": _port(url)})
        target = choose_target(elsewhere)
    assert not target.join and target.settings.api_port != _port(url)
    assert target.note == (
        f"a Hearth started from another HEARTH_HOME holds {url}; "
        f"starting this demo's own stack on {target.base_url}"
    )


def test_a_port_held_by_another_program_moves_the_demo(tmp_path: Path) -> None:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        target = choose_target(Settings(home=tmp_path, api_port=port))
    assert not target.join and target.settings.api_port != port
    assert target.note.startswith(f"another program holds http://127.0.0.1:{port}")


def test_a_free_port_is_used_as_configured(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    target = choose_target(Settings(home=tmp_path, api_port=port))
    assert (target.join, target.settings.api_port, target.note) == (False, port, "")


def test_the_report_says_how_to_serve_the_town_again(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path, api_port=41234)
    run = TownRun(world_id="w-1", world_key="hk_world_x", agents=[])
    assert hearth_env(settings) == f"HEARTH_HOME={tmp_path} HEARTH_API_PORT=41234 "
    again = come_back(settings, run).splitlines()
    assert f"  HEARTH_HOME={tmp_path} HEARTH_API_PORT=41234 hearth up" in again
    assert hearth_env(Settings(home=Path.home() / ".hearth", api_port=8000)) == ""


def _ignore_ctrl_c() -> None:
    """As a shell's background job starts: SIGINT ignored (the test run may itself be one)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _hearth(*args: str, env: dict[str, str]) -> subprocess.Popen[str]:
    full = {**os.environ, "PYTHONPATH": str(REPO), **env}
    for name in ("HEARTH_DATABASE_URL", "HEARTH_REDIS_URL", "HEARTH_ADMIN_KEY"):
        if name not in env:
            full.pop(name, None)
    return subprocess.Popen(
        [sys.executable, "-m", "service", *args],
        env=full,
        cwd=REPO,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        preexec_fn=_ignore_ctrl_c,  # Ctrl-C must stop `--keep` even so
    )


def _read_until(proc: subprocess.Popen[str], marker: str, timeout_s: float) -> str:
    assert proc.stdout is not None
    lines: list[str] = []
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line and proc.poll() is not None:
            break
        lines.append(line)
        if marker in line:
            return "".join(lines)
    raise AssertionError(f"no {marker!r} in:\n{''.join(lines)}")


@pytest.fixture
def stranger() -> Iterator[tuple[str, list[str]]]:
    seen: list[str] = []
    with serve(_stranger(seen)) as url:
        yield url, seen


@pytest.mark.timeout(600)  # a whole stack starts, drives a step, serves and stops
def test_demo_keep_serves_its_own_stack_until_ctrl_c(
    tmp_path: Path, stranger: tuple[str, list[str]]
) -> None:
    their_url, their_requests = stranger
    home = tmp_path / "home"
    env = {"HEARTH_HOME": str(home), "HEARTH_API_PORT": str(_port(their_url))}
    proc = _hearth("demo", "--keep", "--hours", "0.25", "--agents", "2", env=env)
    try:
        out = _read_until(proc, "Ctrl-C stops it", KEEP_TIMEOUT_S)
        url = re.search(r"still serving at (http://\S+) ", out)
        assert url is not None and url[1] != their_url, out
        assert "a Hearth started from another HEARTH_HOME holds" in out
        assert set(their_requests) == {"/healthz"}  # asked who it is, never joined it
        assert httpx.get(f"{url[1]}/healthz").json()["instance"] == instance_id(home)
        key = re.search(r"export KEY=(\S+)", out)
        world = re.search(r"export WORLD=(\S+)", out)
        assert key and world, out
        answer = httpx.get(world[1], headers={"Authorization": f"Bearer {key[1]}"})
        assert answer.status_code == 200 and answer.json()["name"] == "Larkspur"
        assert f"export HEARTH_HOME={home} HEARTH_API_PORT=" in out
        children = psutil.Process(proc.pid).children(recursive=True)
        assert len(children) >= 4  # api, two workers, beat
        proc.send_signal(signal.SIGINT)
        # read what it prints while stopping: an unread pipe that fills blocks its writers, and
        # the stack would then never stop (seen on a loaded machine)
        try:
            proc.communicate(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired as slow:
            alive = [f"{p.name()} {p.status()}" for p in children if p.is_running()]
            raise AssertionError(f"still stopping after {STOP_TIMEOUT_S} s: {alive}") from slow
        assert proc.returncode == 0
        psutil.wait_procs(children, timeout=30)
        assert not [p for p in children if p.is_running() and p.status() != "zombie"]
    finally:
        if proc.poll() is None:
            proc.kill()


def test_demo_joins_the_hearth_up_of_its_home(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    key = generate_key("admin")
    with sessions.begin() as session:
        store_key(session, key)
    with serve(create_app(settings)) as url:
        proc = _hearth(
            "demo",
            "--hours",
            "0.25",
            "--agents",
            "1",
            "--settle",
            "1",
            env={
                "HEARTH_HOME": str(settings.home),
                "HEARTH_API_PORT": str(_port(url)),
                "HEARTH_ADMIN_KEY": key,
            },
        )
        out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 0, out
    assert f"using the Hearth already serving this HEARTH_HOME at {url}" in out
    assert "starting the embedded stack" not in out
    assert "1 people of Larkspur" in out and "Junie Halvorsen\n---------------" in out
