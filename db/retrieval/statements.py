"""The SQL of the retrieval fast path: the stats-and-probe, the pass and the repair.

Parameters are bound, never formatted in, except structural choices from fixed whitelists (a
kind of `MEMORY_KINDS`, a sort direction, one relevance expression of three) that pick one of a
few statement texts. Relevance is computed by the same expression text in the pass and the
repair, so a memory seen by both carries the same estimate bit for bit.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from db.models.memory import COVERED_DIMENSIONS, MEMORY_KINDS
from db.queries.memory_rows import rows

_SETTINGS = """
(SELECT 'settings' AS which, NULL::bigint AS id, NULL::timestamp AS last_accessed_at,
        NULL::smallint AS importance, NULL::float8 AS value, NULL::float8 AS norm
 WHERE set_config('jit', 'off', true) IS NULL)"""
"""Run once by the stats statement (returning no row), for the rest of the caller's
transaction: JIT-compiling the pass's expressions would cost more than it saves (tens of
milliseconds, for a scan of tens). Part of the first statement, so it costs no round trip."""


class Relevance(enum.Enum):
    """How SQL estimates a memory's relevance r (see `bounds` for the errors)."""

    NONE = "0.0::float8"
    """No query embedding: every relevance is exactly 0."""

    LEAN = "COALESCE(-(m.embedding <#> CAST(%(query)s AS vector)), 0.0)"
    """The float32 inner product with the unit query, no per-row checks: when the index probes
    show one embedding space and every norm near 1 (ε then absorbs |norm − 1|)."""

    CHECKED = """CASE WHEN m.embedding IS NULL THEN 0.0
        WHEN m.embedding_norm BETWEEN %(norm_low)s AND %(norm_high)s
             AND vector_dims(m.embedding) = %(dimension)s
        THEN -(m.embedding <#> CAST(%(query)s AS vector)) / m.embedding_norm END"""
    """Divided by the stored float64 norm; NULL (ranked exactly instead) for a norm outside
    the range the error bound covers or a vector of another dimension."""


_COVERED = f"""
    SELECT m.id, m.importance, m.last_accessed_at, {{relevance}} AS r
    FROM memories m
    WHERE m.agent_id = %(agent_id)s {{kinds}} {{where}}
      AND m.embedding IS NOT NULL AND vector_dims(m.embedding) <= {COVERED_DIMENSIONS}
    UNION ALL
    SELECT m.id, m.importance, m.last_accessed_at, 0.0
    FROM memories m
    WHERE m.agent_id = %(agent_id)s {{kinds}} {{where}} AND m.embedding IS NULL"""
"""Each candidate once, with r: the vectors from `ix_memories_agent_vectors` (index-only: an
agent's vectors lie together there, while the heap interleaves every agent of the world), and
the few memories not embedded yet (relevance 0, as the reference) from their partial index.
Complete when every candidate's vector fits the index, which `search` checks first."""

_HEAP = """
    SELECT m.id, m.importance, m.last_accessed_at, {relevance} AS r
    FROM unnest(CAST(%(all_kinds)s AS text[])) AS k(kind)
    CROSS JOIN LATERAL (
        SELECT m.* FROM memories m WHERE m.agent_id = %(agent_id)s AND m.kind = k.kind {where}
    ) AS m"""
"""Each candidate once, from the heap: for vectors too large for the covering index, and
without a query. One kind at a time, so the (agent_id, kind, importance, …) b-tree serves."""

_PROBE_VALUE = """CASE WHEN m.embedding IS NULL THEN 0.0
    WHEN vector_dims(m.embedding) = %(dimension)s THEN -(m.embedding <#> CAST(%(query)s AS vector))
    END"""
"""The probe reads the inner product and the norm; `Candidates` derives r from them exactly as
the pass's expression will (the same float64 division of the same values)."""

_EXTREME = """
(SELECT '{which}' AS which, m.id, m.last_accessed_at, m.importance,
        {value} AS value, {norm} AS norm
 FROM memories m WHERE m.agent_id = %(agent_id)s {kind} {where}
 ORDER BY {order} LIMIT 1)"""
"""One probe of a b-tree on (agent_id[, kind], …). A kind is a literal from the whitelist
`MEMORY_KINDS`, not a parameter: the planner then knows a rare kind is rare and never walks a
kind-less index filtering out every other kind."""

_EXTREMES = {
    "accessed_min": ("NULL::float8", "NULL::float8", "", "m.last_accessed_at"),
    "accessed_max": ("NULL::float8", "NULL::float8", "", "m.last_accessed_at DESC"),
    "importance_min": ("NULL::float8", "NULL::float8", "", "m.importance"),
    "importance_max": ("NULL::float8", "NULL::float8", "", "m.importance DESC"),
}
_VECTOR_EXTREMES = {
    "vector_min": (
        "vector_dims(m.embedding)::float8",
        "m.embedding_norm",
        "AND m.embedding IS NOT NULL",
        "vector_dims(m.embedding), m.embedding_norm",
    ),
    "vector_max": (
        "vector_dims(m.embedding)::float8",
        "m.embedding_norm",
        "AND m.embedding IS NOT NULL",
        "vector_dims(m.embedding) DESC, m.embedding_norm DESC",
    ),
}
"""Over all of the agent's kinds: the stored vectors of least and greatest dimension, each with
the extreme norm of its dimension. When both dimensions equal the query's, the two norms bound
every candidate's norm (a kind filter only narrows the candidates)."""

_PROBE = """
(SELECT 'probe', p.id, p.last_accessed_at, p.importance, p.value, p.norm
 FROM {levels} CROSS JOIN LATERAL (
     SELECT m.id, m.last_accessed_at, m.importance, {value} AS value, m.embedding_norm AS norm
     FROM memories m WHERE m.agent_id = %(agent_id)s AND m.importance = level.importance {where}
     ORDER BY m.last_accessed_at {direction} LIMIT %(per_level)s
 ) AS p)"""
"""The probe: per importance level, the most (or, for a negative recency weight, least)
recently accessed memories, the likeliest to score well."""

_LEVELS = "generate_series(1, 10) AS level(importance)"
_LEVELS_BY_KIND = (
    "unnest(CAST(%(all_kinds)s AS text[])) AS k(kind) CROSS JOIN generate_series(1, 10) "
    "AS level(importance)"
)

PASS = """
SELECT min(p.r) AS r_min, max(p.r) AS r_max,
       count(*) FILTER (WHERE p.r IS NULL) AS n_unknown,
       array_agg(p.id) FILTER (WHERE p.cap) AS ids,
       array_agg(p.r) FILTER (WHERE p.cap) AS rs,
       array_agg(p.importance) FILTER (WHERE p.cap) AS importances,
       array_agg(date_part('epoch', p.last_accessed_at)) FILTER (WHERE p.cap) AS accessed
FROM (
    SELECT e.id, e.importance, e.last_accessed_at, e.r,
           (e.r IS NULL OR e.r <= %(lo_cut)s OR e.r >= %(hi_cut)s) AS cap
    FROM ({source}
    LIMIT ALL) AS e
    LIMIT ALL
) AS p
"""
"""One scan, each candidate's r computed once: a subquery with LIMIT is never flattened into
its parent (which would copy the r expression into every use), and LIMIT ALL still lets
PostgreSQL run the scan and a partial aggregate in parallel workers. Captured rows (r NULL or
beyond a cut) come back as four arrays (array_agg is parallel since PostgreSQL 16)."""

_REPAIR = """
SELECT e.id, e.importance, date_part('epoch', e.last_accessed_at) AS accessed, e.r
FROM unnest(CAST(%(levels)s AS int[]), CAST(%(after)s AS timestamp[]),
            CAST(%(before)s AS timestamp[])) AS w(level, after, before)
CROSS JOIN LATERAL ({source}) AS e
"""
"""The memories of each repair window: index range scans on (…, importance, last_accessed_at)."""

_WINDOW = (
    "AND m.importance = w.level AND m.last_accessed_at "
    "BETWEEN COALESCE(w.after, '-infinity') AND COALESCE(w.before, 'infinity')"
)

_MISMATCH = """
SELECT EXISTS (
    SELECT 1 FROM memories m
    WHERE m.agent_id = %(agent_id)s {kinds}
      AND m.embedding IS NOT NULL AND vector_dims(m.embedding) <> %(dimension)s
)"""


@dataclass(frozen=True)
class Source:
    """Where the candidates' relevance comes from, for one search."""

    relevance: Relevance
    covered: bool
    kinds: list[str] | None

    def rows(self, where: str = "") -> str:
        if self.covered:
            kinds = "" if self.kinds is None else "AND m.kind = ANY(CAST(%(kinds)s AS text[]))"
            relevance = _COVERED_RELEVANCE.get(self.relevance, self.relevance.value)
            return _COVERED.format(relevance=relevance, kinds=kinds, where=where)
        return _HEAP.format(relevance=self.relevance.value, where=where)


_COVERED_RELEVANCE = {Relevance.LEAN: "-(m.embedding <#> CAST(%(query)s AS vector))"}
"""LEAN without its COALESCE: in the covered branch every embedding is present. Same value."""


@dataclass(frozen=True)
class StatsRow:
    """An extreme (`which` names it; vector extremes carry a dimension in `value` and a norm)
    or a probe row (`value` is −(embedding <#> query), `norm` the stored norm)."""

    which: str
    id: int
    last_accessed_at: datetime
    importance: int
    value: float | None
    norm: float | None


@dataclass(frozen=True)
class PassResult:
    r_min: float | None
    r_max: float | None
    n_unknown: int
    ids: list[int]
    rs: list[float | None]
    importances: list[int]
    accessed: list[float]
    """Seconds since 1970-01-01 (`date_part('epoch', …)`)."""


def _stats_sql(kinds: Sequence[str] | None, *, dimension: int | None, newest_first: bool) -> str:
    every = [kind for kind in MEMORY_KINDS if kinds is None or kind in kinds]
    filters = [""] if kinds is None else [f"AND m.kind = '{kind}'" for kind in every]
    parts = [_SETTINGS] + [
        _EXTREME.format(which=which, value=value, norm=norm, kind=kind, where=where, order=order)
        for kind in filters
        for which, (value, norm, where, order) in _EXTREMES.items()
    ]
    if dimension is not None:
        parts += [
            _EXTREME.format(which=which, value=value, norm=norm, kind="", where=where, order=order)
            for which, (value, norm, where, order) in _VECTOR_EXTREMES.items()
        ]
    if dimension is not None and dimension <= COVERED_DIMENSIONS:
        kind = "" if kinds is None else "AND m.kind = ANY(CAST(%(kinds)s AS text[]))"
        fits = f"vector_dims(m.embedding) <= {COVERED_DIMENSIONS}"
        where = f"{kind} AND m.embedding IS NOT NULL AND {fits}"
        levels = _LEVELS
    else:
        where, levels = "AND m.kind = k.kind", _LEVELS_BY_KIND
    value = "0.0::float8" if dimension is None else _PROBE_VALUE
    direction = "DESC" if newest_first else "ASC"
    parts.append(_PROBE.format(levels=levels, value=value, where=where, direction=direction))
    return "\nUNION ALL".join(parts)


def stats_and_probe(
    session: Session,
    params: dict[str, Any],
    *,
    kinds: Sequence[str] | None,
    dimension: int | None,
    newest_first: bool,
) -> list[StatsRow]:
    """Per-kind extremes (with the ids of rows attaining them) and, with a query, the vector
    extremes and the probe, in one trip. Prepared: its plan (index probes) fits every agent."""
    sql = _stats_sql(kinds, dimension=dimension, newest_first=newest_first)
    return [StatsRow(*row) for row in rows(session, sql, params, prepare=True)]


def run_pass(session: Session, params: dict[str, Any], source: Source) -> PassResult:
    """Never prepared: each agent's pass is planned for its own row count (index-only or
    sequential scan, parallel workers)."""
    [row] = rows(session, PASS.format(source=source.rows()), params, prepare=False)
    return PassResult(
        r_min=row.r_min,
        r_max=row.r_max,
        n_unknown=row.n_unknown,
        ids=row.ids or [],
        rs=row.rs or [],
        importances=row.importances or [],
        accessed=row.accessed or [],
    )


def repair(
    session: Session,
    params: dict[str, Any],
    source: Source,
    *,
    levels: list[int],
    after: list[datetime | None],
    before: list[datetime | None],
) -> PassResult:
    """The candidates of the given (importance level, last-access window)s, with r."""
    sql = _REPAIR.format(source=source.rows(where=_WINDOW))
    windows = dict(levels=levels, after=after, before=before)
    found = rows(session, sql, {**params, **windows}, prepare=False)
    return PassResult(
        r_min=None,
        r_max=None,
        n_unknown=0,
        ids=[row.id for row in found],
        rs=[row.r for row in found],
        importances=[row.importance for row in found],
        accessed=[row.accessed for row in found],
    )


def has_other_dimension(
    session: Session, params: dict[str, Any], *, kinds: Sequence[str] | None
) -> bool:
    """Whether some candidate lives in another embedding space than the query."""
    kind = "" if kinds is None else "AND m.kind = ANY(CAST(%(kinds)s AS text[]))"
    [row] = rows(session, _MISMATCH.format(kinds=kind), params, prepare=False)
    return bool(row[0])
