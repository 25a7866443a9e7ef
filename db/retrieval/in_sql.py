"""Exact retrieval in PostgreSQL: the paper's top k, equal to `cognition.retrieval.rank`.

`search` returns exactly what `rank` returns over all of an agent's memories (same memories,
order, scores and components) while reading whole rows for only a few dozen of them:

1. Stats and probe (one statement): per kind, the memories with the least and most recent
   access and the lowest and highest importance (index probes: they fix the normalisation of
   two components exactly), the extreme dimensions and norms of the stored vectors, and a probe
   of the most recently accessed memories of each importance level, relevance estimated.
2. The pass (one statement, one scan): pgvector's float32 estimate r of every candidate's
   relevance, within a proven ε of the reference cosine (`bounds`). It returns the
   estimated extremes and captures the memories with r beyond two cuts taken from the probe:
   those near an extreme relevance and the most relevant ones (`cuts`).
3. Python brackets every seen memory's score, proves a lower bound t of the k-th best, and the
   repair (one statement of index range scans) reads the memories between the cuts whose
   recency still lets them reach t. The survivors are those whose upper bound reaches t.
4. The survivors, the memories near an extreme relevance and the witnesses of the recency and
   importance extremes are fetched whole and ranked by `rank` itself. They contain every
   component's minimum and maximum, so `rank` normalises them exactly as it would all of them,
   and they contain the top k, so its top k is the answer.

`top_k.search` takes this path when the agent's rows are not in the process's cache
(`in_process`), and brute force when it returns None.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from cognition.errors import EmbeddingSpaceMismatch
from cognition.retrieval import rank
from cognition.types import RetrievalWeights, ScoredMemory
from db.queries import memory_rows
from db.retrieval import probe
from db.retrieval import statements as sql
from db.retrieval.bounds import SMALLEST_RECENCY, RelevanceRange
from db.retrieval.candidates import EPOCH, Candidates
from db.retrieval.cuts import NO_CUTS, Cuts, exact_cuts, probe_cuts, repair_windows
from db.retrieval.probe import Givens
from db.retrieval.trace import SearchTrace

MAX_UNKNOWN = 256
"""Memories the pass could not estimate are fetched and ranked exactly; past this many (a
re-embed in progress, a stream of zero vectors) the brute-force path is cheaper."""


def search(
    session: Session,
    trace: SearchTrace,
    *,
    agent_id: uuid.UUID,
    query_embedding: Sequence[float] | None,
    query: probe.UnitQuery | None,
    now: datetime,
    weights: RetrievalWeights,
    k: int,
    kinds: list[str] | None,
) -> list[ScoredMemory] | None:
    """The four steps of the module docstring; None (reason traced) hands over to brute force."""
    if kinds == []:
        trace.path = "no candidates"
        return []
    params = probe.params(agent_id, kinds, query)
    with trace.stage("stats"):
        stats = sql.stats_and_probe(
            session,
            params,
            kinds=kinds,
            dimension=None if query is None else query.dimension,
            newest_first=weights.recency >= 0.0,
        )
    extremes = probe.by_which(stats)
    if "accessed_min" not in extremes:
        trace.path = "no candidates"
        return []
    ctx, source = probe.build(
        session, extremes, query, now=now, weights=weights, k=k, params=params, kinds=kinds
    )
    trace.relevance = source.relevance.name + (" covered" if source.covered else "")
    if ctx.recency.low < SMALLEST_RECENCY:
        trace.path = "brute force: recency near underflow"
        return None
    candidates = Candidates.from_probe(extremes.get("probe", []), source.relevance)
    with trace.stage("pass"):
        needed = _needed(session, trace, ctx, source, candidates, params, now)
    if needed is None:
        trace.path = "brute force: too many memories without an estimate"
        return None
    witnesses = {extremes[which][0].id for which in probe.WITNESSED}
    with trace.stage("fetch"):
        memories = [*memory_rows.memories_by_id(session, agent_id, sorted(needed | witnesses))]
    trace.ranked = len(memories)
    with trace.stage("rank"):
        return rank(memories, query_embedding=query_embedding, now=now, weights=weights, k=k)


def _needed(
    session: Session,
    trace: SearchTrace,
    ctx: Givens,
    source: sql.Source,
    candidates: Candidates,
    params: dict[str, Any],
    now: datetime,
) -> set[int] | None:
    """Pass (again with exact cuts if the probe could not place them), repair; the ids `rank`
    must see, or None for brute force. Raises `EmbeddingSpaceMismatch` as `rank` would."""
    cuts, rel, result = NO_CUTS, RelevanceRange.constant_zero(), None
    if ctx.has_query:  # without a query every relevance is exactly 0: nothing to scan for
        cuts = probe_cuts(ctx, candidates.probe_r)
        result = _pass(session, trace, source, params, cuts, candidates)
        if result is None:
            return None
        if not cuts.valid_for(ctx.epsilon, result.r_min, result.r_max):
            second = exact_cuts(ctx, result.r_min, result.r_max)
            if _pass(session, trace, source, params, second, candidates) is None:
                return None
            cuts = Cuts(max(cuts.low, second.low), min(cuts.high, second.high))
        rel = RelevanceRange.from_estimates(
            result.r_min, result.r_max, epsilon=ctx.epsilon, unknown=result.n_unknown > 0
        )
    now_epoch = (now - EPOCH).total_seconds()
    scores = candidates.score_bounds(ctx, rel, now_epoch)
    windows = repair_windows(ctx, cuts, rel, scores.t_valid, now)
    if windows:
        with trace.stage("repair"):
            repaired = sql.repair(
                session,
                params,
                source,
                levels=[w.level for w in windows],
                after=[w.after for w in windows],
                before=[w.before for w in windows],
            )
        trace.repaired = len(repaired.ids)
        candidates.add(repaired)
        scores = candidates.score_bounds(ctx, rel, now_epoch)
    near = set() if result is None else candidates.near_extremes(ctx, result)
    return scores.survivors | near | candidates.unknown


def _pass(
    session: Session,
    trace: SearchTrace,
    source: sql.Source,
    params: dict[str, Any],
    cuts: Cuts,
    candidates: Candidates,
) -> sql.PassResult | None:
    result = sql.run_pass(session, {**params, "lo_cut": cuts.low, "hi_cut": cuts.high}, source)
    trace.passes += 1
    trace.captured += len(result.ids)
    if result.n_unknown > MAX_UNKNOWN:
        if sql.has_other_dimension(session, params, kinds=source.kinds):
            raise EmbeddingSpaceMismatch("memory embeddings differ in length from the query")
        return None
    candidates.add(result)
    return result
