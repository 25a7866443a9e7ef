"""The paraphrase set is well formed, and on it the default embedder finds what was said in
other words far more often than word hashing does (the reason it is the default)."""

from __future__ import annotations

import json

from bench.recall import DATA, Corpus, measure
from cognition.adapters.wordllama_embedder import WordLlamaEmbedder
from cognition.hashing_embedder import HashingEmbedder


def test_every_query_has_a_paraphrase_among_distinct_distractors() -> None:
    items = json.loads(DATA.read_text())["items"]
    corpus = Corpus.load(DATA)
    assert len(items) >= 50
    assert all(len(item["distractors"]) >= 3 for item in items)
    assert len(set(corpus.documents)) == len(corpus.documents)
    assert not set(corpus.queries) & set(corpus.documents)
    for query, target in zip(corpus.queries, corpus.targets, strict=True):
        assert corpus.documents[target] == next(
            item["paraphrase"] for item in items if item["query"] == query
        )


def test_wordllama_recalls_paraphrases_that_hashing_misses() -> None:
    corpus = Corpus.load(DATA)
    hashing = measure("hashing", HashingEmbedder(), corpus)
    wordllama = measure("wordllama", WordLlamaEmbedder(), corpus)
    assert all(1 <= rank <= len(corpus.documents) for rank in hashing.ranks + wordllama.ranks)
    assert wordllama.at(10) >= hashing.at(10) + 0.3
    assert wordllama.mrr > hashing.mrr
