"""The judge without a model: a yes/no label a reader can check against the answer, and a
ranking that keeps the believability study running offline."""

from __future__ import annotations

import pytest

from cognition.offline.judging import knows, rank

PARTY = ("party", "Valentine")


@pytest.mark.parametrize(
    "answer",
    [
        "Yes. Junie Halvorsen is hosting a Valentine's Day party at The Copper Kettle.",
        "Um, yes! Junie Halvorsen is hosting a Valentine's Day party!",
        "Junie told me about her party this morning.",
        "Yes, I'm hosting a Valentine's Day party at The Copper Kettle on February 14.",
    ],
)
def test_an_answer_naming_the_subject_without_denying_it_is_a_yes(answer: str) -> None:
    assert knows(answer=answer, cues=PARTY)


@pytest.mark.parametrize(
    "answer",
    [
        "No, I haven't heard about anything like that.",
        "Um, no, I haven't heard about anything like that!",
        "I'm not sure there is a party.",
        "I don't know of any Valentine's Day party.",
        "I'm afraid I didn't know about it.",
        "",
    ],
)
def test_a_denial_or_a_doubt_is_a_no_even_when_it_names_the_subject(answer: str) -> None:
    assert not knows(answer=answer, cues=PARTY)


def test_a_bare_yes_is_about_what_its_memories_name() -> None:
    heard = 'Tomas said to Priya: "Junie is hosting a Valentine\'s Day party."'
    assert knows(answer="Yes, I did.", cues=PARTY, cited=[heard])
    assert not knows(answer="Yes, I did.", cues=PARTY, cited=["Priya is coding"])
    assert not knows(answer="The weather is lovely.", cues=PARTY, cited=[heard])


def test_knowing_of_a_person_is_naming_them() -> None:
    cues = ("Tomas Ferreira", "Tomas")
    assert knows(answer="Yes, I know Tomas Ferreira. We have talked.", cues=cues)
    assert not knows(answer="No, I don't think I know Tomas Ferreira.", cues=cues)


def test_the_offline_ranking_puts_doubts_last_and_remembered_words_first() -> None:
    answers = [
        "I'm not sure.",
        "I like it here.",
        "Walter Brigg is running for the town council.",
    ]
    memories = ["Walter Brigg said he is running for the town council"]
    assert rank(answers=answers, memories=memories) == [3, 2, 1]
    assert sorted(rank(answers=answers, memories=[])) == [1, 2, 3]


def test_a_cue_word_is_named_in_any_of_its_forms_but_a_phrase_only_as_written() -> None:
    said = "Yes. The telescope evening is at the playing field on Wednesday."
    assert knows(answer=said, cues=["telescopes"])
    assert not knows(answer=said, cues=["dark skies"])
    assert not knows(answer="Yes. The ceilidh is on Friday.", cues=["telescopes"])
