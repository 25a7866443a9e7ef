"""Reflection: questions about frequent subjects, insights that cite their real evidence."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cognition.offline.reflection import insights, reflection_questions
from cognition.offline.text import stems

RECORDS = [
    "Tomas Okafor is studying chemistry in the library",
    "Tomas Okafor is eating lunch at Juniper Cafe",
    "Lena Ward is painting a mural on the college wall",
    "Tomas Okafor is reviewing chemistry notes for the exam",
    "Tomas Okafor saw Lena Ward and felt nervous",
    "Rosa Delgado is baking pastries",
    "Tomas Okafor is practising chemistry problems",
]


def test_questions_are_about_the_most_frequent_subject_first() -> None:
    questions = reflection_questions(RECORDS, 3)
    assert len(questions) == 3
    assert "Tomas Okafor" in questions[0]
    assert all(q.endswith("?") for q in questions)
    assert len(set(questions)) == len(questions)


def test_question_pairs_a_person_with_what_accompanies_them() -> None:
    questions = reflection_questions(RECORDS, 1)
    assert questions == ["What is Tomas Okafor's relationship with chemistry?"] or (
        "chemistry" in questions[0]
    )


def test_questions_are_deterministic_and_bounded() -> None:
    assert reflection_questions(RECORDS, 5) == reflection_questions(RECORDS, 5)
    assert len(reflection_questions(RECORDS, 2)) == 2
    assert reflection_questions(RECORDS, 0) == []
    assert reflection_questions([], 3) == []


def test_insight_aggregates_the_repeated_fact_and_cites_it() -> None:
    found = insights("What is Tomas Okafor's relationship with chemistry?", RECORDS, 3)
    assert found, "three chemistry statements must yield an insight"
    first = found[0]
    assert first.cited_indices == (1, 4, 7)
    assert "chemistry" in first.text
    assert first.text.startswith("Tomas Okafor is often")


def test_every_cited_statement_contains_the_fact_the_insight_names() -> None:
    for question in reflection_questions(RECORDS, 3):
        for insight in insights(question, RECORDS, 5):
            assert all(1 <= i <= len(RECORDS) for i in insight.cited_indices)
            assert len(insight.cited_indices) >= 2
            shared = set.intersection(*(stems(RECORDS[i - 1]) for i in insight.cited_indices))
            assert shared & stems(insight.text), (insight, shared)


def test_insights_are_distinct_and_at_most_n() -> None:
    found = insights("What is Tomas Okafor's relationship with chemistry?", RECORDS, 2)
    assert len(found) <= 2
    assert len({i.cited_indices for i in found}) == len(found)
    assert insights("anything?", RECORDS, 0) == []


def test_nothing_repeated_means_no_insight() -> None:
    assert insights("What happened?", ["a cat sat", "the dog barked"], 5) == []


@given(
    st.lists(st.sampled_from([*RECORDS, "Lena Ward is reading", "x"]), max_size=12),
    st.integers(min_value=0, max_value=6),
)
def test_citations_never_leave_the_range(statements: list[str], n: int) -> None:
    found = insights("What is Tomas Okafor's relationship with chemistry?", statements, n)
    assert len(found) <= n
    for insight in found:
        assert insight.cited_indices == tuple(sorted(set(insight.cited_indices)))
        assert all(1 <= i <= len(statements) for i in insight.cited_indices)
