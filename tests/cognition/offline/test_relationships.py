"""Relationships: sentiment from polar words around neutral, a summary composed from facts
(how they know each other, how often they talked), never quoting a statement."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cognition.offline.relationships import NEUTRAL, relationship, sentiment


def test_warm_statements_raise_sentiment_and_the_summary_is_composed() -> None:
    update = relationship(
        name="Rosa Delgado",
        other="Tomas Okafor",
        statements=[
            "Rosa Delgado knows Tomas Okafor: a regular who loves almond croissants.",
            "Tomas Okafor thanked Rosa for the croissants",
            "Helen Park is busy",
            'Tomas Okafor said to Rosa Delgado: "Thank you, they are lovely!"',
            "Tomas is a kind and friendly regular",
        ],
    )
    assert update.sentiment > NEUTRAL
    assert update.summary == (
        "Rosa Delgado is very fond of Tomas Okafor (a regular who loves almond croissants). "
        "They have talked once recently."
    )


def test_hostile_statements_lower_sentiment() -> None:
    update = relationship(
        name="Ivo Marsh",
        other="Helen",
        statements=["Helen was rude to Ivo", "Ivo argued with Helen about the parking"],
    )
    assert update.sentiment < NEUTRAL


def test_negation_flips_a_word() -> None:
    assert sentiment(["Lena was not kind"]) < NEUTRAL
    assert sentiment(["Lena was never rude"]) > NEUTRAL


def test_nobody_mentioned_means_neutral() -> None:
    update = relationship(name="Rosa", other="Mara Quist", statements=["Tomas is studying"])
    assert update.sentiment == NEUTRAL
    assert "Mara Quist" in update.summary


@given(st.lists(st.text(max_size=60), max_size=8))
def test_sentiment_is_within_the_scale(statements: list[str]) -> None:
    update = relationship(name="A", other="Bo", statements=["Bo " + s for s in statements])
    assert 0 <= update.sentiment <= 10
