"""The caching embedder: each distinct text reaches the wrapped embedder once, in one batch."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import pytest

from cognition.embedding_cache import CachedEmbedder, content_hash
from cognition.errors import InvalidInput, InvalidOutput
from cognition.mind import Embedder


class CountingEmbedder:
    """A fake embedder recording every batch it is asked for; vectors are derived from text."""

    provider = "fake"
    model = "counting-v1"
    dimension = 2

    def __init__(self, *, drop_last: bool = False) -> None:
        self.calls: list[list[str]] = []
        self.drop_last = drop_last

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls.append(list(texts))
        vectors = [[float(len(text)), float(sum(map(ord, text)))] for text in texts]
        return vectors[:-1] if self.drop_last else vectors


def expected(text: str) -> list[float]:
    return [float(len(text)), float(sum(map(ord, text)))]


def test_content_hash_is_hex_sha256_of_utf8() -> None:
    empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    assert content_hash("") == empty
    assert content_hash("café ☕") == hashlib.sha256("café ☕".encode()).hexdigest()
    assert content_hash("a") != content_hash("a ")


def test_identity_is_the_inner_embedders_and_protocol_holds() -> None:
    cached = CachedEmbedder(CountingEmbedder())
    assert isinstance(cached, Embedder)
    assert (cached.provider, cached.model, cached.dimension) == ("fake", "counting-v1", 2)


def test_identical_texts_are_embedded_once_across_calls() -> None:
    inner = CountingEmbedder()
    cached = CachedEmbedder(inner)

    assert cached.embed(["a", "bb"]) == [expected("a"), expected("bb")]
    assert cached.embed(["bb", "ccc"]) == [expected("bb"), expected("ccc")]
    assert cached.embed(["ccc", "a"]) == [expected("ccc"), expected("a")]

    assert inner.calls == [["a", "bb"], ["ccc"]]
    assert len(cached) == 3


def test_duplicates_in_one_batch_are_embedded_once_and_order_is_kept() -> None:
    inner = CountingEmbedder()
    cached = CachedEmbedder(inner)

    result = cached.embed(["x", "yy", "x", "zzz", "yy"])

    assert result == [expected(t) for t in ["x", "yy", "x", "zzz", "yy"]]
    assert inner.calls == [["x", "yy", "zzz"]]


def test_misses_go_in_one_batch_among_hits() -> None:
    inner = CountingEmbedder()
    cached = CachedEmbedder(inner)
    cached.embed(["b"])

    cached.embed(["a", "b", "c", "b", "d"])

    assert inner.calls == [["b"], ["a", "c", "d"]]


def test_empty_batch_does_not_call_the_inner_embedder() -> None:
    inner = CountingEmbedder()
    assert CachedEmbedder(inner).embed([]) == []
    assert inner.calls == []


def test_least_recently_used_entry_is_evicted() -> None:
    inner = CountingEmbedder()
    cached = CachedEmbedder(inner, max_entries=2)
    cached.embed(["a", "b"])
    cached.embed(["a"])  # a is now the most recently used
    cached.embed(["c"])  # evicts b

    cached.embed(["a", "c"])
    assert inner.calls == [["a", "b"], ["c"]]
    cached.embed(["b"])
    assert inner.calls[-1] == ["b"]
    assert len(cached) == 2


def test_callers_cannot_corrupt_the_cache_by_mutating_results() -> None:
    cached = CachedEmbedder(CountingEmbedder())
    first = cached.embed(["a"])
    first[0][0] = 99.0
    assert cached.embed(["a"]) == [expected("a")]


def test_a_short_answer_from_the_inner_embedder_is_an_error_and_is_not_cached() -> None:
    inner = CountingEmbedder(drop_last=True)
    cached = CachedEmbedder(inner)
    with pytest.raises(InvalidOutput):
        cached.embed(["a", "b"])
    assert len(cached) == 0


def test_max_entries_must_be_positive() -> None:
    with pytest.raises(InvalidInput):
        CachedEmbedder(CountingEmbedder(), max_entries=0)
