"""The economy bench runs a town whose steps reach the workers: what a step stages in the job
outbox is relayed and run (a bench that never saw a reaction measured a town that never met)."""

from __future__ import annotations

import re
import subprocess
import sys


def test_a_short_economy_run_reacts_talks_and_counts_its_calls() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bench.economy", "--agents", "10", "--hours", "12"],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    jobs = dict(
        (name, int(count))
        for name, count in re.findall(r"'(hearth\.\w+)': (\d+)", done.stdout.split("jobs run:")[1])
    )
    assert jobs.get("hearth.decide_reaction", 0) > 10, done.stdout
    assert jobs.get("hearth.converse", 0) > 0, done.stdout
    total = re.search(
        r"model calls per agent-day: ([\d.]+) \(target <= 100: (met|MISSED)", done.stdout
    )
    assert total is not None, done.stdout
    assert float(total.group(1)) > 0
