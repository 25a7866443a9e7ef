"""An embedder wrapper that embeds each distinct text once.

Games repeat themselves ("Isabella is idle" every tick), and embedding is the costly part of
perception, so vectors are kept by the sha256 of the text — the same `content_hash` the
database stores beside each embedding. One cache belongs to one wrapped embedder, so a hash
always names a vector of that embedder's space.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence

from cognition.errors import InvalidInput, InvalidOutput
from cognition.mind import Embedder

DEFAULT_MAX_ENTRIES = 10_000
"""About 15 MB of 384-d float64 vectors: plenty of repeated texts, bounded memory."""


def content_hash(text: str) -> str:
    """Hex sha256 of the UTF-8 text: the key under which its embedding is cached and stored."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class CachedEmbedder:
    """Wraps any `Embedder`; only texts not seen before reach it, in one batch per call."""

    def __init__(self, inner: Embedder, *, max_entries: int = DEFAULT_MAX_ENTRIES) -> None:
        if max_entries < 1:
            raise InvalidInput(f"max_entries must be >= 1, got {max_entries}", field="max_entries")
        self._inner = inner
        self._max_entries = max_entries
        self._cache: OrderedDict[str, tuple[float, ...]] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def provider(self) -> str:
        return self._inner.provider

    @property
    def model(self) -> str:
        return self._inner.model

    @property
    def dimension(self) -> int:
        return self._inner.dimension

    def __len__(self) -> int:
        """How many vectors are cached now."""
        return len(self._cache)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text, in order; misses are de-duplicated and embedded in one call."""
        keys = [content_hash(text) for text in texts]
        found = self._lookup(keys)
        missing = {key: text for key, text in zip(keys, texts, strict=True) if key not in found}
        if missing:
            fresh = self._embed_missing(list(missing.values()))
            found.update(zip(missing, fresh, strict=True))
            self._store(zip(missing, fresh, strict=True))
        return [list(found[key]) for key in keys]

    def _lookup(self, keys: Sequence[str]) -> dict[str, tuple[float, ...]]:
        with self._lock:
            found = {key: self._cache[key] for key in keys if key in self._cache}
            for key in found:
                self._cache.move_to_end(key)
        return found

    def _embed_missing(self, texts: list[str]) -> list[tuple[float, ...]]:
        """Vectors from the inner embedder, checked: a short or ragged answer is never cached."""
        vectors = self._inner.embed(texts)
        if len(vectors) != len(texts):
            raise InvalidOutput(f"embedder returned {len(vectors)} vectors for {len(texts)} texts")
        if any(len(v) != self.dimension for v in vectors):
            raise InvalidOutput(f"embedder returned a vector that is not {self.dimension}-d")
        return [tuple(float(x) for x in v) for v in vectors]

    def _store(self, items: Iterable[tuple[str, tuple[float, ...]]]) -> None:
        with self._lock:
            for key, vector in items:
                self._cache[key] = vector
                self._cache.move_to_end(key)
            while len(self._cache) > self._max_entries:
                self._cache.popitem(last=False)
