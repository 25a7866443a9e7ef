"""A persona's speaking style applied to a finished line."""

from __future__ import annotations

import pytest

from cognition.offline.dialogue import _yours
from cognition.offline.voice import styled


@pytest.mark.parametrize(
    ("line", "formal"),
    [
        ("I'd heard, yes.", "I had heard, yes."),
        ("I'd love to come!", "I would love to come!"),
        ("I'd met him before. I'd say so.", "I had met him before. I would say so."),
        ("Well, I'd better get going.", "Well, I had better get going."),
        ("Not unless it's been booked.", "Not unless it has been booked."),
        ("It's raining and there's been a storm.", "It is raining and there has been a storm."),
    ],
)
def test_a_formal_speaker_undoes_i_d_as_had_before_a_participle(line: str, formal: str) -> None:
    """And "it's" as "it has" before "been" ("it is been" was said once)."""
    assert styled(line, "formal and precise") == formal


def test_what_the_listener_does_is_said_to_them_as_theirs() -> None:
    assert _yours("working in her studio at the croft") == "working in your studio at the croft"
    assert _yours("washing his van by himself") == "washing your van by yourself"
    assert _yours("waving to her") == "waving to her"  # whom, not whose


def test_an_enthusiastic_speaker_keeps_an_abbreviations_full_stop() -> None:
    line = "The farewell supper for Dr. Hale is at St. Anne's hall. Do come."
    said = styled(line, "cheerful and bubbly")
    assert said == "The farewell supper for Dr. Hale is at St. Anne's hall! Do come!"
