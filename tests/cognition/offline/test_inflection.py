"""inflect is imported once, through `cognition.offline.inflection`, without typeguard's
instrumentation (half of every process's start), and typeguard is left as it was."""

from __future__ import annotations

import subprocess
import sys

import typeguard

from cognition.offline.inflection import inflect
from tests.conftest import REPO


def test_inflect_works_without_run_time_checks_and_typeguard_is_restored() -> None:
    words = inflect.engine()
    assert (words.plural("sheep"), words.number_to_words(21), words.a("apple")) == (
        "sheep",
        "twenty-one",
        "an apple",
    )
    try:
        words.plural(3)  # type: ignore[arg-type]
    except typeguard.TypeCheckError as exc:  # pragma: no cover - the failure this guards
        raise AssertionError("inflect was imported with typeguard's checks") from exc
    except (TypeError, AttributeError):
        pass  # inflect's own failure on a number, unchecked
    assert typeguard.typechecked.__module__.startswith("typeguard")  # its own again


def test_no_module_of_hearth_imports_inflect_directly() -> None:
    found = subprocess.run(
        [
            "git",
            "grep",
            "--untracked",
            "-l",
            "-E",
            r"^\s*(import inflect|from inflect )",
            "--",
            "*.py",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    ).stdout.split()
    assert found == ["cognition/offline/inflection.py"], found
    assert sys.modules["inflect"] is inflect
