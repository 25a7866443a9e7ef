"""The audit's grammar rules: each rule's own examples, then lines, plans, reflections and
summaries taken from real demo runs of the offline mind (Larkspur, 2023-02-13) — the failures
issue 11 quotes must be caught, and what reads well must pass."""

from __future__ import annotations

import pytest

from bench.audit_grammar import (
    RULE_NAMES,
    RULES,
    Kind,
    Names,
    Rule,
    Text,
    check,
    sentences,
    summary_text,
)

TOWN = Names(
    frozenset(
        {
            "Junie Halvorsen",
            "Tomas Ferreira",
            "Helen Calloway",
            "Grace Okafor",
            "Ada Okafor",
            "Ruth Castellano",
            "Jonah Pike",
            "Lucia Bellandi",
            "Beatrix Lund",
            "Noor Haddad",
            "Esme Calder",
            "Theo Calloway",
            "Arvid Lindqvist",
            "Ingrid Lindqvist",
            "Bram Ode",
        }
    )
)
U, R, S, P = Kind.UTTERANCE, Kind.REFLECTION, Kind.SUMMARY, Kind.PLAN
OBS, OUTLINE = Kind.OBSERVATION, Kind.OUTLINE


@pytest.mark.parametrize("rule", RULES, ids=RULE_NAMES)
def test_each_rule_catches_its_examples_and_passes_its_counterexamples(rule: Rule) -> None:
    assert rule.catches and rule.passes and rule.doc
    for text in rule.catches:
        assert rule.hits(text, TOWN), f"{rule.name} missed {text.text!r}"
    for text in rule.passes:
        assert not rule.hits(text, TOWN), f"{rule.name} flagged {text.text!r}"


def test_rule_names_are_unique() -> None:
    assert len(set(RULE_NAMES)) == len(RULES)


REAL_FAILURES = [
    # (kind, text, speaker, the rules that must flag it)
    (OBS, "Esme Calder is say hello to Camille and chat", "", {"be_bare_verb"}),
    (OBS, "Rosalind Kerr is sleep", "", {"be_bare_verb"}),
    (
        U,
        "Hi Jonah! I was just thinking about how you are sleep. How have you been?",
        "Ruth Castellano",
        {"be_bare_verb"},
    ),
    (
        U,
        "Good question. By the way, I remember that you are keep going: tend the garden.",
        "Arvid Lindqvist",
        {"be_bare_verb"},
    ),
    (R, "Ada Okafor is often say hello to Noor and chat", "", {"be_bare_verb"}),
    (R, "Noor Haddad is often get ready to say hello to Felix and chat", "", {"be_bare_verb"}),
    (R, "Junie Halvorsen keeps coming back to hear", "", {"dangling_infinitive"}),
    (R, "Grace Okafor keeps coming back to bring", "", {"dangling_infinitive"}),
    (R, "Bring keeps coming up", "", {"verb_as_subject"}),
    (R, "Chat keeps coming up", "", {"verb_as_subject"}),
    (U, "I'm not sure, an.", "Lucia Bellandi", {"truncated_sentence"}),
    (U, "tOP SECRET", "Lucia Bellandi", {"inverted_case", "lowercase_sentence_start"}),
    (U, "Well, bram Ode said that the mill will close.", "Lucia Bellandi", {"lowercase_name"}),
    (
        U,
        "Hi Lucia! I was just thinking about how tomas Ferreira is get ready to say hello to "
        "Daniel and chat. How have you been?",
        "Junie Halvorsen",
        {"lowercase_name", "be_bare_verb"},
    ),
    (
        U,
        'Hi Beatrix! I was just thinking about how you said to me: "Hi me! I was just thinking '
        "about how you are taking a shower. How have you been?\". There's something I wanted to "
        "bring up: eating breakfast.",
        "Lucia Bellandi",
        {"nested_quote", "self_greeting"},
    ),
    (
        U,
        'Hi Theo! I was just thinking about how you said to me: "Um, good day, me! I was just '
        'thinking about how helen Calloway is say hello to Martin and chat!"',
        "Grace Okafor",
        {"nested_quote", "self_greeting", "lowercase_name", "be_bare_verb"},
    ),
    (
        U,
        "Hi Ada! I was just thinking about how I am married to Daniel Okafor and is the mother "
        "of you! How have you been?",
        "Grace Okafor",
        {"first_person_agreement", "kin_of_you"},
    ),
    (
        U,
        "Hi Arvid! I was just thinking about how I am married to you and lives in Lindqvist "
        "House! How have you been?",
        "Ingrid Lindqvist",
        {"first_person_agreement"},
    ),
    (
        U,
        "Um, It was good talking to you, Grace. Take care!",
        "Theo Calloway",
        {"capital_after_comma"},
    ),
    (
        S,
        "Rosalind lives in apartment 5 of Riverside Apartments. Rosalind is a good listener and "
        "hears the town's troubles across the bar.\nRosalind lives in apartment 5 of Riverside "
        "Apartments.",
        "",
        {"repeated_sentence"},
    ),
    (
        S,
        'Grace Okafor said to Oskar Brandt: "Hi Oskar! I was just thinking about how you said to '
        'me: "Hi me! I was just thinking about how noor Haddad is say hello to Junie and chat! '
        'How have you been?"! There\'s something I wanted to bring up: taking notes!".',
        "",
        {"nested_quote", "self_greeting", "lowercase_name", "be_bare_verb"},
    ),
]


@pytest.mark.parametrize(("kind", "text", "speaker", "rules"), REAL_FAILURES)
def test_real_failures_are_flagged_by_the_right_rules(
    kind: Kind, text: str, speaker: str, rules: set[str]
) -> None:
    found = check(Text(kind, text, speaker), TOWN)
    assert rules <= set(found), found


REAL_GOOD = [
    (U, "It was good talking to you, Lucia. Take care!", "Junie Halvorsen"),
    (
        U,
        "Hi Esme! I was just thinking about how you are taking a shower. How have you been?",
        "Noor Haddad",
    ),
    (
        U,
        "Hi Tomas! I was just thinking about how you are opening the register and checking "
        "supplies. How have you been?",
        "Junie Halvorsen",
    ),
    (OBS, "Junie Halvorsen is brewing coffee", ""),
    (OBS, "Riverside Apartments: apartment 6: bathroom: shower is running water", ""),
    (OBS, "Dunmore General Store: front counter: cash register is in use", ""),
    (R, "Esme Calder and Noor Haddad keep crossing paths", ""),
    (R, "Helen Calloway is often reviewing lecture notes", ""),
    (R, "Felix keeps coming up", ""),
    (P, "open the cafe and serve the morning customers: brewing coffee", ""),
    (P, "get ready to say hello to Lucia and chat", ""),
    (P, "sleep", ""),
    (
        OUTLINE,
        "This is Beatrix Lund's plan for Monday February 13: 1) wake up and complete the "
        "morning routine at 6:30 am, 2) open Marigold Pharmacy and fill the morning "
        "prescriptions at 8:00 am, 3) have lunch at 12:00 pm.",
        "",
    ),
    (
        S,
        "Junie is planning a Valentine's Day party at The Copper Kettle on February 14 from 6pm "
        "to 8pm.\nTheo's academic advisor is Dr. Ruth Castellano.",
        "",
    ),
    (
        S,
        'Noor Haddad said to Junie Halvorsen: "It was good talking to you, Junie. Take care!".',
        "",
    ),
]


@pytest.mark.parametrize(("kind", "text", "speaker"), REAL_GOOD)
def test_real_text_that_reads_well_passes_every_rule(kind: Kind, text: str, speaker: str) -> None:
    assert check(Text(kind, text, speaker), TOWN) == {}


def test_a_speaker_greeting_themselves_is_flagged_only_for_that_speaker() -> None:
    line = "Hi Jonah! How have you been?"
    assert "greets_own_name" in check(Text(U, line, "Jonah Pike"), TOWN)
    assert "greets_own_name" not in check(Text(U, line, "Ruth Castellano"), TOWN)


def test_sentences_split_after_ends_but_not_after_titles_or_times() -> None:
    text = "Theo's advisor is Dr. Ruth Castellano. See you at 6 p.m. tonight! Bye.\nNew line"
    assert sentences(text) == [
        "Theo's advisor is Dr. Ruth Castellano.",
        "See you at 6 p.m. tonight!",
        "Bye.",
        "New line",
    ]


def test_a_summary_is_judged_without_its_label_lines() -> None:
    summary = "Name: Oskar Brandt (age: 23)\nInnate traits: charming, restless\nOskar plays piano."
    assert summary_text(summary) == "Oskar plays piano."
    assert check(Text(S, summary_text(summary)), TOWN) == {}
