"""Embeddings from any OpenAI-compatible `/v1/embeddings` endpoint.

The vector space is (provider "openai", model, dimension); a server that returns vectors of
another length would silently corrupt relevance, so that is an `InvalidOutput`, not data.
Retries go through `cognition.adapters.retry`, the same single layer the chat mind uses.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from functools import partial

import openai

from cognition.adapters.llm_config import LLMConfig, make_client
from cognition.adapters.retry import RetryPolicy, describe, with_retries
from cognition.errors import InvalidOutput, ModelError

PROVIDER = "openai"
DEFAULT_BATCH_SIZE = 256
"""Texts per request: well under OpenAI's 2048-input cap and its 300k-token request budget."""


class OpenAIEmbedder:
    """An `Embedder` on an OpenAI-compatible endpoint, built from a client or an `LLMConfig`.

    `send_dimensions=False` is for servers (Ollama, most local ones) that reject the
    `dimensions` parameter; the returned length is still checked against `dimension`.
    """

    def __init__(
        self,
        endpoint: openai.OpenAI | LLMConfig,
        *,
        model: str,
        dimension: int,
        send_dimensions: bool = True,
        batch_size: int = DEFAULT_BATCH_SIZE,
        retry: RetryPolicy | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        if isinstance(endpoint, LLMConfig):
            self._client = make_client(endpoint)
            self._retry = retry or endpoint.retry_policy
        else:
            self._client = endpoint
            self._retry = retry or RetryPolicy()
        self._model = model
        self._dimension = dimension
        self._send_dimensions = send_dimensions
        self._batch_size = batch_size
        self._sleep = sleep

    @property
    def provider(self) -> str:
        return PROVIDER

    @property
    def model(self) -> str:
        return self._model

    @property
    def dimension(self) -> int:
        return self._dimension

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One vector per text, in order, each exactly `dimension` floats."""
        vectors: list[list[float]] = []
        for start in range(0, len(texts), self._batch_size):
            batch = list(texts[start : start + self._batch_size])
            try:
                vectors += with_retries(
                    partial(self._request, batch), self._retry, sleep=self._sleep
                )
            except openai.OpenAIError as exc:  # permanent: a 400, a 401, an unknown model
                raise ModelError(f"the embedding endpoint rejected: {describe(exc)}") from exc
        return vectors

    def _request(self, batch: list[str]) -> list[list[float]]:
        response = self._client.embeddings.create(
            model=self._model,
            input=batch,
            encoding_format="float",
            dimensions=self._dimension if self._send_dimensions else openai.omit,
        )
        rows = sorted(response.data, key=lambda row: row.index)
        vectors = [list(row.embedding) for row in rows]
        self._check(batch, vectors)
        return vectors

    def _check(self, batch: list[str], vectors: list[list[float]]) -> None:
        if len(vectors) != len(batch):
            raise InvalidOutput(
                f"asked for {len(batch)} embeddings, got {len(vectors)}", raw=str(len(vectors))
            )
        wrong = {len(vector) for vector in vectors} - {self._dimension}
        if wrong:
            raise InvalidOutput(
                f"{self._model} returned vectors of length {sorted(wrong)}, "
                f"expected {self._dimension}",
                raw=str(sorted(wrong)),
            )
