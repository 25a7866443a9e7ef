"""`hearth up`'s supervisor restarts a child that died, with a growing wait while it keeps
dying, and leaves the others serving."""

from __future__ import annotations

import os
import re
import sys

import pytest

from service.supervisor import ChildSpec, Supervisor, restart_delay_s
from tests.polling import wait_until

SLEEPER = ChildSpec("sleeper", (sys.executable, "-c", "import time; time.sleep(120)"))
CRASHER = ChildSpec("crasher", (sys.executable, "-c", "raise SystemExit(3)"))


def test_a_dead_child_is_restarted_and_the_others_keep_running(
    capsys: pytest.CaptureFixture[str],
) -> None:
    supervisor = Supervisor([SLEEPER, CRASHER], os.environ)
    supervisor.start(trap_signals=False)
    sleeper = supervisor.children["sleeper"].pid
    try:

        def restarted_twice() -> bool:
            supervisor.tend()
            return supervisor.restarts["crasher"] >= 2

        wait_until(restarted_twice, "two restarts of a child that keeps dying", timeout_s=60)
        assert supervisor.children["sleeper"].pid == sleeper
        assert supervisor.children["sleeper"].poll() is None
        assert supervisor.restarts["sleeper"] == 0
    finally:
        supervisor.stop()
    printed = capsys.readouterr().out
    for wait in (1, 2):
        assert re.search(
            rf"crasher exited with code 3 after \d+ s; restarting it in {wait} s", printed
        )
    assert "crasher restarted (pid " in printed


def test_the_wait_doubles_up_to_half_a_minute() -> None:
    assert [restart_delay_s(n) for n in range(1, 8)] == [1, 2, 4, 8, 16, 30, 30]
