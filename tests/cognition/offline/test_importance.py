"""Lexical poignancy: the paper's scale, ordered the way a reader would order it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cognition.offline.importance import MAX_SCORE, MIN_SCORE, rate, rate_all


def test_mundane_ranks_below_poignant() -> None:
    ordered = [
        "brushing teeth",
        "Tomas is reading a chemistry textbook",
        "Rosa is planning a Valentine's Day party at Juniper Cafe",
        "my house is on fire",
    ]
    scores = rate_all(ordered)
    assert scores == sorted(scores)
    assert len(set(scores)) == len(scores), scores


def test_examples_from_the_paper_scale() -> None:
    assert rate("brushing teeth") <= 2
    assert rate("making bed") <= 2
    assert rate("Lena broke up with Tomas") >= 7
    assert rate("Tomas got accepted to Brookside College") >= 6


def test_idle_objects_are_near_the_floor() -> None:
    assert rate("the bed is idle") <= 2


def test_people_emotion_and_exclamation_raise_the_score() -> None:
    plain = rate("the kettle is on the counter")
    assert rate("Helen put the kettle on the counter") == plain + 1
    assert rate("the kettle is on the counter!") == plain + 1
    assert rate("the kettle is on the counter and I am worried") == plain + 1


def test_someone_seen_at_a_routine_activity_gets_no_bonus_for_the_person() -> None:
    busy = rate("Esme Calder is reading the textbook")
    assert busy == rate("the kettle is on the counter")
    assert rate("Beatrix Lund is talking with Martin") == busy + 1
    assert rate("Esme Calder is planning a party") > busy + 1  # news is never routine


def test_poignancy_is_capped_below_the_top_for_stacked_words() -> None:
    stacked = "fire death funeral accident hospital murder"
    assert rate(stacked) <= MAX_SCORE
    assert rate(stacked) == rate("fire death funeral")


def test_mundane_words_do_not_cancel_a_poignant_event() -> None:
    assert rate("while sleeping, the house caught fire") == rate("the house caught fire")


@given(st.text(max_size=200))
def test_always_within_the_scale(text: str) -> None:
    assert MIN_SCORE <= rate(text) <= MAX_SCORE


@given(st.lists(st.text(max_size=80), max_size=10))
def test_rate_all_keeps_order_and_length(texts: list[str]) -> None:
    assert rate_all(texts) == [rate(t) for t in texts]
