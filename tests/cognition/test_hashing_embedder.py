"""The hashing embedder: deterministic everywhere, unit length, lexically meaningful."""

from __future__ import annotations

import json

import numpy as np
import pytest

from cognition.errors import InvalidInput
from cognition.hashing_embedder import HashingEmbedder
from cognition.mind import Embedder
from cognition.retrieval import cosine
from tests.hash_seeds import printed_under_seeds

TEXTS = ["the stove is burning in the kitchen", "Isabella reads a novel", "!!!"]


def test_identity_and_protocol() -> None:
    embedder = HashingEmbedder()
    assert isinstance(embedder, Embedder)
    assert (embedder.provider, embedder.model, embedder.dimension) == ("hashing", "hashing-v1", 384)


def test_vectors_have_the_dimension_and_unit_length() -> None:
    vectors = HashingEmbedder(dimension=64).embed(TEXTS[:2])
    assert [len(v) for v in vectors] == [64, 64]
    for v in vectors:
        assert np.linalg.norm(v) == pytest.approx(1.0, abs=1e-12)


def test_text_without_words_is_the_zero_vector() -> None:
    assert HashingEmbedder(dimension=16).embed(["!!!", ""]) == [[0.0] * 16, [0.0] * 16]


def test_empty_batch_gives_no_vectors() -> None:
    assert HashingEmbedder().embed([]) == []


def test_only_function_words_still_embed() -> None:
    (vector,) = HashingEmbedder().embed(["it is"])
    assert np.linalg.norm(vector) == pytest.approx(1.0)


def test_same_text_same_vector_and_case_is_ignored() -> None:
    a, b = HashingEmbedder(), HashingEmbedder()
    assert a.embed(["The Stove"]) == b.embed(["the stove"])


def test_vectors_are_identical_across_processes_with_different_hash_seeds() -> None:
    """Python's hash() is salted per process; a stored vector must not depend on it."""
    script = (
        "import json; from cognition.hashing_embedder import HashingEmbedder; "
        f"print(json.dumps(HashingEmbedder().embed({TEXTS!r})))"
    )
    outputs = [json.loads(printed) for printed in printed_under_seeds(script)]
    assert outputs == [HashingEmbedder().embed(TEXTS)] * len(outputs)


def test_similar_texts_are_closer_than_unrelated_ones() -> None:
    query, similar, unrelated = HashingEmbedder().embed(
        ["the stove is burning", "the kitchen stove burned", "she reads a novel in bed"]
    )
    assert cosine(query, similar) > cosine(query, unrelated) + 0.3
    assert cosine(query, unrelated) < 0.2


def test_inflections_share_trigrams() -> None:
    burning, burned, novel = HashingEmbedder().embed(["burning", "burned", "novel"])
    assert cosine(burning, burned) > cosine(burning, novel)


def test_dimension_must_be_positive() -> None:
    with pytest.raises(InvalidInput):
        HashingEmbedder(dimension=0)
