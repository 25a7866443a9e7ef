"""The `hearth` CLI as a user meets it: bad settings, `sql`, `ping`, and `up` with Ctrl-C (and
a second `up` on the same home refused)."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from db.settings import Settings
from tests.polling import wait_until

REPO = Path(__file__).resolve().parents[2]


def hearth(
    *args: str, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "service", *args],
        env={**os.environ, "PYTHONPATH": str(REPO), **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=REPO,
    )


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("HEARTH_API_PORT", "eighty"),
        ("HEARTH_REFLECTION_THRESHOLD", "0"),
        ("HEARTH_EMBEDDING_PROVIDER", "magic"),
        ("HEARTH_DATABASE_URL", "localhost"),
    ],
)
def test_a_bad_setting_stops_start_up_naming_the_variable(variable: str, value: str) -> None:
    result = hearth("status", env={variable: value})
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(variable + ":")
    assert "Traceback" not in result.stderr


def _env(settings: Settings) -> dict[str, str]:
    return {
        "HEARTH_DATABASE_URL": str(settings.database_url),
        "HEARTH_REDIS_URL": str(settings.redis_url),
        "HEARTH_HOME": str(settings.home),
    }


def test_sql_prints_a_table_and_refuses_writes(settings: Settings, sessions: object) -> None:
    ok = hearth("sql", "SELECT count(*) AS n FROM memory_stream", env=_env(settings))
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.splitlines()[0].strip() == "n" and "(1 row)" in ok.stdout
    refused = hearth("sql", "DELETE FROM agents", env=_env(settings))
    assert refused.returncode == 1
    assert re.search(r"permission denied|read-only", refused.stderr)
    assert "memory_stream" in refused.stderr


def test_sql_prints_csv_and_json_and_times_out(settings: Settings, sessions: object) -> None:
    query = "SELECT 1 AS n, repeat('x', 80) AS long"
    csv = hearth("sql", "--csv", query, env=_env(settings))
    assert csv.returncode == 0 and csv.stdout.splitlines() == ["n,long", "1," + "x" * 80]
    as_json = hearth("sql", "--json", query, env=_env(settings))
    assert json.loads(as_json.stdout) == [{"n": 1, "long": "x" * 80}]
    assert "x" * 80 in hearth("sql", "--full", query, env=_env(settings)).stdout
    short = {**_env(settings), "HEARTH_ANALYST_STATEMENT_TIMEOUT_S": "0.2"}
    slow = hearth("sql", "SELECT pg_sleep(3)", env=short)
    assert slow.returncode == 1 and "statement timeout" in slow.stderr


@pytest.mark.worker
def test_ping_answers_with_a_worker(settings: Settings, celery_worker: None) -> None:
    result = hearth("ping", "--queue", "slow", env=_env(settings))
    assert result.returncode == 0, result.stdout
    assert "slow answered" in result.stdout


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_up_starts_everything_and_one_ctrl_c_stops_it_all(tmp_path: Path) -> None:
    port = _free_port()
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "HEARTH_HOME": str(tmp_path / "home"),
        "HEARTH_API_PORT": str(port),
    }
    for name in ("HEARTH_DATABASE_URL", "HEARTH_REDIS_URL", "HEARTH_ADMIN_KEY"):
        env.pop(name, None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "service", "up"],
        env=env,
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    output: list[str] = []
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            output.append(line)
            if "ready in" in line or proc.poll() is not None:
                break
        text = "".join(output)
        assert "ready in" in text, text
        assert f"http://127.0.0.1:{port}" in text
        assert re.search(r"admin key \(shown once.*\): hk_admin_\S+", text)
        assert "offline heuristic mind" in text
        descendants = psutil.Process(proc.pid).children(recursive=True)
        assert len(descendants) >= 4  # api, two workers, beat (+ worker pool children)
        second = subprocess.run(
            [sys.executable, "-m", "service", "up"],
            env=env,
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert second.returncode == 1, second.stdout + second.stderr
        assert f"is already served by pid {proc.pid}" in second.stderr, second.stderr
        assert "ready" not in second.stdout
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 0
        wait_until(
            lambda: not [p for p in descendants if p.is_running() and p.status() != "zombie"],
            "every child's exit",
            timeout_s=10,
        )
        assert (tmp_path / "home" / "admin.key").read_text().startswith("hk_admin_")
    finally:
        if proc.poll() is None:
            proc.kill()
