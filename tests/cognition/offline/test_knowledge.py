"""Facts read from memories' words: events, candidacies, speech — and their sentences."""

from __future__ import annotations

from cognition.offline.knowledge import (
    Candidacy,
    Event,
    clock_text,
    events_in,
    full_name,
    news_in,
    said,
)

PARTY = Event(
    name="Valentine's Day party",
    host="Junie Halvorsen",
    place="The Copper Kettle",
    month=2,
    day=14,
    start_min=18 * 60,
    end_min=20 * 60,
)
STATEMENT = (
    "Junie Halvorsen is hosting a Valentine's Day party at The Copper Kettle on February 14 "
    "from 6 pm to 8 pm."
)


def test_a_seed_sentence_is_read_into_an_event() -> None:
    seed = (
        "Junie Halvorsen is planning a Valentine's Day party at The Copper Kettle on "
        "February 14 from 6pm to 8pm"
    )
    assert events_in(seed) == [PARTY]
    assert PARTY.statement() == STATEMENT


def test_spoken_words_are_read_as_their_speakers() -> None:
    memory = (
        "Junie Halvorsen said to Tomas Ferreira: \"I'm hosting a Valentine's Day party at The "
        'Copper Kettle on February 14 from 6 pm to 8 pm. Would you like to come?"'
    )
    heard = said(memory)
    assert heard is not None and (heard.speaker, heard.listener) == (
        "Junie Halvorsen",
        "Tomas Ferreira",
    )
    assert news_in(memory) == [PARTY]


def test_a_retold_statement_reads_back_as_the_same_event() -> None:
    relayed = f'Tomas Ferreira said to Priya Raman: "Have you heard? {STATEMENT} You should come!"'
    assert news_in(relayed) == [PARTY]
    assert news_in(relayed)[0].key == PARTY.key


def test_a_possessive_names_the_host_and_a_planning_note_does_not() -> None:
    note = (
        "For Tomas Ferreira's planning: Tomas Ferreira agreed to go to Junie Halvorsen's "
        "Valentine's Day party at The Copper Kettle on February 14 from 6 pm to 8 pm."
    )
    assert news_in(note) == [PARTY]


def test_a_plan_list_does_not_lend_one_item_the_next_items_time() -> None:
    plan = (
        "This is Junie Halvorsen's plan for Monday February 13: 5) invite friends to her "
        "Valentine's Day party at 5:00 pm, 6) have dinner at home at 6:00 pm."
    )
    assert news_in(plan) == []  # no place, no date: not news
    [event] = events_in(plan)
    assert (event.start_min, event.end_min) == (17 * 60, None)


def test_candidacies_are_read_and_retold() -> None:
    seed = "Walter is running for a seat on the Larkspur town council in the election on March 1"
    assert news_in(seed) == [Candidacy("Walter", "a seat on the Larkspur town council")]
    spoken = 'Walter Brigg said to Rosalind Kerr: "I\'m running for a seat on the town council."'
    [candidacy] = news_in(spoken)
    assert candidacy.statement() == "Walter Brigg is running for a seat on the town council."


def test_an_event_without_place_or_day_is_not_news() -> None:
    assert news_in("Noor runs a small poetry reading group that meets on Thursday evenings") == []


def test_events_merge_what_each_mention_gives() -> None:
    partial = Event(name="Valentine's Day party", host="Junie Halvorsen", place="The Copper Kettle")
    assert partial.merged(PARTY) == PARTY
    assert partial.described() == "a Valentine's Day party at The Copper Kettle"


def test_clock_text_and_names() -> None:
    assert [clock_text(m) for m in (0, 12 * 60, 18 * 60, 7 * 60 + 30)] == [
        "midnight",
        "noon",
        "6 pm",
        "7:30 am",
    ]
    assert full_name("Junie", ["Tomas Ferreira", "Junie Halvorsen"]) == "Junie Halvorsen"
