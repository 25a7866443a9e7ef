"""Reflection without a model: questions about what fills the stream, insights as sentences
about the reflecting person that cite exactly the statements carrying their fact."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from cognition.offline.reflection import insights, reflection_questions

JUNIE = "Junie Halvorsen"
STREAM = [
    "Junie Halvorsen is brewing coffee",
    "Tomas Ferreira is serving customers at the counter",
    'Junie Halvorsen said to Tomas Ferreira: "Good morning, Tomas!"',
    "Junie Halvorsen is brewing coffee",
    'Tomas Ferreira said to Junie Halvorsen: "Hello, Junie!"',
    "Tomas Ferreira is serving customers at the counter",
    "Junie Halvorsen is planning a Valentine's Day party at The Copper Kettle on February 14",
    "Walter Brigg is running for a seat on the town council",
]


def test_questions_follow_what_the_stream_is_about() -> None:
    assert reflection_questions(STREAM, 5, name=JUNIE) == [
        "What is Junie Halvorsen looking forward to?",
        "What does Junie Halvorsen know about the election?",
        "What is Junie Halvorsen's relationship with Tomas Ferreira?",
        "How has Junie Halvorsen been spending the time?",
    ]
    assert len(reflection_questions(STREAM, 2, name=JUNIE)) == 2


def test_insights_are_sentences_about_the_person_citing_their_evidence() -> None:
    about_tomas = insights(
        "What is Junie Halvorsen's relationship with Tomas Ferreira?", STREAM, 5, name=JUNIE
    )
    assert [(i.text, i.cited_indices) for i in about_tomas] == [
        ("Junie Halvorsen has been talking with Tomas Ferreira lately.", (3, 5)),
        ("Junie Halvorsen often sees Tomas Ferreira serving customers at the counter.", (2, 6)),
    ]
    [party] = insights("What is Junie Halvorsen looking forward to?", STREAM, 5, name=JUNIE)
    assert party.text == (
        "Junie Halvorsen is hosting a Valentine's Day party at The Copper Kettle on February 14, "
        "and hopes that everyone will come."
    )
    assert party.cited_indices == (7,)
    [vote] = insights("What does Junie Halvorsen know about the election?", STREAM, 5, name=JUNIE)
    assert vote.text == (
        "Junie Halvorsen knows that Walter Brigg is running for a seat on the town council."
    )
    [time] = insights("How has Junie Halvorsen been spending the time?", STREAM, 5, name=JUNIE)
    assert time.text == "Junie Halvorsen has spent much of the time brewing coffee."
    assert time.cited_indices == (1, 4)


def test_someone_seen_talking_with_the_reflecting_person_is_a_talk_not_a_habit() -> None:
    stream = [
        "Beatrix Lund is talking with Martin",
        "Beatrix Lund is restocking the shelves",
        "Beatrix Lund is talking with Martin",
        "Beatrix Lund is restocking the shelves",
    ]
    about = insights(
        "What is Martin Calloway's relationship with Beatrix Lund?",
        stream,
        5,
        name="Martin Calloway",
    )
    assert [(i.text, i.cited_indices) for i in about] == [
        ("Martin Calloway has been talking with Beatrix Lund lately.", (1, 3)),
        ("Martin Calloway often sees Beatrix Lund restocking the shelves.", (2, 4)),
    ]


def test_a_habit_cites_only_the_sightings_of_that_doing() -> None:
    stream = [
        "Beatrix Lund is restocking the shelves",
        "Beatrix Lund is sweeping the floor",
        "Beatrix Lund is restocking the shelves",
        "Beatrix Lund is counting the till",
    ]
    about = insights(
        "What is Martin Calloway's relationship with Beatrix Lund?",
        stream,
        5,
        name="Martin Calloway",
    )
    assert [(i.text, i.cited_indices) for i in about] == [
        ("Martin Calloway often sees Beatrix Lund restocking the shelves.", (1, 3)),
    ]


def test_unsupported_questions_get_only_who_the_person_talked_with() -> None:
    [general] = insights(
        "What is Junie Halvorsen's relationship with Ada Okafor?", STREAM, 5, name=JUNIE
    )
    assert general.text == "Junie Halvorsen has been talking with Tomas Ferreira."
    assert general.cited_indices == (3, 5)
    alone = [s for s in STREAM if "said to" not in s]
    [full] = insights("What is Junie Halvorsen's relationship with Ada Okafor?", alone, 5)
    assert full.text == "Junie Halvorsen has had a full day." and full.cited_indices == (1, 3, 5)
    others = ["the stove is idle", "Tomas Ferreira is serving customers"]
    assert insights("What is Junie Halvorsen looking forward to?", others, 5, name=JUNIE) == []
    assert reflection_questions([], 3, name=JUNIE) == []


WORDS = st.sampled_from(
    [
        "Junie Halvorsen is brewing coffee",
        "Tomas Ferreira is sleep",
        'Junie Halvorsen said to Tomas Ferreira: "Hi!"',
        "the stove is burning",
        "Priya Raman is coding",
        "Walter Brigg is running for mayor",
        "",
    ]
)


@given(st.lists(WORDS, max_size=12), st.integers(min_value=1, max_value=5))
def test_insights_cite_only_numbered_statements_and_read_as_sentences(
    statements: list[str], n: int
) -> None:
    for question in reflection_questions(statements, 4, name=JUNIE):
        for insight in insights(question, statements, n, name=JUNIE):
            assert insight.cited_indices
            assert all(1 <= i <= len(statements) for i in insight.cited_indices)
            assert insight.text.startswith(JUNIE) and insight.text.endswith(".")
            assert not re.search(r"\bis (?:sleep|have|say)\b", insight.text)


def test_private_doings_and_acts_of_a_moment_are_not_remarked_on() -> None:
    stream = [
        "Owen Lloyd is taking a shower",
        "Owen Lloyd is taking a shower",
        "Mari Lloyd is picking up a basket",
        "Mari Lloyd is picking up a basket",
    ]
    about = insights(
        "What is Mari Lloyd's relationship with Owen Lloyd?", stream, 5, name="Mari Lloyd"
    )
    assert [i.text for i in about] == ["Mari Lloyd has been seeing a lot of Owen Lloyd."]
    [time] = insights("How has Mari Lloyd been spending the time?", stream, 5, name="Mari Lloyd")
    assert "picking up" not in time.text, time.text


def test_an_insight_about_news_heard_keeps_who_told_it() -> None:
    """Read again without the line it came from, it is never news the agent knew first."""
    from cognition.offline import knowledge

    stream = [
        'Gwen Talbot said to Ivor Price: "The moth evening is at Millers Meadow on May 10 at '
        '8 pm. Everyone is welcome!"',
        "Ivor Price is mending a fence",
    ]
    [event] = insights("What is Ivor Price looking forward to?", stream, 5, name="Ivor Price")
    assert event.text.startswith("Ivor Price heard from Gwen Talbot that the moth evening is")
    assert knowledge.firsthand([event.text], name="Ivor Price") == []
    (fact,) = knowledge.news_in(event.text)
    assert fact.source == "Gwen Talbot"
