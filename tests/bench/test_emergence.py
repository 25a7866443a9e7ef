"""`python -m bench.emergence` and `python -m bench.believability` end to end, short, against
the fake model server: the town thinks through the LLM path (prompts, the `openai` client,
parsing) with the offline heuristics' content, and the model judges. The figures mean nothing
here; what is tested is that every part of both harnesses runs and reports."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.responder import OfflineResponder, read
from tests.conftest import REPO
from tests.fakes.openai_server import FakeOpenAI

REQUIRED = {"party", "election", "density", "attendance", "wall_s", "model_calls"}


@pytest.fixture
def model() -> Iterator[tuple[FakeOpenAI, dict[str, str]]]:
    with FakeOpenAI(chat_responder=OfflineResponder(year=2023)) as fake:
        env = dict(os.environ) | {
            "HEARTH_LLM_BASE_URL": fake.base_url,
            "HEARTH_LLM_MODEL": "fake-model",
            "HEARTH_LLM_API_KEY": "test",
            "HEARTH_LLM_FALLBACK": "false",
        }
        yield fake, env


def operations(fake: FakeOpenAI) -> Counter[str]:
    return Counter(read(body).operation for body in fake.requests())


@pytest.mark.worker
@pytest.mark.timeout(600)
def test_the_emergence_harness_runs_a_short_town_with_a_model_judge(
    tmp_path: Path, model: tuple[FakeOpenAI, dict[str, str]]
) -> None:
    fake, env = model
    out, png = tmp_path / "emergence.json", tmp_path / "emergence.png"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.emergence",
            "--hours",
            "1",
            "--agents",
            "4",
            "--json",
            str(out),
            "--plot",
            str(png),
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=540,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    figures = json.loads(out.read_text())
    assert figures.keys() >= REQUIRED
    assert figures["judge"] == "model"
    for key in ("party", "election"):
        topic = figures[key]
        assert 0 <= topic["start"] <= 1 and 0 <= topic["end"] <= 1
        assert isinstance(topic["hallucinated"], int)
        assert set(topic["judges"]) == {"offline", "model"}
    # Junie knows of her own party from the start, through the model's answer and its label
    assert figures["party"]["knew"]["start"] == ["Junie Halvorsen"]
    assert figures["party"]["start"] == 1 / 4
    assert 0 <= figures["density"]["start"] <= figures["density"]["end"] <= 1
    assert figures["density"]["answers"] == 2 * 4 * 3  # every ordered pair, at start and end
    asked = operations(fake)
    assert asked["judge_answer"] == 2 * (4 * 2 + 4 * 3)  # diffusion and pairs, twice
    assert asked["answer"] >= 2 * (4 * 2 + 4 * 3)  # the interviews went to the model too
    assert figures["model_calls"] >= asked["judge_answer"] + asked["answer"]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "paper (Smallville)" in run.stdout and "the party (from Junie Halvorsen):" in run.stdout
    assert "interviews" in run.stderr  # progress


@pytest.mark.worker
@pytest.mark.timeout(600)
def test_the_believability_harness_ranks_five_conditions_with_the_model(
    tmp_path: Path, model: tuple[FakeOpenAI, dict[str, str]]
) -> None:
    fake, env = model
    out = tmp_path / "believability.json"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.believability",
            "--hours",
            "1",
            "--agents",
            "3",
            "--interviewed",
            "1",
            "--json",
            str(out),
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=540,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    figures = json.loads(out.read_text())
    assert figures["rankings"] == 25  # Appendix B: five categories of five questions
    conditions = figures["conditions"]
    assert set(conditions) == {
        "full",
        "no_reflection",
        "no_reflection_no_planning",
        "no_memory",
        "memory_dump",
    }
    assert all(c["rankings"] == 25 and 1 <= c["mean_rank"] <= 5 for c in conditions.values())
    assert sum(c["mean_rank"] for c in conditions.values()) == pytest.approx(15)
    assert figures["kruskal_wallis"]["df"] == 4
    assert set(figures["by_category"]) == {
        "self-knowledge",
        "memory",
        "plans",
        "reactions",
        "reflections",
    }
    asked = operations(fake)
    assert asked["rank_answers"] == 25
    assert asked["answer"] >= 25 * 5  # four interview modes and the memory dump
    assert "Kruskal–Wallis" in run.stdout


def test_believability_needs_a_model() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HEARTH_LLM", "OPENAI"))}
    run = subprocess.run(
        [sys.executable, "-m", "bench.believability", "--hours", "1", "--agents", "2"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode != 0
    assert "needs a model" in run.stderr
