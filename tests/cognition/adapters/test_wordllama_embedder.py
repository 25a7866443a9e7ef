"""The WordLlama embedder with the real weights from its wheel: meaning, not shared words,
decides closeness; nothing is fetched; the process's logging is left alone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cognition.adapters.wordllama_embedder import WordLlamaEmbedder, loaded_model
from cognition.hashing_embedder import HashingEmbedder
from cognition.mind import Embedder
from cognition.retrieval import cosine

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def embedder() -> WordLlamaEmbedder:
    return WordLlamaEmbedder()


def test_identity_and_protocol() -> None:
    wordllama = WordLlamaEmbedder()
    assert isinstance(wordllama, Embedder)
    assert (wordllama.provider, wordllama.model, wordllama.dimension) == (
        "wordllama",
        "wordllama-l2-supercat",
        256,
    )


def test_meaning_not_words_decides_closeness(embedder: WordLlamaEmbedder) -> None:
    mayor, election, stove, fire = embedder.embed(
        [
            "Sam is running for mayor",
            "An election for town leader is coming up",
            "the stove is burning",
            "the kitchen is on fire",
        ]
    )
    assert cosine(mayor, election) > cosine(mayor, fire) + 0.3
    assert cosine(stove, fire) > cosine(stove, election) + 0.3
    hashing = HashingEmbedder()
    lexical = hashing.embed(
        ["Sam is running for mayor", "An election for town leader is coming up"]
    )
    assert cosine(mayor, election) > cosine(*lexical) + 0.3  # no shared word, still close


def test_unit_vectors_in_order_whatever_the_batch(embedder: WordLlamaEmbedder) -> None:
    texts = ["a party", "Felix paints the long fence behind the bakery all afternoon", "rain"]
    together = embedder.embed(texts)
    alone = [embedder.embed([text])[0] for text in texts]
    assert [len(v) for v in together] == [256, 256, 256]
    for a, b in zip(together, alone, strict=True):
        assert np.linalg.norm(a) == pytest.approx(1.0, abs=1e-9)
        assert np.allclose(a, b, atol=1e-6)


def test_a_text_without_tokens_is_the_zero_vector(embedder: WordLlamaEmbedder) -> None:
    empty, word = embedder.embed(["", "bread"])
    assert empty == [0.0] * 256
    assert cosine(empty, word) == 0.0
    assert embedder.embed([]) == []


def test_the_model_loads_once_per_process(embedder: WordLlamaEmbedder) -> None:
    embedder.embed(["warm"])
    assert loaded_model() is loaded_model()
    assert WordLlamaEmbedder().embed(["warm"]) == embedder.embed(["warm"])


PROBE = """
import json, logging, os
from pathlib import Path
from cognition.adapters.wordllama_embedder import WordLlamaEmbedder
before = list(logging.getLogger().handlers)
vector = WordLlamaEmbedder().embed(["the stove is burning"])[0]
print(json.dumps({
    "dimension": len(vector),
    "handlers_kept": logging.getLogger().handlers == before,
    "cache_created": (Path.home() / ".cache" / "wordllama").exists(),
}))
"""


def test_loads_from_the_wheel_offline_and_keeps_logging(tmp_path: Path) -> None:
    """In a fresh process with an empty home and every proxy pointing at a closed port: any
    download would fail or leave a cache folder behind."""
    dead = "http://127.0.0.1:9"
    proxies = {name: dead for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")}
    env = {**os.environ, **proxies, "HOME": str(tmp_path), "PYTHONPATH": str(REPO), "NO_PROXY": ""}
    done = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "dimension": 256,
        "handlers_kept": True,
        "cache_created": False,
    }
