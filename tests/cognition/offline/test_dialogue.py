"""Dialogue: lines grounded in a retrieved memory, carrying the intent, ending sensibly."""

from __future__ import annotations

from cognition.offline.dialogue import LONG_CONVERSATION, answer, next_utterance
from cognition.offline.text import stems
from cognition.types import Persona, Utterance

from .personas import HELEN, IVO, ROSA, TOMAS

INVITE = "invite Tomas to the Valentine's Day party at Juniper Cafe on February 14th at 5pm"
MEMORIES = [
    "Rosa Delgado is planning a Valentine's Day party at Juniper Cafe",
    "Tomas Okafor is preparing for his chemistry exam",
    "the coffee machine is idle",
]


def _say(
    speaker: Persona = ROSA,
    *,
    intent: str = INVITE,
    history: tuple[tuple[str, str], ...] = (),
    memories: list[str] = MEMORIES,
    listener: str = "Tomas Okafor",
) -> Utterance:
    return next_utterance(
        speaker=speaker, listener=listener, intent=intent, memories=memories, history=history
    )


def test_opening_greets_mentions_a_memory_and_the_invitation() -> None:
    line = _say()
    assert not line.ends
    assert line.text.startswith("Hi Tomas!")
    assert "I am planning a Valentine's Day party at Juniper Cafe" in line.text
    assert "Would you like to come to the Valentine's Day party at Juniper Cafe" in line.text
    assert "5pm" in line.text


def test_memory_about_the_listener_is_said_to_them() -> None:
    line = _say(intent="ask Tomas about his chemistry exam", memories=MEMORIES[1:])
    assert "you are preparing for your chemistry exam" in line.text
    assert "Can I ask you about your chemistry exam?" in line.text


def test_speaking_style_shapes_the_line() -> None:
    formal = _say(HELEN, intent="tell Tomas about his new prescription")
    assert "I wanted to tell you about your new prescription." in formal.text
    assert "!" not in formal.text
    casual = _say(IVO, intent="chat")
    assert casual.text.startswith("Hey Tomas!")
    assert "How have you been?" in casual.text
    shy = _say(TOMAS, listener="Lena Ward", intent="chat")
    assert shy.text.startswith("Um, ")
    cheerful = _say()
    assert "." not in cheerful.text.replace("5pm", "")


def test_a_question_about_the_invitation_is_answered_with_the_event() -> None:
    opening = _say()
    line = _say(history=(("Rosa Delgado", opening.text), ("Tomas Okafor", "What time is it?")))
    assert "It's the Valentine's Day party at Juniper Cafe on February 14th at 5pm" in line.text
    assert "Would you like" not in line.text  # already asked
    assert not line.ends


def test_acceptance_closes_the_conversation() -> None:
    opening = _say()
    line = _say(history=(("Rosa Delgado", opening.text), ("Tomas Okafor", "Sure, I'd love to!")))
    assert line.ends
    assert "See you at the Valentine's Day party" in line.text


def test_goodbye_closes_the_conversation() -> None:
    line = _say(history=(("Rosa Delgado", "Hi!"), ("Tomas Okafor", "Sorry, I have to go. Bye!")))
    assert line.ends


def test_long_conversations_wrap_up() -> None:
    history = tuple(
        ("Rosa Delgado" if i % 2 == 0 else "Tomas Okafor", f"line {i}")
        for i in range(LONG_CONVERSATION)
    )
    assert _say(history=history).ends


def test_later_turns_bring_up_a_new_memory() -> None:
    opening = _say()
    line = _say(history=(("Rosa Delgado", opening.text), ("Tomas Okafor", "I'm doing fine.")))
    assert "chemistry exam" in line.text


def test_utterance_is_deterministic() -> None:
    assert _say() == _say()


QUESTION_MEMORIES = [
    "Tomas Okafor is preparing for his chemistry exam",
    "Tomas Okafor saw Lena Ward at the library",
    "Tomas Okafor has a secret crush on Lena Ward",
    "the kettle is boiling",
]


def test_answer_retells_related_memories_and_cites_them() -> None:
    reply = answer(
        question="How do you feel about Lena Ward?",
        persona=TOMAS,
        summary="",
        asker="Rosa",
        memories=QUESTION_MEMORIES,
    )
    assert reply.cited == (2, 3)
    assert "I have a secret crush on Lena Ward" in reply.text
    assert reply.text.startswith("Um, ")


def test_answer_cites_only_memories_that_share_words_with_the_question() -> None:
    reply = answer(
        question="When is your chemistry exam?",
        persona=TOMAS,
        summary="",
        asker="Rosa",
        memories=QUESTION_MEMORIES,
    )
    assert reply.cited == (1,)
    for index in reply.cited:
        assert stems(QUESTION_MEMORIES[index - 1]) & stems("When is your chemistry exam?")


def test_answer_admits_ignorance_rather_than_inventing() -> None:
    reply = answer(
        question="Who won the mayoral election?",
        persona=HELEN,
        summary="",
        asker="Ivo",
        memories=QUESTION_MEMORIES,
    )
    assert reply.cited == ()
    assert "not sure" in reply.text


def test_answer_about_oneself_uses_the_summary() -> None:
    summary = "Name: Helen Park (age: 56)\nInnate traits: precise\nHelen Park runs Willow Pharmacy."
    reply = answer(
        question="Tell me about yourself", persona=HELEN, summary=summary, asker="Ivo", memories=[]
    )
    assert "I run Willow Pharmacy." in reply.text
    assert reply.cited == ()
