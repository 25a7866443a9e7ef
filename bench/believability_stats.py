"""The paper's analysis of its believability rankings (§6.4): a TrueSkill rating per condition
from the rankings (each ranking a five-player match), and the Kruskal–Wallis test on the raw
ranks across conditions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    mean_rank: float
    rankings: int


@dataclass(frozen=True)
class KruskalWallis:
    h: float
    p: float
    df: int


def trueskill_ratings(
    rankings: Sequence[Sequence[str]], conditions: Sequence[str]
) -> dict[str, Rating]:
    """Each ranking (conditions, most believable first) updates every condition's rating once
    (TrueSkill's defaults: μ 25, σ 25/3, no draws)."""
    import trueskill

    env = trueskill.TrueSkill(draw_probability=0.0)
    ratings = {c: env.create_rating() for c in conditions}
    for order in rankings:
        rated = env.rate([(ratings[c],) for c in order], ranks=list(range(len(order))))
        for condition, (new,) in zip(order, rated, strict=True):
            ratings[condition] = new
    ranks = ranks_by_condition(rankings, conditions)
    return {
        c: Rating(
            mu=ratings[c].mu,
            sigma=ratings[c].sigma,
            mean_rank=sum(ranks[c]) / len(ranks[c]) if ranks[c] else 0.0,
            rankings=len(ranks[c]),
        )
        for c in conditions
    }


def ranks_by_condition(
    rankings: Sequence[Sequence[str]], conditions: Sequence[str]
) -> dict[str, list[int]]:
    """The rank (1 = most believable) each condition got in each ranking."""
    ranks: dict[str, list[int]] = {c: [] for c in conditions}
    for order in rankings:
        for position, condition in enumerate(order, start=1):
            ranks[condition].append(position)
    return ranks


def kruskal_wallis(ranks: Mapping[str, Sequence[int]]) -> KruskalWallis:
    """H and p across conditions (scipy); identical ranks everywhere is H = 0, p = 1."""
    from scipy import stats

    groups = [list(values) for values in ranks.values() if values]
    if len(groups) < 2:
        return KruskalWallis(0.0, 1.0, 0)
    try:
        h, p = stats.kruskal(*groups)
    except ValueError:  # every value the same: no difference to test
        return KruskalWallis(0.0, 1.0, len(groups) - 1)
    return KruskalWallis(float(h), float(p), len(groups) - 1)
