"""Text helpers the offline mind speaks with."""

from __future__ import annotations

import pytest

from cognition.offline.text import first_name, same_person, sentences


def test_an_abbreviation_does_not_end_a_sentence() -> None:
    said = "I'd love to come! I'll see you at St. Brannoc's Chapel at 11 am. Bye, Dr. Kerr."
    assert sentences(said) == [
        "I'd love to come!",
        "I'll see you at St. Brannoc's Chapel at 11 am.",
        "Bye, Dr. Kerr.",
    ]


def test_a_name_whose_family_name_comes_first_is_called_by_its_last_word() -> None:
    """Held out: a Vietnamese town was greeted "Good to see you, Vo!", and "Nguyen Van Sau"
    was taken for his daughter "Nguyen Thi Thuy" (one "first name")."""
    assert first_name("Nguyen Van Sau") == "Sau"
    assert first_name("Đặng Thị Út") == "Út"  # compared without diacritics
    assert first_name("Klaus Mueller") == "Klaus"
    assert first_name("Lam Tran") == "Lam"  # two words: no custom can be told
    assert not same_person("Nguyen Van Sau", "Nguyen Thi Thuy")
    assert same_person("Nguyen Van Sau", "Sau")


@pytest.mark.parametrize(
    ("said", "name", "same"),
    [
        ("Father Ioane", "Ioane Kvitsiani", True),
        ("Dr. Hale", "Miriam Hale", True),
        ("Auntie Rosa", "Rosa Lim", True),
        ("Ioane Kvitsiani", "Father Ioane", True),
        ("Father Ioane", "Dato Gabliani", False),
        ("Father Ioane", "Ioane", False),  # one name alone says nothing of the title's owner
    ],
)
def test_a_person_named_with_a_form_of_address_is_the_same_person(
    said: str, name: str, same: bool
) -> None:
    assert same_person(said, name) is same
