"""An activity reads as English after "is": imperatives become progressives, the rest is kept
or framed so the sentence cannot break ("Tomas is have lunch" never happens)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cognition.grammar import (
    bare,
    base_form,
    ing_form,
    join_words,
    progressive,
    sentence,
    third_person,
    third_person_phrase,
)
from cognition.perception import observation_text

CASES = [
    # imperatives, as plans write them
    ("have lunch", "having lunch"),
    ("wake up and complete the morning routine", "waking up and completing the morning routine"),
    (
        "open Dunmore General Store and work there",
        "opening Dunmore General Store and working there",
    ),
    ("buy milk and water", "buying milk and water"),
    ("run errands", "running errands"),
    ("lie down", "lying down"),
    ("take a shower", "taking a shower"),
    ("make coffee for the customers", "making coffee for the customers"),
    ("go to bed and sleep", "going to bed and sleeping"),
    ("open The Copper Kettle", "opening The Copper Kettle"),
    ("sit by the window", "sitting by the window"),
    ("shop for groceries", "shopping for groceries"),
    ("chat with Maria", "chatting with Maria"),
    ("plan the party", "planning the party"),
    ("swim in the pond", "swimming in the pond"),
    ("see the doctor", "seeing the doctor"),
    ("tie her shoes", "tying her shoes"),
    ("write the article", "writing the article"),
    ("study for the exam", "studying for the exam"),
    ("play the piano", "playing the piano"),
    ("visit the library", "visiting the library"),
    ("begin the lecture", "beginning the lecture"),
    ("debug the register", "debugging the register"),
    ("quit smoking", "quitting smoking"),
    ("picnic in the park", "picnicking in the park"),
    ("Have lunch", "having lunch"),
    ("to eat lunch", "eating lunch"),
    ("quickly eat lunch", "quickly eating lunch"),
    # coordinated verbs, and nouns that merely could be verbs
    ("shower, dress and eat breakfast", "showering, dressing and eating breakfast"),
    ("eat and drink", "eating and drinking"),
    ("buy milk and water", "buying milk and water"),
    ("have breakfast and walk the dog", "having breakfast and walking the dog"),
    ("make coffee and read the paper", "making coffee and reading the paper"),
    ("finish the report, then head home", "finishing the report, then heading home"),
    ("bake bread; then paint", "baking bread; then painting"),
    ("serve customers and chat with regulars", "serving customers and chatting with regulars"),
    ("continue: bake bread", "still baking bread"),
    ("keep going: tend the garden", "keeping going: tending the garden"),
    ("say hello to Theo and chat", "saying hello to Theo and chatting"),
    ("buy bread and a drink", "buying bread and a drink"),
    # already fits after "is"
    ("brewing coffee", "brewing coffee"),
    ("reading a book", "reading a book"),
    ("at the cafe", "at the cafe"),
    ("asleep", "asleep"),
    ("in a meeting with Tom", "in a meeting with Tom"),
    ("dressed for the party", "dressed for the party"),
    ("idle", "idle"),
    ("still working", "still working"),
    # noun phrases get a frame
    ("lunch break", "on a lunch break"),
    ("a walk in the park", "on a walk in the park"),
    ("lunch with Maria", "having lunch with Maria"),
    ("milk the goats", "milking the goats"),  # a verb known from lemminflect's lexicon
    ("chant in the main hall", "chanting in the main hall"),
    ("morning routine", "busy with morning routine"),
    ("quarterly report", "busy with quarterly report"),
    ("", ""),
]


@pytest.mark.parametrize(("phrase", "expected"), CASES, ids=[c[0] or "empty" for c in CASES])
def test_progressive(phrase: str, expected: str) -> None:
    assert progressive(phrase) == expected


@pytest.mark.parametrize(
    ("verb", "form"),
    [
        ("make", "making"),
        ("see", "seeing"),
        ("stop", "stopping"),
        ("open", "opening"),
        ("fix", "fixing"),
        ("play", "playing"),
        ("die", "dying"),
        ("panic", "panicking"),
    ],
)
def test_ing_form(verb: str, form: str) -> None:
    assert ing_form(verb) == form


def test_observations_of_agents_read_as_english_and_objects_keep_their_state() -> None:
    assert (
        observation_text("Tomas Okafor", "have lunch", doing=True) == "Tomas Okafor is having lunch"
    )
    assert observation_text("Cafe: kitchen: table", "set for a meal") == "table is set for a meal"


@given(st.text(max_size=60))
def test_any_text_is_kept_whole(phrase: str) -> None:
    """Nothing is dropped but a leading "to": every word of the phrase is still there."""
    out = progressive(phrase).split()
    words = phrase.split()
    if words and words[0].lower() == "to":
        words = words[1:]
    assert len(out) >= len(words) - 1


@pytest.mark.parametrize(
    ("verb", "participle", "third"),
    [
        ("make", "making", "makes"),
        ("plan", "planning", "plans"),
        ("study", "studying", "studies"),
        ("go", "going", "goes"),
        ("watch", "watching", "watches"),
        ("play", "playing", "plays"),
        ("fix", "fixing", "fixes"),
        ("have", "having", "has"),
        ("be", "being", "is"),
    ],
)
def test_verb_forms(verb: str, participle: str, third: str) -> None:
    assert ing_form(verb) == participle
    assert third_person(verb) == third
    assert base_form(participle) == verb
    assert base_form(third) == verb


def test_bare_and_third_person_convert_every_clause_head_but_names() -> None:
    assert bare("opens The Copper Kettle at 7am and works at the counter") == (
        "open The Copper Kettle at 7am and work at the counter"
    )
    assert third_person_phrase("open the cafe and serve customers") == (
        "opens the cafe and serves customers"
    )
    assert bare("meets Mark and talks") == "meet Mark and talk"


def test_words_that_are_not_verbs_are_left_alone() -> None:
    assert base_form("morning") is None
    assert base_form("Copper") is None


def test_sentences_and_lists() -> None:
    assert sentence("  junie is  here ") == "Junie is here."
    assert sentence("Is it?") == "Is it?"
    assert sentence("") == ""
    assert join_words(["Tomas", "Priya", "Hiro"]) == "Tomas, Priya and Hiro"
    assert join_words(["Tomas"]) == "Tomas"


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("opens the cafe", "opening the cafe"),
        ("say hello to Camille and chat", "saying hello to Camille and chatting"),
        (
            "get The Copper Kettle ready for the party",
            "getting The Copper Kettle ready for the party",
        ),
        ("host the Valentine's Day party", "hosting the Valentine's Day party"),
        ("code in the library", "coding in the library"),
        ("do carpentry", "doing carpentry"),
        ("talk with Junie", "talking with Junie"),
        ("meet Will at the park", "meeting Will at the park"),
    ],
)
def test_the_town_s_own_activities_read_as_english(phrase: str, expected: str) -> None:
    assert progressive(phrase) == expected


def test_a_sentence_cut_short_at_a_comma_ends_with_a_full_stop() -> None:
    """Held out (Pangdan): "… a seaman like Josie Ompad's husband,." """
    assert sentence("thinking about the sea like her husband,") == (
        "Thinking about the sea like her husband."
    )


@pytest.mark.parametrize(
    ("activity", "said"),
    [
        ("open the store and mind the counter", "opening the store and minding the counter"),
        ("sell bread and cake at the market", "selling bread and cake at the market"),
    ],
)
def test_a_coordinated_verb_the_list_lacks_is_known_by_the_word_after_it(
    activity: str, said: str
) -> None:
    assert progressive(activity) == said
