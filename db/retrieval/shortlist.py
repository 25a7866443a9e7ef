"""Which of an agent's cached rows `rank` must see to return its exact top k.

Every row's score is estimated within a proven bound and only rows that can matter are kept:
those that can still be in the top k, those that may hold the minimum or maximum relevance
(whose exact values fix the normalisation; one per distinct vector, as equal vectors have
equal relevance), and rows attaining the recency and importance extremes (unless a kept row
already has the same value). `cognition.retrieval.rank` over them then normalises exactly as
over every row, and its top k is the answer. Every row `rank` does not need costs it ~50 µs.

Relevance is estimated twice. First for every row from the int8 codes (`quantized`: a quarter
of the float32 bytes, within e of the reference cosine, e ≈ 0.015 at 384-d); then, for the few
hundred rows that bound cannot rule out, with the float32 product (within ε ≈ 2e-5,
`bounds.relevance_error`):

1. Extremes. A row attaining the true minimum relevance r* has r̃ ≤ r* + e ≤ min r̃ + 2e, so
   it is among the rows within 2e of the smallest estimate; their float32 estimates give
   m̂ = their minimum, within ε of r*, and the rows within 2ε of m̂ hold it. Likewise the
   maximum M̂. The estimated span is M̂ − m̂.
2. Coarse scores. With recency and importance normalised from their exact extremes (recency
   within RECENCY_TOLERANCE, as `bounds` argues), Ŝ = α_rec·rec_n + α_imp·imp_n +
   α_rel·(r̃ − m̂)/(M̂ − m̂). For the normalised relevance, (c − r*)/(R* − r*) against
   (r̃ − m̂)/(M̂ − m̂): the numerators differ by ≤ e + ε and the spans by ≤ 2ε, so
   n/s − n'/s' = (n − n')/s' + (n/s)(s' − s)/s' with n/s ∈ [0, 1] errs by ≤ (e + 3ε)/span.
   So every Ŝ is within δ of the reference score S: δ = |α_rel|(e + 3ε)/span + |α_rec|·
   RECENCY_TOLERANCE/span_rec + 2·`score_tolerance`. The k best estimates score ≥ kth(Ŝ) − δ,
   so the true k-th best does, and a row of the true top k has Ŝ ≥ kth(Ŝ) − 2δ: the contenders.
3. Fine scores. The same over the contenders with float32 relevance: errors 2ε on the
   numerator and 2ε on the span give δ' = |α_rel|·4ε/span + the same recency and rounding
   terms; the contenders hold the true top k, so kth over them bounds the k-th best likewise.

When the estimated span is not positive, the normalised relevance is only known to lie in
[0, 1]: it is estimated as ½ ± ½. Without a query every relevance is exactly 0. A relevance
weight of 0 still needs the extremes: `rank` reports each memory's normalised relevance.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, fields
from datetime import datetime, timedelta
from typing import Any

import numpy as np
import numpy.typing as npt

from cognition.retrieval import SECONDS_PER_HOUR, cosine, recency
from cognition.types import (
    DEFAULT_RECENCY_DECAY,
    Memory,
    MemoryKind,
    MemorySource,
    RetrievalWeights,
)
from db.models.memory import MEMORY_KINDS
from db.retrieval import quantized
from db.retrieval.bounds import (
    RECENCY_TOLERANCE,
    SMALLEST_RECENCY,
    Scale,
    kth_largest,
    relevance_error,
    score_tolerance,
    unit_vector,
)
from db.retrieval.candidates import EPOCH
from db.retrieval.vector_cache import WIDE, AgentVectors, Rows, Texts, kind_codes

Floats = npt.NDArray[np.float64]
Indices = npt.NDArray[np.int64]
Mask = npt.NDArray[np.bool_]

LOG_DECAY_PER_MICROSECOND = math.log(DEFAULT_RECENCY_DECAY) / (SECONDS_PER_HOUR * 1e6)


@dataclass(frozen=True)
class Pick:
    """What `select` decided: the memories `rank` must see, as the cache holds them, or None
    and why to search in SQL instead."""

    memories: list[Memory] | None
    reason: str = ""


def select(
    entry: AgentVectors,
    overlay: Rows,
    query_embedding: Sequence[float] | None,
    *,
    now: datetime,
    weights: RetrievalWeights,
    k: int,
    kinds: list[str] | None,
) -> Pick:
    """The rows `rank` must see for the exact top k (module docstring)."""
    dimension = entry.dimension or overlay.vectors.shape[1]
    if entry.foreign or bool((overlay.embedded & (overlay.dimensions != dimension)).any()):
        return Pick(None, "embeddings of another dimension")
    query = None if query_embedding is None else Query.of(query_embedding)
    if query is not None and dimension not in (0, query.fine.size):
        return Pick(None, "query of another dimension")
    searched = Searched(entry, overlay, kinds)
    if len(searched.rows) == 0:
        return Pick([])
    ids = _pick(searched, query, now=now, weights=weights, k=k)
    if ids is None:
        return Pick(None, "recency near underflow")
    return Pick([searched.memory(i) for i in ids])


@dataclass(frozen=True)
class Query:
    original: Sequence[float]
    fine: npt.NDArray[np.float32]
    """As the float32 estimate sees it (`bounds.unit_vector`)."""
    coarse: quantized.CodedQuery

    @classmethod
    def of(cls, embedding: Sequence[float]) -> Query:
        vector = np.asarray(embedding, dtype=np.float64)
        unit = vector / np.linalg.norm(vector)
        return cls(embedding, unit_vector(embedding), quantized.code_query(unit))


class Searched:
    """The rows a search ranks: the entry's (less those the caller's own transaction rewrote)
    and the caller's own, of the wanted kinds. Scalar columns are joined; vectors are read
    where they live, by each searched row's part and position."""

    def __init__(self, entry: AgentVectors, overlay: Rows, kinds: list[str] | None) -> None:
        base = entry.columns
        self._base, self._overlay = base, overlay
        if len(overlay) == 0 and kinds is None:  # every cached row, as it is
            self._parts: list[tuple[Rows, Indices | None]] = [(base, None)]
            self.rows = base
            return
        keep = _of_kinds(base, kinds)
        keep[[entry.position[i] for i in overlay.ids.tolist() if i in entry.position]] = False
        kept, extra = np.flatnonzero(keep), np.flatnonzero(_of_kinds(overlay, kinds))
        self._parts = [(base, kept), (overlay, extra)]
        self.rows = _joined(base.take(kept), overlay.take(extra))

    def coarse(self, query: Query) -> tuple[Floats, float]:
        """r̃ for every searched row and the bound e on its error (`quantized`); the float32
        estimate and ε where the kernel cannot be trusted."""
        if not quantized.kernel_is_exact():
            everything = np.arange(len(self.rows), dtype=np.int64)
            return self.fine(query, everything), relevance_error(query.fine.size)
        parts = []
        for rows, index in self._parts:
            r = quantized.estimates(rows.codes, rows.code_scale, query.coarse)
            parts.append(_exactly(rows, r if index is None else r[index], index, query))
        r = parts[0] if len(parts) == 1 else np.concatenate(parts)
        largest = float(self.rows.code_error.max(initial=0.0))  # 0 where not coded
        return r, quantized.error_bound(largest, query.coarse)

    def fine(self, query: Query, which: Indices) -> Floats:
        """The float32 estimate (within ε) of the searched rows `which`."""
        result = np.empty(which.size, dtype=np.float64)
        start = 0
        for rows, index in self._parts:
            count = len(rows) if index is None else index.size
            mine = (which >= start) & (which < start + count)
            start += count
            if not mine.any():
                continue
            local = which[mine] - (start - count)
            positions = local if index is None else index[local]
            if rows.vectors.shape[1] == 0:  # no row of this part embedded yet
                r = np.zeros(positions.size, dtype=np.float64)
            else:
                r = rows.scale[positions] * (rows.vectors[positions] @ query.fine)
            result[mine] = _exactly(rows, r, positions, query)
        return result

    def one_per_vector(self, which: Indices) -> Indices:
        """Of the searched rows `which`, the first with each distinct vector (rows without an
        embedding count as one vector)."""
        firsts: dict[bytes, int] = {}
        for i in which.tolist():
            rows, position = self._locate(i)
            key = rows.vectors[position].tobytes() if rows.embedded[position] else b""
            firsts.setdefault(key, i)
        return np.array(sorted(firsts.values()), dtype=np.int64)

    def memory(self, i: int) -> Memory:
        """The searched row i as the memory stored (every field, as `to_memory` reads it)."""
        rows, position = self._locate(i)
        texts: Texts = rows.texts[position]
        return Memory(
            id=int(rows.ids[position]),
            kind=MemoryKind(MEMORY_KINDS[int(rows.kinds[position])]),
            description=texts.description,
            created_at=EPOCH + timedelta(microseconds=int(rows.created_us[position])),
            last_accessed_at=EPOCH + timedelta(microseconds=int(rows.accessed_us[position])),
            importance=int(rows.importance[position]),
            depth=texts.depth,
            embedding=tuple(rows.vectors[position].astype(np.float64).tolist())
            if rows.embedded[position]
            else None,
            subject=texts.subject,
            predicate=texts.predicate,
            object=texts.object,
            source=MemorySource(texts.source),
            detail=texts.detail,
        )

    def _locate(self, i: int) -> tuple[Rows, int]:
        for rows, index in self._parts:
            count = len(rows) if index is None else index.size
            if i < count:
                return rows, int(i if index is None else index[i])
            i -= count
        raise IndexError(i)


def _pick(
    searched: Searched,
    query: Query | None,
    *,
    now: datetime,
    weights: RetrievalWeights,
    k: int,
) -> list[int] | None:
    """The searched rows `rank` must see (module docstring); None when recency nears
    underflow."""
    rows = searched.rows
    accessed, importance = rows.accessed_us, rows.importance
    oldest, newest = int(accessed.argmin()), int(accessed.argmax())
    rec = Scale(_recency_at(accessed[oldest], now), _recency_at(accessed[newest], now))
    if rec.low < SMALLEST_RECENCY:
        return None
    least, most = int(importance.argmin()), int(importance.argmax())
    imp = Scale(float(importance[least]), float(importance[most]))
    fixed = _weighted(_raw_recency(accessed, now) - rec.low, weights.recency, rec.span)
    fixed += _weighted(importance - imp.low, weights.importance, imp.span)
    slack = abs(weights.recency) * (RECENCY_TOLERANCE / rec.span if rec.span else 0.0)
    slack += 2.0 * score_tolerance(weights)
    extremes = ((accessed, oldest), (accessed, newest), (importance, least), (importance, most))
    if query is None:  # every relevance is exactly 0
        kept = np.flatnonzero(_contenders(fixed, slack, k))
        return _with_witnesses(set(kept.tolist()), extremes)
    epsilon = relevance_error(query.fine.size) if rows.scale.any() else 0.0
    coarse, e = searched.coarse(query)
    low, high, near = _extremes(searched, query, coarse, e, epsilon)
    relevance = Normalised(weights.relevance, low, high - low)
    score = fixed + relevance.term(coarse)
    contenders = np.flatnonzero(_contenders(score, slack + relevance.error(e + 3 * epsilon), k))
    fine = fixed[contenders] + relevance.term(searched.fine(query, contenders))
    kept = contenders[_contenders(fine, slack + relevance.error(4 * epsilon), k)]
    return _with_witnesses(set(kept.tolist()) | near, extremes)


def _with_witnesses(
    chosen: set[int], extremes: Sequence[tuple[npt.NDArray[Any], int]]
) -> list[int]:
    """`chosen` and, for each recency and importance extreme, a row attaining it (one already
    chosen if there is one: `rank` needs the value, not the row)."""
    result = set(chosen)
    for column, attaining in extremes:
        if not (column[list(chosen)] == column[attaining]).any():
            result.add(attaining)
    return sorted(result)


@dataclass(frozen=True)
class Normalised:
    """weight × (r − low) / span for estimates r, and how far from the reference term that
    is for estimates within a given error of the reference (module docstring)."""

    weight: float
    low: float
    span: float

    def term(self, r: Floats) -> Floats:
        if self.span <= 0.0:  # no spread seen: the true value is somewhere in [0, 1]
            return np.full(r.shape, 0.5 * self.weight)
        return (r - self.low) * (self.weight / self.span)

    def error(self, raw_error: float) -> float:
        if self.span <= 0.0:
            return 0.5 * abs(self.weight)
        return abs(self.weight) * raw_error / self.span


def _extremes(
    searched: Searched, query: Query, coarse: Floats, e: float, epsilon: float
) -> tuple[float, float, set[int]]:
    """m̂, M̂ and rows that hold the true extremes (module docstring, step 1): of the rows that
    may, one per distinct vector (equal vectors have equal relevance; a town repeats its
    observations word for word, and their cached embedding)."""
    low_rows = np.flatnonzero(coarse <= coarse.min() + 2.0 * e)
    high_rows = np.flatnonzero(coarse >= coarse.max() - 2.0 * e)
    low_r, high_r = searched.fine(query, low_rows), searched.fine(query, high_rows)
    low, high = float(low_r.min()), float(high_r.max())
    near = np.concatenate(
        [low_rows[low_r <= low + 2.0 * epsilon], high_rows[high_r >= high - 2.0 * epsilon]]
    )
    return low, high, set(searched.one_per_vector(near).tolist())


def _contenders(score: Floats, delta: float, k: int) -> Mask:
    """Rows that can be in the top k when every true score is within delta of `score`."""
    mask: Mask = score >= kth_largest(score, k) - 2.0 * delta
    return mask


def _exactly(rows: Rows, r: Floats, index: Indices | None, query: Query) -> Floats:
    """r (of `rows` at positions `index`, or all of them) with the reference cosine itself for
    rows whose norm no estimate covers (rare)."""
    exact = rows.exact if index is None else rows.exact[index]
    for i in np.flatnonzero(exact).tolist():
        position = i if index is None else int(index[i])
        r[i] = cosine(query.original, rows.vectors[position].tolist())
    return r


def _weighted(values: Floats, weight: float, span: float) -> Floats:
    """weight × normalised value (0 for a constant component, as the reference)."""
    if span == 0.0 or weight == 0.0:
        return np.zeros_like(values, dtype=np.float64)
    values *= weight / span
    return values


def _raw_recency(accessed_us: npt.NDArray[np.int64], now: datetime) -> Floats:
    """decay ** hours since last access (clamped at 0, as the reference), as exp of a product:
    within ~1e-13 of the reference's `decay ** hours` where recency ≥ SMALLEST_RECENCY (the
    exponent is at most ~700), far inside RECENCY_TOLERANCE."""
    now_us = (now - EPOCH) // timedelta(microseconds=1)
    exponent = (now_us - accessed_us) * LOG_DECAY_PER_MICROSECOND
    np.minimum(exponent, 0.0, out=exponent)
    return np.exp(exponent, out=exponent)


def _recency_at(accessed_us: np.int64, now: datetime) -> float:
    """The reference's raw recency of a last access given in microseconds since the epoch."""
    return recency(EPOCH + timedelta(microseconds=int(accessed_us)), now)


def _of_kinds(rows: Rows, kinds: list[str] | None) -> Mask:
    if kinds is None:
        return np.ones(len(rows), dtype=np.bool_)
    return np.isin(rows.kinds, kind_codes(kinds))


def _joined(a: Rows, b: Rows) -> Rows:
    """The one-value-a-row columns of both (vectors stay where they are: `Searched`)."""
    joined = {
        f.name: np.zeros((0, 0), dtype=getattr(a, f.name).dtype)
        if f.name in WIDE
        else np.concatenate([getattr(a, f.name), getattr(b, f.name)])
        for f in fields(Rows)
    }
    return Rows(**joined)
