"""An int8 copy of the cached vectors, and how far its relevance estimate can be from the truth.

Scoring every cached memory is one product of the query with every vector: at 100k memories of
384 floats that reads 150 MB of float32 a query, and numpy has no fast kernel for anything
narrower. A SIMD kernel (`simsimd`) multiplies int8 codes a quarter the size, summing in int32,
so each row's estimate is cheap; the exact float32 estimate (`bounds.relevance_error`) is then
computed only for the few hundred rows the int8 bound cannot rule out (`in_process`).

The codes. A stored vector m (float32, norm |m| > 0) is coded per row: s = max|m_j| / 127,
q_j = round(m_j / s) ∈ [−127, 127], and its residual ρ = |m − s·q| is computed in float64 when
the row is cached; a = ρ / |m|. The unit query x (float64) is coded the same way: s_x, p, and
ρ_x = |x − s_x·p|. Each estimate is r̃ = s_x · (s / |m|) · D with D = Σ q_j p_j.

The bound. D is an integer of magnitude ≤ d·127² < 2³¹ (d ≤ 16,000, pgvector's limit), summed
in int32 and returned as float64: exact (the kernel is checked against numpy once per process,
`kernel_is_exact`; if it ever disagreed, the float32 product is used instead). With m̂ = s·q and
x̂ = s_x·p,

    x·m − x̂·m̂ = x·(m − m̂) + (x − x̂)·m̂,   so   |x·m − x̂·m̂| ≤ |x|·ρ + ρ_x·(|m| + ρ)

(Cauchy–Schwarz, |m̂| ≤ |m| + ρ, |x| = 1). Dividing by |m|, the reference cosine c = x·m / |m|
satisfies |c − r̃| ≤ a + ρ_x·(1 + a). Everything else is float64 arithmetic on values of
magnitude ≤ 1 (the query's normalisation, the stored norm, the residuals, the two products of
r̃) — a few ulp each, with the reference's own rounding (≈ 1e-15) far inside `ABSOLUTE_SLACK`.
So with A the largest a among the rows searched, every row's estimate is within

    e = A + ρ_x·(1 + A) + ABSOLUTE_SLACK

of the reference, typically 0.014–0.019 for 384-d sentence vectors, while the true error is
rarely a sixth of it. That only prunes: the rows the bound keeps are re-scored with the float32
product (error ε) and finally ranked by `cognition.retrieval.rank`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt
import simsimd

from db.retrieval.bounds import ABSOLUTE_SLACK

CODE_LIMIT = 127
"""Codes span [−127, 127]: symmetric, so a coded vector's sign pattern is exact, and −128 (an
edge case for some SIMD tricks) never occurs."""

CHUNK_ROWS = 8192
"""Rows coded at a time: the float64 residual of a chunk is 25 MB at 384-d, not the whole copy."""

Floats = npt.NDArray[np.float64]
Codes = npt.NDArray[np.int8]


@dataclass(frozen=True)
class CodedRows:
    codes: Codes
    """(n, d) int8; zeros for rows without an estimable vector."""
    scale: Floats
    """s / |m| per row (0 without an estimable vector): r̃ = s_x · scale · D."""
    error: Floats
    """a = ρ / |m| per row (0 without an estimable vector)."""


@dataclass(frozen=True)
class CodedQuery:
    codes: Codes
    scale: float
    residual: float
    """ρ_x = |x − s_x·p|."""


def code_rows(vectors: npt.NDArray[np.float32], inverse_norm: Floats) -> CodedRows:
    """The int8 codes of every row whose `inverse_norm` (1 / the stored norm) is set."""
    n, d = vectors.shape
    codes = np.zeros((n, d), dtype=np.int8)
    scale = np.zeros(n, dtype=np.float64)
    error = np.zeros(n, dtype=np.float64)
    for start in range(0, n, CHUNK_ROWS):
        part = slice(start, min(n, start + CHUNK_ROWS))
        rows = vectors[part].astype(np.float64)
        step = np.abs(rows).max(axis=1, initial=0.0) / CODE_LIMIT
        usable = (inverse_norm[part] > 0.0) & (step > 0.0)
        step = np.where(usable, step, 1.0)
        coded = np.clip(np.rint(rows / step[:, None]), -CODE_LIMIT, CODE_LIMIT)
        coded[~usable] = 0.0
        residual = np.sqrt(np.square(rows - step[:, None] * coded).sum(axis=1))
        codes[part] = coded.astype(np.int8)
        scale[part] = np.where(usable, step * inverse_norm[part], 0.0)
        error[part] = np.where(usable, residual * inverse_norm[part], 0.0)
    return CodedRows(codes, scale, error)


def code_query(unit: Floats) -> CodedQuery:
    """The unit query (float64) as codes, with its residual."""
    step = float(np.abs(unit).max()) / CODE_LIMIT
    if step == 0.0:
        return CodedQuery(np.zeros(unit.size, dtype=np.int8), 0.0, 0.0)
    coded = np.clip(np.rint(unit / step), -CODE_LIMIT, CODE_LIMIT)
    residual = float(np.sqrt(np.square(unit - step * coded).sum()))
    return CodedQuery(coded.astype(np.int8), step, residual)


def estimates(codes: Codes, scale: Floats, query: CodedQuery) -> Floats:
    """r̃ for every row: exact int32 products (simsimd), scaled in float64."""
    if codes.shape[0] == 0 or codes.shape[1] == 0:  # no row, or no row embedded yet
        return np.zeros(codes.shape[0], dtype=np.float64)
    products = np.asarray(simsimd.cdist(codes, query.codes[np.newaxis, :], metric="dot"))
    r: Floats = products.reshape(-1) * scale
    r *= query.scale
    return r


def error_bound(largest_error: float, query: CodedQuery) -> float:
    """e: how far any row's r̃ can be from the reference cosine (module docstring)."""
    return largest_error + query.residual * (1.0 + largest_error) + ABSOLUTE_SLACK


@cache
def kernel_is_exact() -> bool:
    """Whether this CPU's kernel sums int8 products exactly: checked once per process on rows
    that reach the extremes of the code range (and would overflow an int16 sum)."""
    rng = np.random.default_rng(0)
    for d in (1, 15, 64, 256, 384, 1031):
        rows = rng.integers(-CODE_LIMIT, CODE_LIMIT + 1, size=(33, d)).astype(np.int8)
        rows[0], rows[1] = CODE_LIMIT, -CODE_LIMIT
        query = rng.integers(-CODE_LIMIT, CODE_LIMIT + 1, size=d).astype(np.int8)
        query[: d // 2] = CODE_LIMIT
        got = np.asarray(simsimd.cdist(rows, query[np.newaxis, :], metric="dot")).reshape(-1)
        want = rows.astype(np.int64) @ query.astype(np.int64)
        if not np.array_equal(got, want.astype(np.float64)):
            return False
    return True
