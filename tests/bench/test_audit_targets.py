"""Issue 11's targets, on the session's short demo town (tests/town_run.py: the real stack, six
characters, two game hours). A target measured over nothing is not met."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hearth_client.demo.drive import DemoConfig

from bench.audit import (
    MEASURES,
    TARGETS,
    as_json,
    request_timeout,
    rules_table,
    table,
    verdicts,
)
from bench.audit_measures import Share
from db.settings import Settings
from tests.town_run import ShortTown

pytestmark = pytest.mark.timeout(600)  # the first test here may set up the short town


def _target(short_town: ShortTown, measure: str) -> Share:
    share = short_town.audit.town(measure)
    assert share.total > 0, f"nothing to measure for {measure}"
    return share


def test_no_nested_quotes(short_town: ShortTown) -> None:
    assert _target(short_town, "nested_quotes").hits == 0


def test_no_duplicate_memory_within_ten_game_minutes(short_town: ShortTown) -> None:
    assert _target(short_town, "duplicates").hits == 0


def test_no_hit_of_the_grammar_checks(short_town: ShortTown) -> None:
    share = _target(short_town, "grammar")
    assert share.hits == 0, short_town.audit.findings.examples


def test_tasks_stay_inside_their_hour_chunks_area(short_town: ShortTown) -> None:
    share = _target(short_town, "tasks_in_area")
    assert share.rate is not None and share.rate >= 0.95


def test_every_target_is_one_of_the_printed_measures() -> None:
    assert {t.measure for t in TARGETS} <= {m.key for m in MEASURES}
    assert len(TARGETS) == 4


def test_the_audit_prints_every_agent_and_measure_in_100_columns(short_town: ShortTown) -> None:
    audit = short_town.audit
    printed = "\n".join([table(audit), rules_table(audit.findings), verdicts(audit)])
    assert all(len(line) <= 100 for line in printed.splitlines()), printed
    for name in audit.agents:
        assert name in printed
    assert printed.count("NOT MET") + printed.count("met    ") == len(TARGETS)
    # the town row adds up the agents' rows
    for m in MEASURES:
        shares = audit.measures[m.key].values()
        assert audit.town(m.key) == Share(sum(s.hits for s in shares), sum(s.total for s in shares))


def test_the_audit_reads_the_run_it_drove(short_town: ShortTown) -> None:
    rows, run = short_town.audit.rows, short_town.run
    assert len(run.snapshots) == run.steps == 8
    assert len(rows.samples) == 8 * len(run.agents)
    assert {m.agent for m in rows.memories} == {a["name"] for a in run.agents}
    assert rows.plans and rows.lines, "the short town plans and talks"
    kinds = set(short_town.audit.findings.by_kind)
    assert {"utterance", "plan", "observation", "outline", "summary"} <= kinds
    assert rows.routines["Junie Halvorsen"].shifts  # she opens The Copper Kettle at 7am
    at_work = short_town.audit.measures["at_work"]
    assert at_work["Junie Halvorsen"].total == 8  # 07:00–08:45 is inside her shift


def test_the_json_holds_every_measure_per_agent(short_town: ShortTown) -> None:
    figures = as_json(short_town.audit, DemoConfig(hours=2, agents=6))
    figures = json.loads(json.dumps(figures))
    assert set(figures["measures"]) == {m.key for m in MEASURES}
    duplicates = figures["measures"]["duplicates"]
    assert set(duplicates["agents"]) == set(short_town.audit.agents)
    assert duplicates["town"]["total"] == len(short_town.audit.rows.memories)
    assert set(figures["targets"]) == {t.text for t in TARGETS}


def test_a_town_waits_for_a_local_models_interview_answer(tmp_path: Path) -> None:
    offline = Settings(home=tmp_path, llm_model=None, llm_base_url=None)
    local = Settings(
        home=tmp_path, llm_model="qwen", llm_base_url="http://127.0.0.1:8088/v1", llm_api_key="x"
    )
    hosted = local.model_copy(update={"llm_base_url": "https://api.example.com/v1"})
    assert request_timeout(offline) == 30
    assert request_timeout(local) == 30 + 2 * 600  # an answer and a re-ask, each up to 600 s
    assert request_timeout(hosted) == 30 + 2 * 30
