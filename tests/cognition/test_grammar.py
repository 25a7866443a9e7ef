"""Verb forms and sentence assembly: the progressive that observations and speech rely on."""

from __future__ import annotations

import pytest

from cognition.grammar import (
    bare,
    base_form,
    ing,
    join_words,
    progressive,
    sentence,
    third_person,
    third_person_phrase,
)

PROGRESSIVE = [
    ("have lunch", "having lunch"),
    ("wake up and complete the morning routine", "waking up and completing the morning routine"),
    ("brewing coffee", "brewing coffee"),
    (
        "open The Copper Kettle and serve customers",
        "opening The Copper Kettle and serving customers",
    ),
    ("go to bed and sleep", "going to bed and sleeping"),
    ("run errands", "running errands"),
    ("lie down", "lying down"),
    ("sit by the fountain; then read the paper", "sitting by the fountain; then reading the paper"),
    ("plan the party and invite Mark", "planning the party and inviting Mark"),
    ("say hello to Camille and chat", "saying hello to Camille and chatting"),
    ("take a shower", "taking a shower"),
    ("stop by the store", "stopping by the store"),
    ("visit the library", "visiting the library"),
    ("study for the exam", "studying for the exam"),
    ("begin the lecture", "beginning the lecture"),
    ("tidy the room", "tidying the room"),
    ("practise guitar at home", "practising guitar at home"),
    ("Wake up", "waking up"),
    ("sleep", "sleeping"),
    ("talk with Junie", "talking with Junie"),
    ("get The Copper Kettle ready for the party", "getting The Copper Kettle ready for the party"),
    ("host the Valentine's Day party", "hosting the Valentine's Day party"),
    ("draw at The Copper Kettle", "drawing at The Copper Kettle"),
    ("shop for bread and butter", "shopping for bread and butter"),
    ("see a friend", "seeing a friend"),
    ("make tea", "making tea"),
    ("opens the cafe", "opening the cafe"),
    ("lunch break", "busy with lunch break"),
    ("Lunch at home", "busy with lunch at home"),
    ("relax at home and read a book", "relaxing at home and reading a book"),
    ("do carpentry", "doing carpentry"),
    ("write, then edit", "writing, then editing"),
    ("code in the library", "coding in the library"),
    ("jog", "jogging"),
    ("quit early", "quitting early"),
    ("eat", "eating"),
    ("agree to meet", "agreeing to meet"),
    ("tie the boat", "tying the boat"),
    ("meet Will at the park", "meeting Will at the park"),
    ("watch the sunset", "watching the sunset"),
]


@pytest.mark.parametrize(("phrase", "expected"), PROGRESSIVE)
def test_progressive_forms_read_as_english(phrase: str, expected: str) -> None:
    assert progressive(phrase) == expected


def test_progressive_never_leaves_a_bare_verb_after_is() -> None:
    for phrase, _ in PROGRESSIVE:
        head = progressive(phrase).split()[0].rstrip(",;")
        assert head.endswith("ing") or head == "busy", phrase


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
    assert ing(verb) == participle
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
    assert progressive("bread and water") == "busy with bread and water"


def test_sentences_and_lists() -> None:
    assert sentence("  junie is  here ") == "Junie is here."
    assert sentence("Is it?") == "Is it?"
    assert sentence("") == ""
    assert join_words(["Tomas", "Priya", "Hiro"]) == "Tomas, Priya and Hiro"
    assert join_words(["Tomas"]) == "Tomas"
