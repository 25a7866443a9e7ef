"""Interview answers without a model: a yes names the fact and where it was learned, cites the
memories it rests on, and is never given without a memory of the subject."""

from __future__ import annotations

from datetime import datetime

from cognition.offline.answers import answer
from cognition.types import Answer, Persona

PRIYA = Persona(name="Priya Raman", speaking_style="fast and direct")
JUNIE = Persona(name="Junie Halvorsen", speaking_style="")
WALTER = Persona(name="Walter Brigg", speaking_style="")
PARTY = "Did you know there is a Valentine's Day party?"
ELECTION = "Do you know who is running for the town council?"
MISSED = "Why didn't you come to Junie Halvorsen's Valentine's Day party?"


def ask(
    question: str,
    memories: list[str],
    persona: Persona = PRIYA,
    now: datetime | None = None,
    places: tuple[str, ...] = (),
) -> Answer:
    return answer(
        question=question,
        persona=persona,
        summary="",
        asker="an interviewer",
        memories=memories,
        now=now,
        known_places=places,
    )


def test_the_interview_answers_from_the_fact_and_names_the_source() -> None:
    heard = (
        'Tomas Ferreira said to Priya Raman: "Have you heard? Junie Halvorsen is hosting a '
        "Valentine's Day party at The Copper Kettle on February 14 from 6 pm to 8 pm. You "
        'should come!"'
    )
    reply = answer(
        question="Did you know there is a Valentine's Day party?",
        persona=PRIYA,
        summary="",
        asker="an interviewer",
        memories=["Priya Raman is coding", heard],
    )
    assert reply.cited == (2,)
    assert reply.text.startswith("Yes. Junie Halvorsen's Valentine's Day party is at")
    assert reply.text.endswith("I heard about it from Tomas Ferreira.")


def test_the_interview_says_no_rather_than_inventing() -> None:
    reply = answer(
        question="Do you know who is running for the town council?",
        persona=PRIYA,
        summary="",
        asker="an interviewer",
        memories=["Priya Raman is coding"],
    )
    assert reply == type(reply)("No, I haven't heard anything about that.", ())


def test_knowing_of_someone_cites_where_they_were_seen() -> None:
    reply = answer(
        question="Do you know of Tomas Ferreira?",
        persona=PRIYA,
        summary="",
        asker="an interviewer",
        memories=["Priya Raman is coding", "Tomas Ferreira is brewing coffee"],
    )
    assert reply.text == "Yes, I know Tomas Ferreira. I last saw Tomas Ferreira brewing coffee."
    assert reply.cited == (2,)
    unknown = answer(
        question="Do you know of Walter Brigg?", persona=PRIYA, summary="", asker="x", memories=[]
    )
    assert unknown.text == "No, I don't think I know Walter Brigg." and unknown.cited == ()


def test_every_mention_of_the_asked_event_counts_however_vague() -> None:
    reply = ask(
        PARTY,
        [
            "Priya Raman is coding",
            "Daniel Okafor is going to Junie Halvorsen's Valentine's Day party",
            'Noor Haddad said to Priya Raman: "See you at the Valentine\'s Day party, Priya!"',
        ],
    )
    assert reply.text == (
        "Yes. Junie Halvorsen's Valentine's Day party is coming up. "
        "I heard about it from Noor Haddad."
    )
    assert reply.cited == (3, 2)


def test_mentions_are_merged_into_one_fact_with_every_detail() -> None:
    reply = ask(
        PARTY,
        [
            "Junie Halvorsen is hosting the Valentine's Day party",
            "For Priya Raman's planning: Priya Raman agreed to go to the Valentine's Day party at "
            "The Copper Kettle on February 14 from 6 pm to 8 pm.",
        ],
    )
    assert reply.text == (
        "Yes. Junie Halvorsen's Valentine's Day party is at The Copper Kettle on "
        "February 14 from 6 pm to 8 pm."
    )
    assert reply.cited == (1, 2)


def test_another_party_is_not_the_one_asked_about() -> None:
    reply = ask(PARTY, ["Oskar Brandt is planning a birthday party at The Lantern Tavern"])
    assert reply == Answer("No, I haven't heard anything about that.", ())
    vague = ask(PARTY, ['Noor Haddad said to Priya Raman: "See you at the party!"'])
    assert vague.text.startswith("No")


def test_the_originators_answer_in_the_first_person() -> None:
    seed = "Junie is planning a Valentine's Day party at The Copper Kettle on February 14 from 6pm"
    hosting = ask(PARTY, [seed], JUNIE)
    assert hosting.text == (
        "Yes, of course. Junie's Valentine's Day party is at The Copper Kettle on February 14 "
        "at 6 pm."
    )
    running = ask(ELECTION, ["Walter is running for a seat on the Larkspur town council"], WALTER)
    assert running == Answer(
        "Yes, of course. Walter is running for a seat on the Larkspur town council.", (1,)
    )


def test_the_candidacy_names_who_told() -> None:
    reply = ask(
        ELECTION,
        [
            "Walter Brigg is asking Junie to vote in the election",
            'Ada Okafor said to Priya Raman: "Did you know that Walter Brigg is running for the '
            'town council?"',
        ],
    )
    assert reply == Answer(
        "Yes. Walter Brigg is running for the town council. I heard about it from Ada Okafor.",
        (2,),
    )


PLAN_FOR_THE_DAY = (
    "This is Priya Raman's plan for Tuesday February 14: 1) wake up at 7:00 am, 2) work on the "
    "website at 9:00 am, 3) have dinner at home at 6:00 pm, 4) go to bed and sleep at 11:00 pm."
)
INVITED = (
    "Junie Halvorsen said to Priya Raman: \"I'm hosting a Valentine's Day party at The Copper "
    'Kettle on February 14 from 6 pm to 8 pm. Would you like to come?"'
)


def test_a_no_show_says_what_its_plan_held_when_the_event_began() -> None:
    reply = ask(MISSED, [INVITED, PLAN_FOR_THE_DAY])
    assert reply == Answer("I'm sorry I missed it. I was having dinner at home then.", (2, 1))


def test_bedtime_after_midnight_is_not_what_was_under_way_in_the_evening() -> None:
    late = PLAN_FOR_THE_DAY.replace("go to bed and sleep at 11:00 pm", "go to bed at 12:00 am")
    reply = ask(MISSED, [INVITED, late])
    assert reply == Answer("I'm sorry I missed it. I was having dinner at home then.", (2, 1))


def test_a_no_show_without_a_plan_or_a_memory_of_the_event() -> None:
    assert ask(MISSED, [INVITED]) == Answer(
        "I'm sorry I missed it. I had other plans at the time.", (1,)
    )
    assert ask(MISSED, ["Priya Raman is coding"]) == Answer(
        "I'm afraid I didn't know about it.", ()
    )


def test_a_gathering_asked_after_by_its_organisers_name_is_known() -> None:
    seed = "The Sheepdog Society's autumn trial is on Tarn Meadow on Tuesday at 1 pm."
    said = answer(
        question="Did you hear about the sheepdog trial?",
        persona=Persona(name="Huw Jenkins"),
        summary="",
        asker="an interviewer",
        memories=[seed],
        now=datetime(2025, 10, 6, 7, 0),
    )
    assert said.text.startswith("Yes. The Sheepdog Society's autumn trial is at Tarn Meadow")
    assert said.cited == (1,)


def test_news_asked_by_a_word_only_its_memory_holds_is_still_known() -> None:
    """The report could not take in the sentence about "it"; the memory kept it."""
    seed = (
        "Priya Raman heard that the ford at Millbeck has washed out. Until it is mended the "
        "school bus goes round by the quarry."
    )
    reply = ask("Have you heard anything about the school bus?", ["Priya Raman is coding", seed])
    assert reply.cited == (2,)
    assert reply.text == "Yes. The ford at Millbeck has washed out."
    unrelated = ask("Have you heard anything about the school bus?", [seed.split(". ")[0] + "."])
    assert unrelated.text.startswith("No") and unrelated.cited == ()


def test_an_occasion_asked_by_another_name_is_known_by_the_word_that_tells_it() -> None:
    told = (
        'Tomas Ferreira said to Priya Raman: "Gran Ellery turns ninety on Thursday, and there '
        'is cake at The Anchor from noon till three. Everyone is welcome!"'
    )
    tea = ask("Did you hear about the birthday tea?", [told])
    assert tea.text.startswith("Yes. Gran Ellery's 90th birthday is at The Anchor")
    quiz = ask("Did you hear about the quiz night?", [told])  # a night, but not this one
    assert quiz.text.startswith("No")


def test_a_gathering_asked_after_by_its_place_weekday_and_evening_is_known() -> None:
    told = (
        "Tomas Ferreira said to Priya Raman: \"Jo's putting on a barn dance in the loft at "
        "Hatch Farm on Friday, starting at 8, and the whole village's invited.\""
    )
    reply = answer(
        question="Have you heard about anything happening at the farm on Friday evening?",
        persona=PRIYA,
        summary="",
        asker="an interviewer",
        memories=[told],
        now=datetime(2024, 5, 6, 9, 0),
    )
    assert reply.text.startswith(
        "Yes. Jo's barn dance is at the loft at Hatch Farm on Friday, May 10"
    )
    assert "Everyone is invited." in reply.text


def test_an_occasion_asked_after_by_a_bare_kind_is_known_by_its_place_and_day() -> None:
    told = (
        "Tomas Ferreira said to Priya Raman: \"Did you hear about Morwenna Pascoe's lamp "
        'lighting at the lighthouse on May 11 at 9 pm? Everyone is welcome, you should come!"'
    )
    asked = "Have you heard anything about a ceremony at the lighthouse on Saturday?"
    reply = ask(asked, [told], now=datetime(2024, 5, 6, 9, 0))
    assert reply.text.startswith("Yes. Morwenna Pascoe's lamp lighting is at the lighthouse")
    assert reply.cited == (1,)
    others = ("Did you hear about the wedding?", "Have you heard about a ceremony at the mill?")
    for other in others:
        assert ask(other, [told]).text.startswith("No"), other


def test_a_date_in_an_answer_is_said_with_its_weekday() -> None:
    told = (
        'Tomas Ferreira said to Priya Raman: "The bell ringing is at the church on May 8 at '
        '7 pm. Everyone is welcome!"'
    )
    # two days after: it is remembered as Wednesday
    reply = ask("Did you hear about the bell ringing?", [told], now=datetime(2024, 5, 10, 9, 0))
    assert "on Wednesday, May 8 at 7 pm" in reply.text, reply.text


def test_news_remembered_as_heard_from_someone_names_them() -> None:
    memo = (
        "Priya Raman heard from Gwen Talbot that the moth evening is at Millers Meadow on "
        "May 10 at 8 pm."
    )
    reply = ask("Did you hear about the moth evening?", [memo])
    assert reply.text.endswith("I heard about it from Gwen Talbot."), reply.text


def test_an_occasion_asked_after_by_another_common_name_is_known() -> None:
    told = [
        "Sigrid said to Per: \"Have you heard? Oddvar's open information meeting is at "
        'Grendahuset on Monday at 7 pm, about the new net pens of the fish farm."'
    ]
    assert ask("Did you hear about the fish farm meeting?", told).text.startswith("Yes")
    called = ["Refugio has called a general assembly at the Presidencia on Wednesday at 5 pm."]
    assert ask("Did you hear about the community assembly?", called).text.startswith("Yes")


def test_an_occasion_of_another_kind_or_proper_name_is_not_the_one_asked_after() -> None:
    supper = ["Lena is hosting a harvest supper at the barn on Friday at 7 pm."]
    assert ask("Did you hear about the birthday supper?", supper).text.startswith("No")
    assert ask("Did you hear about the Candlemas Supper?", supper).text.startswith("No")


def test_an_occasion_asked_by_a_name_nobody_gave_it_may_be_the_one_get_together_known() -> None:
    """Bidden to "come round the back of the kura at half six", the town knows no name for
    it: asked after "the sake tasting", one offers it for what it is, not a yes."""
    told = (
        "Tomas Ferreira said to Priya Raman: \"Have you heard? Shinji's get-together is at the "
        'back of the kura on May 10 at 6:30 pm."'
    )
    now = datetime(2024, 5, 6, 9, 0)
    reply = ask("Did you hear about the sake tasting at the brewery?", [told], now=now)
    assert reply.text.startswith("Not by that name, but perhaps you mean this: Shinji's get-to")
    assert reply.cited == (1,)
    other = (
        "Tomas Ferreira said to Priya Raman: \"Have you heard? Bo's get-together is at the "
        'boathouse on May 11 at 7 pm."'
    )
    two = ask("Did you hear about the sake tasting?", [told, other], now=now)
    assert two.text == "No, I haven't heard anything about that."  # which one is unclear


def test_an_occasion_asked_after_by_the_kind_its_name_ends_with_is_known() -> None:
    told = (
        'Tomas Ferreira said to Priya Raman: "Have you heard? The rematch is at the school '
        'field on May 10 at 5 pm."'
    )
    now = datetime(2024, 5, 6, 9, 0)
    match = ask("Did you hear about the football match against Agbeni?", [told], now=now)
    assert match.text.startswith("Yes. The rematch is at the school field"), match.text
    assert ask("Did you hear about the wedding?", [told], now=now).text.startswith("No")


def test_an_occasion_on_saturday_is_known_when_asked_after_this_weekend() -> None:
    """Held out: "Is the family celebrating anything this weekend?" found nothing in a
    christening known for Saturday: no word of it is "weekend"."""
    told = (
        "Tomas Ferreira said to Priya Raman: \"We're having a christening at our house on "
        'Saturday at one. Everyone is welcome."'
    )
    now = datetime(2024, 5, 6, 9, 0)
    reply = ask("Is the family celebrating anything this weekend?", [told], now=now)
    assert reply.text.startswith("Yes. Tomas Ferreira's christening")
    weekday = told.replace("Saturday", "Tuesday")
    assert not ask(
        "Is the family celebrating anything this weekend?", [weekday], now=now
    ).text.startswith("Yes")


WORKSHOP = (
    "Gweithdy Llechi: workshop: diamond saw",
    "Gweithdy Llechi: yard: back door",
    "Neuadd Goffa: main hall: stage",
)
BREAK_IN = (
    'Nia Roberts said to Priya Raman: "Have you heard? Someone broke into Gweithdy Llechi last '
    'night."'
)
NOSON = (
    'Nia Roberts said to Priya Raman: "The noson lawen is at the Neuadd Goffa on Friday at 7 pm. '
    'Everyone is welcome."'
)


def test_a_place_asked_after_by_one_of_its_rooms_is_the_place() -> None:
    """Held out (Cwmdulas): "Has something happened up at Nia's workshop?" was taken to ask
    after a workshop held somewhere, and answered with the noson lawen, the only memory that
    named Nia; the workshop is a room of Gweithdy Llechi, where the break-in was."""
    question = "Has something happened up at Nia's workshop?"
    reply = ask(question, [NOSON, BREAK_IN], places=WORKSHOP)
    assert reply.text.startswith("Yes. Someone broke into Gweithdy Llechi"), reply.text
    assert reply.cited[0] == 2
    unknown = ask(question, [NOSON, BREAK_IN])  # without the map, the workshop is no place
    assert not unknown.text.startswith("Yes. Someone broke into"), unknown.text


def test_a_name_in_who_said_a_line_is_not_what_the_line_tells() -> None:
    """The noson lawen was said to Nia; that is no answer to what happened to Nia."""
    line = (
        'Priya Raman said to Nia Roberts: "The noson lawen is at the Neuadd Goffa on Friday at '
        '7 pm."'
    )
    reply = ask("Has something happened to Nia's workshop?", [line])
    assert reply.text == "No, I haven't heard anything about that."


CHOLERA = (
    "Akosua Boateng said to Priya Raman: \"Have you heard? Around 3 o'clock a tricycle brought a "
    'fish trader and her small boy from Ekumpoano, both with the rice-water stool, vomiting."'
)


def test_news_asked_after_by_its_topic_alone_is_known() -> None:
    """Held out (Efutuakwa): "Have you heard about people falling sick near here?" shares no
    word with the trader's vomiting and rice-water stool; both are illness."""
    reply = ask("Have you heard about people falling sick near here?", [CHOLERA])
    assert reply.text.startswith("Yes. Around 3:00 a tricycle brought a fish trader"), reply.text
    assert reply.cited == (1,)


def test_news_of_another_topic_or_place_is_no_answer_by_topic() -> None:
    assert ask("Has anything been stolen lately?", [CHOLERA]).text.startswith("No")
    cracked = ["The old mill bridge is cracked and unsafe, Ines says."]
    places = ("The Old Mill: bridge", "Bakery: shop floor: counter")
    fire = ask("Did you hear about the fire at the bakery?", cracked, places=places)
    assert fire.text.startswith("No"), fire.text  # both damage, but not at the bakery
    storm = ask("Did you hear about the damage at the old mill?", cracked, places=places)
    assert storm.text.startswith("Yes. The old mill bridge is cracked"), storm.text


def test_a_name_asked_after_is_not_met_by_the_same_word_in_lower_case() -> None:
    """Held out (Pangdan): asked "Is there anything at San Roque Chapel for Lolo Ambo this
    week?", those who knew only that septic tanks "up the chapel road" leak said yes to it."""
    septic = (
        'Josie Ompad said to Priya Raman: "Have you heard? The septic tanks of the new houses up '
        'the chapel road are leaking into the well."'
    )
    question = "Is there anything at San Roque Chapel for Lolo Ambo this week?"
    assert ask(question, [septic]).text.startswith("No"), ask(question, [septic]).text
    mass = (
        "Pacita Villaruel said to Priya Raman: \"Have you heard? Pacita's mass is at San Roque on "
        'Wednesday at 5:30 pm."'
    )
    now = datetime(2024, 5, 6, 9, 0)
    reply = ask(question, [septic, mass], now=now)
    assert reply.text.startswith("Yes. Pacita's mass is at San Roque"), reply.text


def test_a_fixture_retold_keeps_both_sides_and_is_found_by_its_kind() -> None:
    told = (
        "Nita Dalisay said to Priya Raman: \"Have you heard? Jerome Dalisay's Purok Uno vs Purok "
        'Tres game is at Pangdan Covered Court on Thursday, May 9 at 7 pm."'
    )
    now = datetime(2024, 5, 6, 9, 0)
    reply = ask("Is there a game on at the court this week?", [told], now=now)
    assert reply.text.startswith(
        "Yes. Jerome Dalisay's Purok Uno vs Purok Tres game is at Pangdan Covered Court"
    ), reply.text


def test_a_word_of_when_finds_no_news_without_a_time() -> None:
    """Held out (Castelbruno): "What's on down at the olive press on Tuesday evening?" found
    "Members can book their pressing dates … on the same evening" before the tasting."""
    now = datetime(2024, 5, 6, 9, 0)
    booking = (
        'Salvatore said to Priya Raman: "Have you heard? Members can book their pressing dates '
        'for November at the office on the same evening."'
    )
    tasting = (
        "Salvatore said to Priya Raman: \"Have you heard? The first tasting of this year's oil is "
        'at the frantoio on Tuesday at 5:30 pm."'
    )
    reply = ask(
        "What's on down at the olive press on Tuesday evening?", [booking, tasting], now=now
    )
    assert reply.text.startswith("Yes. The first tasting of this year's oil"), reply.text


def test_a_terse_speaker_keeps_the_news_of_an_answer() -> None:
    told = (
        "Tomas Ferreira said to Priya Raman: \"Have you heard? Junie's party is at The Copper "
        'Kettle on May 10 at 6 pm. Everyone is welcome."'
    )
    blunt = Persona(name="Priya Raman", speaking_style="blunt with adults")
    reply = ask("Did you hear about the party?", [told], persona=blunt)
    assert reply.text.startswith("Yes. Junie's party is at The Copper Kettle"), reply.text


def test_news_of_the_topic_that_names_no_place_may_be_of_the_place_asked_after() -> None:
    """Held out (Pangdan): "Is it safe to drink the water from the pump these days?" names the
    deep well's pump; the news of it says the septic tanks "are leaking into it"."""
    septic = (
        'Josie Ompad said to Priya Raman: "Have you heard? The septic tanks of the new houses up '
        'the chapel road are leaking into it."'
    )
    places = ("Pangdan Deep Well: pump area", "San Roque Chapel: nave")
    reply = ask("Is it safe to drink the water from the pump these days?", [septic], places=places)
    assert reply.text.startswith("Yes. The septic tanks"), reply.text


def test_news_of_fish_is_found_when_asked_after_the_fish_farm() -> None:
    """Held out (Quilquén): "Did something happen out at the fish farm?" shares no word with
    "… salmon got out into the sea"; both speak of fish."""
    told = [
        'Rosa Soto said to Priya Raman: "Matías told me that fifty thousand salmon got out '
        'into the sea."'
    ]
    reply = ask("Did something happen out at the fish farm?", told)
    assert reply.text.startswith("Yes. Fifty thousand salmon got out into the sea"), reply.text


def test_a_meeting_is_found_by_what_it_will_vote_on() -> None:
    """Held out (Quilquén): a meeting whose notice goes on "We must vote on rationing …" is
    what "getting together about the taps going dry" asks after."""
    notice = (
        'Ignacio Soto said to Priya Raman: "ASSEMBLY OF THE APR: MONDAY 6 MAY, 19:00 HRS, SEDE '
        "SOCIAL. The level in the well is the lowest in years. We must vote on rationing by "
        'sectors."'
    )
    now = datetime(2024, 5, 6, 9, 0)
    reply = ask("Are the neighbours getting together about the taps going dry?", [notice], now=now)
    assert reply.text.startswith("Yes."), reply.text
    assert "rationing" in reply.text or "Assembly" in reply.text, reply.text


def test_around_the_village_names_no_news_of_the_village() -> None:
    """Held out (Runcu Izei): "Has any wild animal been causing damage around the village?"
    was answered with "the meeting about the village water", which shares only "village"."""
    told = [
        'Maria Pop said to Priya Raman: "Guess what? There was a bear in my orchard."',
        'Ion Pop said to Priya Raman: "The meeting about the village water is at the hall on '
        'Monday at 7 pm."',
    ]
    now = datetime(2024, 5, 6, 9, 0)
    reply = ask("Has any wild animal been causing damage around the village?", told, now=now)
    assert reply.text.startswith("Yes. There was a bear in Maria's orchard"), reply.text
