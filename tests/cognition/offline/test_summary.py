"""The summary description without a model: the paper's five lines, never repeating itself."""

from __future__ import annotations

from cognition.offline.summary import summarize_agent
from cognition.types import Persona

JUNIE = Persona(
    name="Junie Halvorsen",
    age=38,
    innate="warm, energetic, organized",
    background="Junie Halvorsen owns The Copper Kettle; Junie took over the cafe six years ago",
    currently="Junie is planning the Valentine's Day party; she is inviting everyone",
)


def test_five_lines_in_the_papers_shape() -> None:
    summary = summarize_agent(
        persona=JUNIE,
        retrieved={
            "core": ["Junie Halvorsen owns The Copper Kettle"],
            "occupation": ["Junie Halvorsen is brewing coffee"],
            "feeling": ["Junie Halvorsen is looking forward to the party"],
        },
    )
    assert summary.splitlines() == [
        "Name: Junie Halvorsen (age: 38)",
        "Innate traits: warm, energetic and organized",
        "Junie Halvorsen owns The Copper Kettle.",
        "Junie Halvorsen is brewing coffee.",
        "Junie Halvorsen is looking forward to the party.",
    ]


def test_a_statement_is_used_once_and_speech_never() -> None:
    same = "Junie Halvorsen owns The Copper Kettle"
    summary = summarize_agent(
        persona=JUNIE,
        retrieved={
            "core": [same],
            "occupation": [same, 'Tomas Ferreira said to Junie Halvorsen: "Hi!"'],
            "feeling": [same],
        },
    )
    assert summary.count("owns The Copper Kettle") == 1
    assert '"' not in summary
    assert "Junie is planning the Valentine's Day party." in summary  # the persona's own words


def test_nothing_retrieved_falls_back_to_the_persona() -> None:
    lines = summarize_agent(persona=JUNIE, retrieved={}).splitlines()
    assert (
        lines[2]
        == "Junie Halvorsen owns The Copper Kettle. Junie took over the cafe six years ago."
    )
    assert lines[3] == "Junie is planning the Valentine's Day party. She is inviting everyone."
    assert lines[4] == "Junie is taking life one day at a time."
