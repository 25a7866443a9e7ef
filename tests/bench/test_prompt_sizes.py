"""`python -m bench.prompt_sizes` prints a row per operation and no prompt over its budget
(without the model's GGUF it counts by the estimate alone and says so)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import prompt_sizes
from cognition.prompt_budget import PROMPT_BUDGETS


def test_every_operation_is_measured_and_within_budget(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert prompt_sizes.main(["--gguf", str(tmp_path / "absent.gguf"), "--memories", "60"]) == 0
    printed = capsys.readouterr().out
    assert "model tokens not counted" in printed
    rows = [line.split(" | ") for line in printed.splitlines() if line.startswith("| ")][2:]
    assert {row[0].removeprefix("| ") for row in rows} == set(PROMPT_BUDGETS)
    assert {row[1] for row in rows} == {"town", "+60 memories", "at defaults"}
    assert all(int(row[4]) <= int(row[5]) for row in rows)  # max within budget
    assert any(int(row[6]) > int(row[5]) for row in rows)  # and something had to be cut
    assert printed.rstrip().endswith("over budget after the cut: none")
