"""Determinism across processes, not within one: Python salts `hash()` per process
(PYTHONHASHSEED), so the order of a set — and anything derived from it — can differ between
two runs of the same code while two calls in one process always agree. A determinism test
therefore runs its code in fresh interpreters under different seeds and compares what they
print with each other and with this process's answer.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SEEDS = ("0", "1", "2")
"""0 turns the salt off; 1 and 2 are two different salts."""


def printed_under_seeds(code: str, seeds: tuple[str, ...] = SEEDS) -> list[str]:
    """What `code` prints (it should print the `repr` of its result) in a fresh interpreter
    under each PYTHONHASHSEED of `seeds`, run from the repository root."""
    pythonpath = os.pathsep.join([str(REPO), str(REPO / "clients" / "python")])
    printed = []
    for seed in seeds:
        env = os.environ | {"PYTHONHASHSEED": seed, "PYTHONPATH": pythonpath}
        done = subprocess.run(
            [sys.executable, "-c", code],
            env=env,
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        printed.append(done.stdout.strip())
    return printed
