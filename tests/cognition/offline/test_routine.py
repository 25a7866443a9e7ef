"""A persona's rhythm read from `daily_plan_requirement`: clauses, spans, places, weekdays."""

from __future__ import annotations

from cognition.offline.routine import EVENING, MORNING, rhythm


def spans(requirement: str) -> list[tuple[str, object, object, int | None]]:
    return [(d.activity, d.start, d.end, d.weekday) for d in rhythm(requirement).duties]


def test_an_opening_and_a_shift_are_one_stretch() -> None:
    assert spans(
        "Junie opens The Copper Kettle at 7am and works at the counter until late afternoon; "
        "she invites customers to her party whenever she can"
    ) == [
        ("open The Copper Kettle and work at the counter", 7 * 60, 17 * 60, None),
        ("invite customers to her party", None, None, None),
    ]


def test_stated_hours_and_times_of_day() -> None:
    assert spans(
        "Tomas works at The Copper Kettle from 6:30am to 2pm and practises guitar at home in "
        "the evening"
    ) == [
        ("work at The Copper Kettle", 6 * 60 + 30, 14 * 60, None),
        ("practise guitar at home", EVENING, EVENING, None),
    ]
    assert spans("Noor attends lectures in the morning and works at the library from 1pm to 5pm")[
        0
    ] == ("attend lectures", MORNING, 12 * 60, None)


def test_works_from_a_time_is_a_start_and_until_is_an_end() -> None:
    assert spans("Sam works from 1pm") == [("work", 13 * 60, None, None)]
    assert spans("Sam works until 9pm") == [("work", None, 21 * 60, None)]


def test_a_shift_to_midnight_ends_after_the_day() -> None:
    assert spans("Rosalind works at The Lantern Tavern from 4pm to midnight") == [
        ("work at The Lantern Tavern", 16 * 60, 24 * 60, None)
    ]


def test_a_weekday_restricts_a_duty() -> None:
    [_, class_] = rhythm(
        "Grace works at her pottery wheel most of the day and teaches a pottery class at Wren "
        "College on Wednesday afternoons"
    ).duties
    assert (class_.activity, class_.weekday) == ("teach a pottery class at Wren College", 2)
    assert class_.applies_on(2) and not class_.applies_on(1)


def test_an_elliptical_clause_borrows_the_verb_and_asides_keep_the_place() -> None:
    assert spans("Hiro draws at The Copper Kettle from 8am to noon and at home in the afternoon")[
        1
    ] == ("draw at home", 13 * 60, 17 * 60, None)
    [carpentry] = rhythm(
        "Marcus does carpentry from 8am to 5pm, this month mostly in the library"
    ).duties
    assert carpentry.activity == "do carpentry"
    assert "in the library" in carpentry.context


def test_lunch_at_home_and_clauses_that_are_not_the_personas() -> None:
    plan = rhythm(
        "Daniel opens the store at 7am and works there until 9pm, with a long lunch at home"
    )
    assert plan.lunch_at_home and plan.long_lunch
    assert spans("Lucia writes at the cafe in the afternoon; the Courier goes out on Fridays") == [
        ("write at the cafe", 13 * 60, 17 * 60, None)
    ]


def test_a_bare_verb_shares_the_hours_after_it_and_there_is_the_place_before() -> None:
    """Held out (Pangdan): "Pacita sweeps and opens San Roque Chapel from 5:30am to 6:30am and
    leads the rosary there from 6pm to 6:30pm" was an untimed "sweep" that filled her day, and a
    rosary led at the rosary on her bedroom wall."""
    duties = rhythm(
        "Pacita sweeps and opens San Roque Chapel from 5:30am to 6:30am and leads the rosary "
        "there from 6pm to 6:30pm."
    ).duties
    assert [(d.activity, d.start, d.end) for d in duties] == [
        ("sweep and open San Roque Chapel", 5 * 60 + 30, 6 * 60 + 30),
        ("lead the rosary at San Roque Chapel", 18 * 60, 18 * 60 + 30),
    ]
    school = rhythm("Ana teaches at the school from 8am to 3pm and runs the choir there from 6pm.")
    assert school.duties[1].activity == "run the choir at the school"


def test_any_english_verb_after_the_persona_is_a_duty_and_a_noun_after_and_is_not() -> None:
    """Verbs the grammar's own list lacks ("milks", "shears") are known from lemminflect's
    lexicon; a plural noun after "and" ("pots at home") stays part of the object."""
    assert spans(
        "Dara milks the goats at Hill Farm from 5am to 7am, and shears the flock in the afternoon"
    ) == [
        ("milk the goats at Hill Farm", 5 * 60, 7 * 60, None),
        ("shear the flock", 13 * 60, 17 * 60, None),
    ]
    assert spans("Efa mends nets and pots at home from 2pm to 5pm") == [
        ("mend nets and pots at home", 14 * 60, 17 * 60, None)
    ]


def test_when_said_first_and_sentences_that_open_with_someone_else() -> None:
    assert spans(
        "At dawn Kofi rows out from the slipway, and from about eleven until two he sorts and "
        "bags the catch in the shed. Afternoons he sits on the quay mending rope."
    ) == [
        ("row out from the slipway", MORNING, None, None),
        ("sort and bag the catch in the shed", 11 * 60, 14 * 60, None),
        ("sit on the quay mending rope", 13 * 60, 17 * 60, None),
    ]
    assert spans(
        "The school bus collects Ana at the square at 7, and she teaches at Hill School "
        "through to four in the afternoon"
    ) == [("teach at Hill School", None, 16 * 60, None)]
    assert spans("Mornings, Abel is at the church — sweeping, winding the clock — until noon.") == [
        ("be at the church", MORNING, 12 * 60, None)
    ]
    assert spans("On Tuesdays nobody fishes, so he mends nets at the shed from 8am to 12pm.") == [
        ("mend nets at the shed", 8 * 60, 12 * 60, 1)
    ]
    daily, weekly = spans("Grace works at her wheel until 5pm and teaches at Wren on Wednesdays")
    assert (daily[3], weekly[3]) == (None, 2)  # a weekday of one clause is that clause's


def test_hours_in_words_and_bare_hours_read_in_the_order_of_the_day() -> None:
    assert spans(
        "Rui opens the shop at eight and stays behind the counter until one; after lunch he "
        "opens again from half past three until nine"
    ) == [
        ("open the shop and stay behind the counter", 8 * 60, 13 * 60, None),
        ("open again", 15 * 60 + 30, 21 * 60, None),
    ]
    assert spans("Lia serves lunches from half twelve to four, and shuts the doors at eight") == [
        ("serve lunches", 12 * 60 + 30, 16 * 60, None),
        ("shut the doors", 20 * 60, None, None),
    ]
    assert spans("Sam works from 6 to noon") == [("work", 6 * 60, 12 * 60, None)]
    assert spans("Sreeja teaches at the L.P. School from 9:30am to 3:30pm.") == [
        ("teach at the L.P. School", 9 * 60 + 30, 15 * 60 + 30, None)
    ]


def test_a_time_word_after_from_or_before_is_no_part_of_the_duty() -> None:
    found = rhythm(
        "Tamar works the cheese press in her kitchen from dawn until about eleven, walks to "
        "Lasha's Shop before noon to trade, and attends vespers at St. Giorgi Church at 5pm."
    )
    assert [d.activity for d in found.duties] == [
        "work the cheese press in her kitchen",
        "walk to Lasha's Shop to trade",
        "attend vespers at St. Giorgi Church",
    ]


def test_a_break_said_with_a_duty_is_neither_its_work_nor_its_place() -> None:
    [duty] = rhythm(
        "Zurab works on the old tower from 9 o'clock until four with a break for lunch at "
        "Chartolani House around noon."
    ).duties
    assert duty.activity == "work on the old tower"
    assert "Chartolani House" not in duty.context
