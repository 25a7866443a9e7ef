"""Settings choose the mind and embedder; a configured model is reached through the real
`openai` client, and a failing one hands over to the offline mind (marked degraded)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cognition.adapters.llm_config import LOCAL_MAX_CONCURRENCY, LOCAL_TIMEOUT_S, is_local
from cognition.embedding_cache import CachedEmbedder
from cognition.mind import ListAudit
from cognition.requests import RateImportance
from db.providers import build_embedder, build_mind, llm_config
from db.settings import Settings
from tests.fakes.openai_server import FakeOpenAI, reply, server_error


def _settings(tmp_path: Path, **values: object) -> Settings:
    return Settings(home=tmp_path, **values)  # type: ignore[arg-type]


def test_no_model_means_the_offline_mind(tmp_path: Path) -> None:
    mind = build_mind(_settings(tmp_path))
    assert mind.model == "offline-heuristic"
    assert 1 <= mind.think(RateImportance(["the cafe is on fire"]))[0] <= 10


def test_a_configured_model_is_called_over_http(tmp_path: Path, fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat(reply('{"ratings": [2, 9]}'))
    settings = _settings(
        tmp_path,
        llm_base_url=fake_openai.base_url,
        llm_model="gpt-test",
        llm_api_key="k",
        llm_prices={"gpt-test": (1.0, 2.0)},
    )
    audit = ListAudit()
    mind = build_mind(settings).with_audit(audit)
    assert mind.think(RateImportance(["brushed teeth", "got engaged"])) == [2, 9]
    assert fake_openai.calls() == 1
    assert audit.calls[0].model == "gpt-test" and audit.calls[0].cost_usd > 0


def test_a_failing_model_falls_back_to_the_offline_mind(
    tmp_path: Path, fake_openai: FakeOpenAI
) -> None:
    fake_openai.script_chat(*[server_error() for _ in range(4)])
    settings = _settings(
        tmp_path,
        llm_base_url=fake_openai.base_url,
        llm_model="gpt-test",
        llm_api_key="k",
        llm_max_retries=1,
    )
    audit = ListAudit()
    ratings = build_mind(settings).with_audit(audit).think(RateImportance(["the stove is burning"]))
    assert 1 <= ratings[0] <= 10
    assert audit.calls[-1].degraded and audit.calls[-1].model == "offline-heuristic"


def test_the_default_embedder_is_wordllama(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HEARTH_EMBEDDING_PROVIDER", raising=False)  # the tests' own choice
    embedder = build_embedder(Settings(home=tmp_path, _env_file=None))  # type: ignore[call-arg]
    assert (embedder.provider, embedder.dimension) == ("wordllama", 256)
    [vector] = embedder.embed(["An election for town leader is coming up"])
    assert len(vector) == 256


def test_embedder_is_cached_and_sized_by_settings(tmp_path: Path) -> None:
    embedder = build_embedder(
        _settings(tmp_path, embedding_provider="hashing", embedding_dimension=64)
    )
    assert isinstance(embedder, CachedEmbedder)
    assert embedder.provider == "hashing" and embedder.dimension == 64
    assert len(embedder.embed(["hello"])[0]) == 64


def test_a_loopback_endpoint_gets_a_local_models_pace(tmp_path: Path) -> None:
    local = llm_config(_settings(tmp_path, llm_base_url="http://127.0.0.1:8088/v1"))
    assert (local.timeout_s, local.max_concurrency) == (LOCAL_TIMEOUT_S, LOCAL_MAX_CONCURRENCY)
    remote = llm_config(_settings(tmp_path, llm_base_url="https://api.openai.com/v1"))
    assert (remote.timeout_s, remote.max_concurrency) == (30.0, 8)
    chosen = llm_config(
        _settings(
            tmp_path,
            llm_base_url="http://localhost:11434/v1",
            llm_timeout_s=90,
            llm_max_concurrency=4,
        )
    )
    assert (chosen.timeout_s, chosen.max_concurrency) == (90, 4)
    assert is_local("http://[::1]:8080/v1") and not is_local(None)


def test_output_modes_come_from_the_settings(tmp_path: Path) -> None:
    config = llm_config(_settings(tmp_path, llm_output_modes={"next_utterance": "json_object"}))
    assert config.mode_for("next_utterance") == "json_object"
    assert config.mode_for("plan_day") == "auto"
