"""A deterministic, dependency-free lexical embedder (the feature-hashing trick).

Used where a real model is unwanted: tests, benchmarks, and installs without the `local` extra.
Texts sharing words (or word fragments) get a higher cosine than unrelated texts; it knows
nothing of synonyms. Hashing uses blake2b, never Python's per-process salted `hash()`, so a
vector is the same in every process, on every machine, forever: it may be stored in the database.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Sequence
from functools import lru_cache

import numpy as np

from cognition.errors import InvalidInput

DEFAULT_DIMENSION = 384
"""Matches all-MiniLM-L6-v2, so a database can switch embedders without a column change."""

DEFAULT_TRIGRAM_WEIGHT = 0.5
"""Character trigrams link inflections ("burn", "burning") but count less than whole words."""

_HASH_BYTES = 8
"""64 bits of blake2b: one bit for the sign, the rest (mod dimension) for the bucket."""

_BUCKET_CACHE_SIZE = 65536
"""Distinct features whose bucket is remembered; a game's vocabulary is far smaller."""

_WORD = re.compile(r"\w+")
_STOPWORD_TEXT = """a an and are as at be by for from has have he her his i in is it its of on
or she so that the their them they this to was were will with you"""
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())
"""Function words that would make every English sentence look alike to a lexical embedder."""


class HashingEmbedder:
    """Signed feature hashing of words and character trigrams into `dimension` buckets."""

    def __init__(
        self, dimension: int = DEFAULT_DIMENSION, *, trigram_weight: float = DEFAULT_TRIGRAM_WEIGHT
    ) -> None:
        if dimension < 1:
            raise InvalidInput(f"dimension must be >= 1, got {dimension}", field="dimension")
        self._dimension = dimension
        self._trigram_weight = trigram_weight

    @property
    def provider(self) -> str:
        return "hashing"

    @property
    def model(self) -> str:
        return "hashing-v1"

    @property
    def dimension(self) -> int:
        return self._dimension

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One L2-normalised vector per text; a text with no word characters is all zeros."""
        return [self._embed_one(text) for text in texts]

    def _embed_one(self, text: str) -> list[float]:
        vector = np.zeros(self._dimension, dtype=np.float64)
        for feature, weight in self._features(text):
            bucket, sign = _bucket(feature, self._dimension)
            vector[bucket] += sign * weight
        norm = float(np.linalg.norm(vector))
        if norm > 0.0:
            vector /= norm
        result: list[float] = vector.tolist()
        return result

    def _features(self, text: str) -> Iterator[tuple[str, float]]:
        """Each content word (all words if the text is only function words) and its trigrams."""
        words = _WORD.findall(text.casefold())
        content = [w for w in words if w not in _STOPWORDS] or words
        for word in content:
            yield "w:" + word, 1.0
            padded = f"#{word}#"
            for start in range(len(padded) - 2):
                yield "c:" + padded[start : start + 3], self._trigram_weight


@lru_cache(maxsize=_BUCKET_CACHE_SIZE)
def _bucket(feature: str, dimension: int) -> tuple[int, float]:
    """Bucket index and ±1 sign of a feature, from one stable blake2b digest."""
    digest = hashlib.blake2b(feature.encode("utf-8"), digest_size=_HASH_BYTES).digest()
    value = int.from_bytes(digest, "big")
    sign = 1.0 if value & 1 else -1.0
    return (value >> 1) % dimension, sign
