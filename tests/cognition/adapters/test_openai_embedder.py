"""`OpenAIEmbedder` through the real `openai` client against the fake server."""

from __future__ import annotations

from typing import Any

import openai
import pytest

from cognition.adapters.llm import LLMConfig
from cognition.adapters.openai_embedder import OpenAIEmbedder
from cognition.adapters.retry import RetryPolicy
from cognition.errors import InvalidOutput, ModelError, ModelUnavailable
from cognition.mind import Embedder
from tests.fakes.openai_server import (
    EMBEDDINGS,
    FakeOpenAI,
    bad_request,
    hash_vector,
    rate_limited,
    server_error,
    vectors,
)

DIMENSION = 8
FAST_RETRY = RetryPolicy(max_retries=2, backoff_base_s=0.001)


def make_embedder(fake: FakeOpenAI, **overrides: Any) -> OpenAIEmbedder:
    client = openai.OpenAI(base_url=fake.base_url, api_key="test", max_retries=0, timeout=5)
    settings: dict[str, Any] = {"model": "embed-test", "dimension": DIMENSION, "retry": FAST_RETRY}
    return OpenAIEmbedder(client, **(settings | overrides))


def test_embeds_in_order_with_the_requested_dimension(fake_openai: FakeOpenAI) -> None:
    embedder = make_embedder(fake_openai)
    assert isinstance(embedder, Embedder)
    assert (embedder.provider, embedder.model, embedder.dimension) == ("openai", "embed-test", 8)
    got = embedder.embed(["a cafe", "a park"])
    assert got == [hash_vector("a cafe", 8), hash_vector("a park", 8)]
    body = fake_openai.requests(EMBEDDINGS)[0]
    assert body == {
        "model": "embed-test",
        "input": ["a cafe", "a park"],
        "dimensions": 8,
        "encoding_format": "float",
    }


def test_rows_are_put_back_in_input_order(fake_openai: FakeOpenAI) -> None:
    def shuffled(body: dict[str, Any]) -> list[list[float]]:
        return [[float(i)] * DIMENSION for i in range(len(body["input"]))]

    fake_openai.embed_responder = shuffled
    assert make_embedder(fake_openai).embed(["x", "y", "z"])[2] == [2.0] * DIMENSION


def test_batches_and_skips_the_call_for_nothing(fake_openai: FakeOpenAI) -> None:
    embedder = make_embedder(fake_openai, batch_size=2)
    assert embedder.embed([]) == []
    assert len(embedder.embed([f"t{i}" for i in range(5)])) == 5
    assert [len(b["input"]) for b in fake_openai.requests(EMBEDDINGS)] == [2, 2, 1]


def test_dimensions_can_be_left_out_for_servers_that_reject_it(fake_openai: FakeOpenAI) -> None:
    make_embedder(fake_openai, send_dimensions=False).embed(["a"])
    assert "dimensions" not in fake_openai.requests(EMBEDDINGS)[0]


def test_wrong_length_vectors_are_invalid_output(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_embeddings(vectors([[0.1] * (DIMENSION + 1)]))
    with pytest.raises(InvalidOutput, match="expected 8"):
        make_embedder(fake_openai).embed(["a"])


def test_missing_vectors_are_invalid_output(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_embeddings(vectors([[0.1] * DIMENSION]))
    with pytest.raises(InvalidOutput, match="asked for 2"):
        make_embedder(fake_openai).embed(["a", "b"])


def test_transient_failures_are_retried(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_embeddings(rate_limited(), server_error())
    assert len(make_embedder(fake_openai).embed(["a"])) == 1
    assert fake_openai.calls(EMBEDDINGS) == 3


def test_retries_are_bounded(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_embeddings(server_error(), server_error(), server_error())
    with pytest.raises(ModelUnavailable):
        make_embedder(fake_openai).embed(["a"])
    assert fake_openai.calls(EMBEDDINGS) == 3


def test_permanent_failures_become_model_errors(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_embeddings(bad_request("model not found"))
    with pytest.raises(ModelError, match="model not found"):
        make_embedder(fake_openai).embed(["a"])
    assert fake_openai.calls(EMBEDDINGS) == 1


def test_builds_its_client_from_a_config(fake_openai: FakeOpenAI) -> None:
    config = LLMConfig(base_url=fake_openai.base_url, api_key="", model="chat-model")
    embedder = OpenAIEmbedder(config, model="embed-test", dimension=4)
    assert embedder.embed(["a"]) == [hash_vector("a", 4)]
