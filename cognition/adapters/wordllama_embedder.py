"""WordLlama sentence vectors: semantic relevance on numpy alone, weights inside the wheel.

WordLlama (`wordllama` on PyPI) averages token vectors distilled from a large language model's
embedding table: no torch, no network, 256-d, ~0.6 s to load and thousands of texts a second on
one core, so it can keep up with ingest where MiniLM cannot. The weights and the tokenizer ship
in the package; its default lookup misses the tokenizer's folder name and would try a hub, so
it is loaded with the package folder as its cache and downloads disabled. Loading happens once
per process, on the first `embed` call (never at import or construction); the weights are
read-only, so every embedder and thread of the process shares them.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

MODEL_NAME = "wordllama-l2-supercat"
CONFIG = "l2_supercat"
DIMENSION = 256
"""The dimension of the weights the wheel ships (larger ones would need a download)."""

DEFAULT_BATCH_SIZE = 64
"""Texts tokenised and pooled together. Every text of a batch is padded to its longest one
(a 4000-character description is ~1000 tokens: 64 × 1000 × 256 floats, 65 MB), so texts are
batched in order of length."""

_MISSING_PACKAGE = (
    "the wordllama embedder needs the `wordllama` package, a dependency of Hearth: "
    "pip install -e . (or choose HEARTH_EMBEDDING_PROVIDER=hashing)"
)


class WordLlamaEmbedder:
    """Unit-length 256-d WordLlama vectors (a text with no known token gets the zero vector,
    whose relevance to anything is 0)."""

    def __init__(self, *, batch_size: int = DEFAULT_BATCH_SIZE) -> None:
        self._batch_size = batch_size

    @property
    def provider(self) -> str:
        return "wordllama"

    @property
    def model(self) -> str:
        return MODEL_NAME

    @property
    def dimension(self) -> int:
        return DIMENSION

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text, in order (loads the model on first use)."""
        if not texts:
            return []
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        with np.errstate(invalid="ignore", divide="ignore"):  # a text of no token: 0 / 0
            pooled = loaded_model().embed(
                [texts[i] for i in order], norm=False, batch_size=self._batch_size
            )
        vectors = np.empty((len(texts), DIMENSION), dtype=np.float64)
        vectors[order] = np.asarray(pooled, dtype=np.float64)
        result: list[list[float]] = _unit_rows(vectors).tolist()
        return result


def _unit_rows(vectors: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Rows scaled to unit length; rows that are zero or not finite (no token) become zero."""
    vectors = np.where(np.isfinite(vectors), vectors, 0.0)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0.0)


_model: Any = None
_model_lock = threading.Lock()


def loaded_model() -> Any:
    """The process's WordLlama model, loaded on first use (~0.6 s)."""
    global _model
    with _model_lock:
        if _model is None:
            _model = _load_model()
        return _model


def _load_model() -> Any:
    """The bundled weights and tokenizer, read from the installed package only."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        import wordllama
        from wordllama import WordLlama
    except ImportError as exc:
        raise ImportError(_MISSING_PACKAGE) from exc
    finally:  # wordllama calls logging.basicConfig at import: keep the process's logging
        root.handlers[:] = handlers
        root.setLevel(level)
    folder = Path(wordllama.__file__).parent
    return WordLlama.load(CONFIG, cache_dir=folder, dim=DIMENSION, disable_download=True)
