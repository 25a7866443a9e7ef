"""Text helpers the offline mind speaks with."""

from __future__ import annotations

from cognition.offline.text import sentences


def test_an_abbreviation_does_not_end_a_sentence() -> None:
    said = "I'd love to come! I'll see you at St. Brannoc's Chapel at 11 am. Bye, Dr. Kerr."
    assert sentences(said) == [
        "I'd love to come!",
        "I'll see you at St. Brannoc's Chapel at 11 am.",
        "Bye, Dr. Kerr.",
    ]
