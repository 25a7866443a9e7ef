"""The believability study's pieces without a model: Appendix B's questions filled per agent,
and the paper's statistics over rankings."""

from __future__ import annotations

import pytest

from bench.believability import newest_fitting
from bench.believability_questions import CATEGORIES, interview_for
from bench.believability_stats import kruskal_wallis, ranks_by_condition, trueskill_ratings

TOWN = ["Junie Halvorsen", "Tomas Ferreira", "Hiro Tanaka", "Priya Raman", "Walter Brigg"]


def test_the_interview_is_appendix_b_with_names_filled() -> None:
    heard = ["Tomas Ferreira", "Tomas Ferreira", "Hiro Tanaka", "Priya Raman", "Tomas Ferreira"]
    asked = interview_for("Junie Halvorsen", talked_with=heard, others=TOWN)
    assert len(asked) == 25 and {a.category for a in asked} == set(CATEGORIES)
    texts = [a.text for a in asked]
    assert "{" not in "".join(texts)
    who = [
        t.removeprefix("Who is ").removesuffix("?")
        for t in texts[5:10]
        if "running" not in t and t.startswith("Who is ")
    ]
    assert sorted(who) == ["Hiro Tanaka", "Priya Raman", "Tomas Ferreira"]  # all she met
    assert "what you know about Tomas Ferreira," in texts[21]  # the one she talked with most
    assert ("compliment" in texts[23] and "Hiro Tanaka" in texts[23]) or "Priya" in texts[23]
    assert interview_for("Junie Halvorsen", talked_with=heard, others=TOWN) == asked


def test_an_agent_who_met_few_is_asked_about_others_in_town() -> None:
    asked = interview_for("Walter Brigg", talked_with=[], others=TOWN)
    who = {a.text for a in asked if a.text.startswith("Who is ") and "running" not in a.text}
    assert who and all(name.split()[0] in "".join(who) for name in TOWN[:3])
    assert not any("Walter Brigg?" in a.text for a in asked)


def test_trueskill_puts_the_condition_that_always_wins_first() -> None:
    conditions = ["full", "no_memory", "memory_dump"]
    rankings = [("full", "memory_dump", "no_memory")] * 8 + [("memory_dump", "full", "no_memory")]
    ratings = trueskill_ratings(rankings, conditions)
    assert ratings["full"].mu > ratings["memory_dump"].mu > ratings["no_memory"].mu
    assert ratings["no_memory"].mean_rank == 3 and ratings["full"].rankings == 9
    assert all(r.sigma < 25 / 3 for r in ratings.values())  # every ranking taught something


def test_kruskal_wallis_tells_different_ranks_from_a_toss_up() -> None:
    conditions = ["a", "b", "c"]
    clear = ranks_by_condition([("a", "b", "c")] * 10, conditions)
    assert clear == {"a": [1] * 10, "b": [2] * 10, "c": [3] * 10}
    different = kruskal_wallis(clear)
    assert different.df == 2 and different.p < 0.001
    rotating = [("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")] * 4
    toss_up = kruskal_wallis(ranks_by_condition(rotating, conditions))
    assert toss_up.h == pytest.approx(0) and toss_up.p == pytest.approx(1)


def test_the_memory_dump_keeps_the_newest_that_fit_in_order() -> None:
    stream = ["a" * 10, "b" * 10, "c" * 10]
    assert newest_fitting(stream, 23) == ["b" * 10, "c" * 10]
    assert newest_fitting(stream, 5) == []
