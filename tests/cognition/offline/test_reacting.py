"""Reactions: alarms first, sleepers stay asleep, known people are greeted once."""

from __future__ import annotations

from dataclasses import replace

from cognition.offline.reacting import STRANGER_ONE_IN, react
from cognition.offline.text import people, stable_index
from cognition.types import Persona, Reaction
from tests.hash_seeds import printed_under_seeds

from .personas import ROSA

HOSTING = ROSA
PLAIN = replace(ROSA, currently="Rosa Delgado is baking bread", background="Rosa runs a cafe.")

CONTEXT = "Tomas Okafor is a regular at Juniper Cafe. Tomas likes the almond croissants."


def _react(
    observation: str,
    *,
    context: str = CONTEXT,
    status: str = "serving customers",
    persona: Persona = PLAIN,
) -> Reaction:
    return react(
        persona=persona, summary="", status=status, observation=observation, context=context
    )


def test_greets_a_known_agent_not_seen_recently() -> None:
    reaction = _react("Tomas Okafor is entering Juniper Cafe")
    assert reaction.react
    assert reaction.talk_to == "Tomas Okafor"
    assert "Tomas" in reaction.what
    assert "Tomas Okafor" in reaction.reason


def test_a_recent_conversation_suppresses_the_greeting() -> None:
    context = CONTEXT + " Rosa chatted with Tomas about his exam this morning."
    assert not _react("Tomas Okafor is entering Juniper Cafe", context=context).react


def test_someone_chatting_with_others_is_still_greeted() -> None:
    """ "Tomas is chatting over the meal" is Tomas talking with someone else: a host at a full
    café table once invited nobody because every diner was "chatting"."""
    context = CONTEXT + " Tomas Okafor is chatting over the meal. Ines talked with Tomas."
    reaction = _react("Tomas Okafor is chatting over the meal", context=context)
    assert reaction.react
    assert reaction.talk_to == "Tomas Okafor"


def test_a_conversation_already_under_way_suppresses_the_greeting() -> None:
    assert not _react("Tomas Okafor is at the counter", status="talking with Tomas").react


def test_strangers_are_met_now_and_then() -> None:
    for stranger in ("Mara Quist", "Ola Berg", "Kit Lane", "Sam Hale", "Ana Ruiz", "Bo Kemp"):
        reaction = _react(f"{stranger} is entering Juniper Cafe")
        meets = stable_index(f"{PLAIN.name}|{stranger}", STRANGER_ONE_IN) == 0
        assert reaction.react == meets
        if meets:
            assert reaction.what == f"meet {stranger.split()[0]} and chat"


def test_a_host_invites_everyone_it_sees() -> None:
    reaction = _react("Mara Quist is entering Juniper Cafe", persona=HOSTING)
    assert reaction.talk_to == "Mara Quist"
    assert reaction.what == "invite Mara to the Valentine's Day party"


def test_a_guest_is_invited_once_then_greeted() -> None:
    invited = (
        "Rosa Delgado said to Tomas Okafor: \"I'm hosting a Valentine's Day party at Juniper "
        'Cafe. Would you like to come?"'
    )
    reaction = _react(
        "Tomas Okafor is entering Juniper Cafe", persona=HOSTING, context=f"{CONTEXT}\n{invited}"
    )
    assert reaction.what == "say hello to Tomas and chat"


def test_a_candidate_asks_for_votes() -> None:
    walter = Persona(name="Walter Brigg", currently="Walter is running for the town council")
    reaction = _react("Tomas Okafor is entering Juniper Cafe", persona=walter)
    assert reaction.what == "ask Tomas to vote in the election"


def test_known_from_the_summary_counts() -> None:
    reaction = react(
        persona=PLAIN,
        summary="Rosa Delgado is friends with Helen Park.",
        status="baking",
        observation="Helen Park is walking past the cafe",
        context="",
    )
    assert reaction.talk_to == "Helen Park"


def test_seeing_oneself_is_not_a_reason_to_talk() -> None:
    assert not _react("Rosa Delgado is at the counter", context="Rosa Delgado runs the cafe.").react


def test_burning_stove_is_dealt_with_without_talking() -> None:
    reaction = _react("Fernbrook: Juniper Cafe: kitchen: stove is burning")
    assert reaction.react
    assert reaction.talk_to is None
    assert reaction.what == "put out the fire on the stove"
    assert "burning" in reaction.reason


def test_alarm_wakes_a_sleeper_but_a_friend_does_not() -> None:
    assert _react("the oven is on fire", status="sleeping").react
    assert not _react("Tomas Okafor is knocking", status="sleeping").react


def test_other_alarms_have_their_own_remedy() -> None:
    assert _react("the sink is flooding").what == "stop the water at the sink"
    assert _react("the coffee machine is broken").what == "fix the coffee machine"


def test_an_idle_bed_changes_nothing() -> None:
    reaction = _react("the bed is idle")
    assert reaction == Reaction(False, reason=reaction.reason)
    assert reaction.reason


def test_react_is_the_same_in_every_process() -> None:
    code = (
        "from tests.cognition.offline.test_reacting import _react; "
        "print(repr(_react('Tomas Okafor is entering Juniper Cafe')))"
    )
    expected = repr(_react("Tomas Okafor is entering Juniper Cafe"))
    assert set(printed_under_seeds(code)) == {expected}


def test_place_names_in_a_path_are_not_people() -> None:
    summary = "Rosa lives in Riverside Apartments and loves Juniper Cafe"
    for seen in (
        "Riverside Apartments: apartment 1: kitchen: stove is idle",
        "Juniper Cafe: counter: espresso machine is brewing coffee",
    ):
        decision = react(
            persona=ROSA, summary=summary, status="working", observation=seen, context=summary
        )
        assert not decision.react, decision


def test_a_place_named_after_the_is_not_greeted() -> None:
    """Rosa talked with Hiro already; "The Copper Kettle" in the sight is a place, not a
    second person to greet (a town's agents went to "say hello to Copper and chat")."""
    context = "Rosa chatted with Hiro Tanaka at The Copper Kettle this morning"
    decision = react(
        persona=ROSA,
        summary=f"{context}. Rosa loves The Copper Kettle.",
        status="working",
        observation="Hiro Tanaka is drawing at The Copper Kettle",
        context=context,
    )
    assert not decision.react, decision
    assert people("Hiro Tanaka is drawing at The Copper Kettle") == ["Hiro Tanaka"]
    assert people("Walter Brigg is asking Junie to vote") == ["Walter Brigg", "Junie"]


def test_a_person_ringing_up_purchases_is_no_alarm() -> None:
    """Harold 'saw why the polly marsh is ringing' in a held-out town."""
    from cognition.offline.reacting import react
    from cognition.types import Persona

    seen = react(
        persona=Persona(name="Harold Pike"),
        summary="",
        status="patrolling the square",
        observation="Polly Marsh is ringing up purchases",
        context="",
    )
    assert "ringing" not in seen.what


def test_the_world_says_who_is_observed_and_a_place_in_the_words_is_no_one() -> None:
    context = CONTEXT + " Kestrel Quay is busy at dawn."
    seen = "Tomas Okafor is mending nets by Kestrel Quay"
    # searched by words, the quay would be a capitalised name among people
    assert "Kestrel Quay" in people(seen)
    reaction = react(
        persona=PLAIN,
        summary="",
        status="serving customers",
        observation=seen,
        context=context,
        observed_person="Tomas Okafor",
    )
    assert reaction.talk_to == "Tomas Okafor"
    of_a_thing = react(
        persona=PLAIN,
        summary="",
        status="serving customers",
        observation="Kestrel Quay is busy at dawn",
        context=context,
        observed_person="",
    )
    assert not of_a_thing.react and of_a_thing.talk_to is None


def test_a_hosts_occasion_said_with_no_day_is_over_once_its_dated_mention_has_begun() -> None:
    """Astrid, "organising the annual meeting at the Community House", is to invite people
    to the one her notice puts on April 16 at 7, and not once it has begun."""
    from datetime import datetime

    astrid = Persona(
        name="Astrid Lie",
        currently="Astrid is organising the annual meeting at the Community House",
        background="Astrid runs the shop.",
    )
    notice = (
        "The residents' association annual meeting is at the Community House on April 16 at 7 pm."
    )
    seen = "Kari Aasen is entering Solvik Shop"

    def what(now: datetime) -> str:
        reaction = react(
            persona=astrid,
            summary="",
            status="serving",
            observation=seen,
            context=f"Kari Aasen is a regular at Solvik Shop.\n{notice}",
            now=now,
        )
        return reaction.what

    assert what(datetime(2026, 4, 16, 10, 0)).startswith("invite Kari to the ")
    assert not what(datetime(2026, 4, 17, 10, 0)).startswith("invite")
