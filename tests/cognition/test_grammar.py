"""An activity reads as English after "is": imperatives become progressives, the rest is kept
or framed so the sentence cannot break ("Tomas is have lunch" never happens)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cognition.grammar import ing_form, progressive
from cognition.perception import observation_text

CASES = [
    # imperatives, as plans write them
    ("have lunch", "having lunch"),
    ("wake up and complete the morning routine", "waking up and completing the morning routine"),
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
