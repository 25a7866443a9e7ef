"""The agent summary keeps the paper's five-line shape, falling back to persona fields."""

from __future__ import annotations

from cognition.offline.summary import summarize_agent

from .personas import IVO, ROSA


def test_summary_has_the_papers_shape_from_retrievals() -> None:
    text = summarize_agent(
        persona=ROSA,
        retrieved={
            "core": ["Rosa Delgado is warm and remembers every regular's order"],
            "occupation": ["Rosa Delgado runs Juniper Cafe"],
            "feeling": ["Rosa Delgado is excited about the Valentine's Day party"],
        },
    )
    lines = text.split("\n")
    assert lines == [
        "Name: Rosa Delgado (age: 41)",
        "Innate traits: warm, sociable, organised",
        "Rosa Delgado is warm and remembers every regular's order.",
        "Rosa Delgado runs Juniper Cafe.",
        "Rosa Delgado is excited about the Valentine's Day party.",
    ]


def test_missing_retrievals_fall_back_to_the_persona() -> None:
    lines = summarize_agent(persona=IVO, retrieved={}).split("\n")
    assert len(lines) == 5
    assert lines[2] == IVO.background
    assert lines[3] == IVO.currently + "."
    assert "Ivo" in lines[4]


def test_at_most_two_statements_per_line() -> None:
    text = summarize_agent(persona=ROSA, retrieved={"core": ["A is b", "C is d", "E is f"]})
    assert text.split("\n")[2] == "A is b. C is d."
