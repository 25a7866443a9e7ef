"""What a conversation leaves behind: a planning note for an agreed event, a memo of news,
and a `currently` that says what the agent will do."""

from __future__ import annotations

from datetime import datetime

from cognition.offline.notes import conversation_notes, revise_currently
from cognition.types import Persona, PlanItem

NOW = datetime(2023, 2, 13, 9, 30)
INVITATION = [
    (
        "Junie Halvorsen",
        "Good morning, Tomas! I'm hosting a Valentine's Day party at The Copper Kettle on "
        "February 14 from 6 pm to 8 pm. Would you like to come?",
    ),
    ("Tomas Ferreira", "I'd love to come! I'll see you at The Copper Kettle at 6 pm."),
    ("Junie Halvorsen", "See you at the Valentine's Day party, love!"),
]
GUEST_NOTE = (
    "For Tomas Ferreira's planning: Tomas Ferreira agreed to go to Junie Halvorsen's Valentine's "
    "Day party at The Copper Kettle on February 14 from 6 pm to 8 pm."
)


def test_the_guest_notes_the_event_and_the_news() -> None:
    notes = conversation_notes(
        name="Tomas Ferreira", other="Junie Halvorsen", lines=INVITATION, now=NOW
    )
    assert notes.planning == GUEST_NOTE
    assert notes.memo == (
        "Tomas Ferreira heard from Junie Halvorsen that Junie Halvorsen's Valentine's Day party "
        "is at The Copper Kettle on February 14 from 6 pm to 8 pm."
    )


def test_news_without_a_host_reads_as_a_clause() -> None:
    gossip = [
        (
            "Felix Moreau",
            "Have you heard? There is a Valentine's Day party at The Copper "
            "Kettle on February 14. You should come!",
        )
    ]
    notes = conversation_notes(name="Noor Haddad", other="Felix Moreau", lines=gossip, now=NOW)
    assert notes.memo == (
        "Noor Haddad heard from Felix Moreau that the Valentine's Day party is at The Copper "
        "Kettle on February 14."
    )


def test_the_host_notes_who_is_coming_and_no_news() -> None:
    notes = conversation_notes(
        name="Junie Halvorsen", other="Tomas Ferreira", lines=INVITATION, now=NOW
    )
    assert notes.planning == (
        "For Junie Halvorsen's planning: Tomas Ferreira said they would come to Junie Halvorsen's "
        "Valentine's Day party at The Copper Kettle on February 14 from 6 pm to 8 pm."
    )
    assert notes.memo == ""


def test_a_declined_invitation_is_noted_as_not_going() -> None:
    declined = [INVITATION[0], ("Tomas Ferreira", "I'm sorry, I don't think I can make it.")]
    notes = conversation_notes(
        name="Tomas Ferreira", other="Junie Halvorsen", lines=declined, now=NOW
    )
    assert notes.planning == (
        "For Tomas Ferreira's planning: Tomas Ferreira will not go to Junie Halvorsen's "
        "Valentine's Day party at The Copper Kettle on February 14 from 6 pm to 8 pm."
    )
    assert notes.appointment is None
    host = conversation_notes(
        name="Junie Halvorsen", other="Tomas Ferreira", lines=declined, now=NOW
    )
    assert host.planning == ""  # the host is not the one who said no


def test_small_talk_leaves_nothing() -> None:
    chat = [("Tomas Ferreira", "Hi Priya! How have you been?"), ("Priya Raman", "I'm well.")]
    notes = conversation_notes(name="Priya Raman", other="Tomas Ferreira", lines=chat, now=NOW)
    assert (notes.planning, notes.memo) == ("", "")


def test_currently_gains_the_days_plan_and_keeps_its_base() -> None:
    tomas = Persona(name="Tomas Ferreira", currently="Tomas is practising a new song")
    tuesday = datetime(2023, 2, 14, 6, 0)
    revised = revise_currently(persona=tomas, plan_notes=[GUEST_NOTE], events=[], now=tuesday)
    assert revised == (
        "Tomas is practising a new song. On Tuesday, February 14, Tomas plans to go to Junie "
        "Halvorsen's Valentine's Day party at The Copper Kettle at 6 pm."
    )
    again = revise_currently(
        persona=Persona(name="Tomas Ferreira", currently=revised),
        plan_notes=[],
        events=[],
        now=datetime(2023, 2, 15, 6, 0),
    )
    assert again == "Tomas is practising a new song."


def test_the_host_plans_to_host_the_party_not_their_own_by_name() -> None:
    junie = Persona(name="Junie Halvorsen", currently="Junie is baking for the party")
    note = (
        "For Junie Halvorsen's planning: Junie Halvorsen is hosting a Valentine's Day party at "
        "The Copper Kettle on February 14 at 6 pm."
    )
    monday = datetime(2023, 2, 13, 6, 0)
    revised = revise_currently(persona=junie, plan_notes=[note], events=[], now=monday)
    assert revised == (
        "Junie is baking for the party. On Tuesday, February 14, Junie plans to hold the "
        "Valentine's Day party at The Copper Kettle at 6 pm."
    )


def test_a_gathering_agreed_for_later_today_is_an_appointment_for_the_guest_only() -> None:
    """Today's outline was made this morning: what was agreed since must reach it now."""
    morning = datetime(2024, 5, 7, 9, 0)  # a Tuesday
    lines = [
        (
            "Nessa Curnow",
            "I'm organising a harvest market at Saltmarsh Green on Tuesday from 2 pm to 5 pm. "
            "Would you like to come?",
        ),
        ("Tom Trevelyan", "Count me in! See you at Saltmarsh Green at 2 pm."),
    ]
    guest = conversation_notes(name="Tom Trevelyan", other="Nessa Curnow", lines=lines, now=morning)
    assert guest.appointment is not None
    assert guest.appointment.description == "go to Nessa Curnow's harvest market"
    assert (guest.appointment.start, guest.appointment.duration_min) == (
        morning.replace(hour=14),
        180,
    )
    assert guest.appointment.location == "Saltmarsh Green"
    host = conversation_notes(name="Nessa Curnow", other="Tom Trevelyan", lines=lines, now=morning)
    assert host.appointment is None  # the organiser's outline holds it already
    evening = morning.replace(hour=18)
    late = conversation_notes(name="Tom Trevelyan", other="Nessa Curnow", lines=lines, now=evening)
    assert late.appointment is None  # over by then


def test_currently_holds_what_was_agreed_not_all_that_was_heard() -> None:
    tomas = Persona(name="Tomas Ferreira", currently="Tomas is practising a new song")
    tuesday = datetime(2023, 2, 14, 6, 0)
    heard = INVITATION[0][1].replace("I'm hosting", "Junie Halvorsen is hosting")
    declined = GUEST_NOTE.replace("agreed to go to", "will not go to")
    for notes in ([heard], [heard, declined]):
        revised = revise_currently(persona=tomas, plan_notes=notes, events=[], now=tuesday)
        assert revised == "Tomas is practising a new song.", notes


def test_hearing_of_an_open_gathering_later_today_puts_it_in_todays_plan() -> None:
    """Whoever hears at noon of tonight's gathering goes, as who heard yesterday would; not
    one who turned it down, nor one told of a daytime gathering not open to all."""
    noon = datetime(2024, 5, 7, 12, 0)  # a Tuesday
    news = "Word is that the Lifeboat Crew's quiz night is at the Anchor Inn on Tuesday from 7 pm."
    welcome = " Everyone is welcome, you should come!"

    def appointment(told: str, reply: str) -> PlanItem | None:
        lines = [("Ruth Pascoe", told), ("Tom Trevelyan", reply)]
        notes = conversation_notes(name="Tom Trevelyan", other="Ruth Pascoe", lines=lines, now=noon)
        return notes.appointment

    going = appointment(news + welcome, "Really? That sounds lovely!")
    assert going is not None
    assert (going.start, going.location) == (noon.replace(hour=19), "the Anchor Inn")
    assert appointment(news + welcome, "Sorry, I can't make it tonight.") is None
    assert appointment(news, "Really? That sounds lovely!") is not None  # free in the evening
    by_day = news.replace("7 pm", "2 pm")
    assert appointment(by_day, "Really? That sounds lovely!") is None  # at work then
    assert appointment(by_day + welcome, "Really? That sounds lovely!") is not None
