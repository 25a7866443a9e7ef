"""Conversation without a model: lines composed from facts, news that spreads.

The tests read lines as a player would: no nested quotes, no self-greeting, no bare verb after
"is", names capitalised, and the news and invitations carried from one agent to the next.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

import pytest

from cognition.offline import dialogue
from cognition.offline.dialogue import (
    ACCEPTED,
    DECLINED,
    INVITATION,
    LONG_CONVERSATION,
    next_utterance,
)
from cognition.types import Persona, Utterance

NOW = datetime(2023, 2, 13, 9, 30)
JUNIE = Persona(
    name="Junie Halvorsen",
    currently="Junie is planning the Valentine's Day party at The Copper Kettle",
    speaking_style="bright and chatty; calls people 'love'",
)
TOMAS = Persona(
    name="Tomas Ferreira",
    currently="Tomas is practising a new song about the river",
    speaking_style="laid-back and teasing",
)
PRIYA = Persona(name="Priya Raman", speaking_style="fast and direct")
ELEANOR = Persona(name="Eleanor Voss", speaking_style="precise and formal")
FELIX = Persona(name="Felix Moreau", speaking_style="soft-spoken and hesitant")
PARTY_SEED = (
    "Junie Halvorsen is planning a Valentine's Day party at The Copper Kettle on February 14 "
    "from 6pm to 8pm"
)
RUNNING = 'Walter Brigg said to Tomas Ferreira: "I\'m running for a seat on the town council."'
BARE_AFTER_IS = re.compile(r"\b(?:is|are|am) (?:say|have|sleep|go|work|open|talk|draw|eat)\b")


def talk(
    a: Persona,
    b: Persona,
    *,
    memories: dict[str, list[str]],
    relationships: dict[str, str] | None = None,
    intents: dict[str, str] | None = None,
) -> list[tuple[str, str]]:
    """Run a whole conversation; each side also remembers the lines it heard."""
    history: list[tuple[str, str]] = []
    sides = (a, b)
    for n in range(LONG_CONVERSATION + 2):
        me, you = sides[n % 2], sides[(n + 1) % 2]
        heard = [f'{who} said to {me.name}: "{text}"' for who, text in history if who != me.name]
        said = next_utterance(
            speaker=me,
            listener=you.name,
            intent=(intents or {}).get(me.name, ""),
            memories=[*memories.get(me.name, []), *heard],
            history=history,
            relationship=(relationships or {}).get(me.name, f"{me.name} likes {you.name}."),
            now=NOW,
        )
        history.append((me.name, said.text))
        if said.ends:
            break
    return history


def readable(lines: Sequence[tuple[str, str]], names: Sequence[str]) -> None:
    """What a player would refuse to read."""
    for who, text in lines:
        assert (text and text[0].isupper()) or text.startswith("Um, "), text
        assert '"' not in text, text
        assert not BARE_AFTER_IS.search(text), text
        assert f"Hi {who.split()[0]}" not in text and "Hi me" not in text, text
        assert not re.search(r"\b(\w+) \1\b", text, re.I), text
        for name in names:
            assert name.split()[0].lower() not in re.findall(r"\b[a-z]+\b", text), text


def test_the_host_invites_and_the_guest_accepts_with_time_and_place() -> None:
    lines = talk(JUNIE, TOMAS, memories={JUNIE.name: [PARTY_SEED]})
    readable(lines, [JUNIE.name, TOMAS.name])
    junie, tomas = lines[0][1], lines[1][1]
    # said on February 13: the day is said as people say it
    assert "organising a Valentine's Day party at The Copper Kettle tomorrow" in junie
    assert INVITATION.search(junie), junie
    assert re.search(r"(love to come|Count me in|wouldn't miss it)\b.*at 6 pm\.", tomas), tomas
    assert "the Valentine's Day party" in lines[-1][1]  # the closing names what was agreed
    hers = [text for who, text in lines if who == JUNIE.name]
    assert sum("party at The Copper Kettle" in text for text in hers) == 1, lines  # said once


def test_news_spreads_from_a_guest_to_a_stranger() -> None:
    first = talk(JUNIE, TOMAS, memories={JUNIE.name: [PARTY_SEED]})
    heard = [f'{who} said to {TOMAS.name}: "{text}"' for who, text in first if who != TOMAS.name]
    lines = talk(TOMAS, PRIYA, memories={TOMAS.name: heard}, relationships={PRIYA.name: ""})
    readable(lines, [TOMAS.name, PRIYA.name])
    tomas = " ".join(text for who, text in lines if who == TOMAS.name)
    assert "Junie Halvorsen's Valentine's Day party is at The Copper Kettle" in tomas
    priya = " ".join(text for who, text in lines if who == PRIYA.name)
    assert "I'm Priya." in priya  # a stranger introduces herself
    assert "heard about that" not in priya and "I know" not in priya  # news to her


def test_a_candidacy_is_passed_on_and_welcomed() -> None:
    lines = talk(TOMAS, PRIYA, memories={TOMAS.name: [RUNNING]})
    readable(lines, [TOMAS.name, PRIYA.name, "Walter Brigg"])
    assert any("Did you know that Walter Brigg is running for" in t for _, t in lines)
    assert any("I didn't know Walter was running." in t for _, t in lines)


def test_news_told_once_is_not_told_again_at_the_next_meeting() -> None:
    first = talk(JUNIE, TOMAS, memories={JUNIE.name: [PARTY_SEED]})
    other = {JUNIE.name: TOMAS.name, TOMAS.name: JUNIE.name}
    lines = [f'{who} said to {other[who]}: "{text}"' for who, text in first]
    remembered = {JUNIE.name: [PARTY_SEED, *lines], TOMAS.name: lines}
    again = talk(JUNIE, TOMAS, memories=remembered)
    readable(again, [JUNIE.name, TOMAS.name])
    said = " ".join(text for _, text in again)
    assert "Would you like to come?" not in said and "organising a Valentine" not in said, again
    to_priya = talk(JUNIE, PRIYA, memories={JUNIE.name: remembered[JUNIE.name]})
    assert "organising a Valentine's Day party" in to_priya[0][1]  # someone new is invited


def test_no_one_tells_a_host_about_their_own_party() -> None:
    first = talk(JUNIE, TOMAS, memories={JUNIE.name: [PARTY_SEED]})
    heard = [f'{who} said to {TOMAS.name}: "{text}"' for who, text in first if who != TOMAS.name]
    lines = talk(TOMAS, JUNIE, memories={TOMAS.name: heard})
    assert not any("Have you heard?" in text for who, text in lines if who == TOMAS.name)


def test_small_talk_answers_with_what_one_is_doing() -> None:
    said = next_utterance(
        speaker=TOMAS,
        listener=PRIYA.name,
        intent="",
        memories=[],
        history=[(PRIYA.name, "Hi Tomas! How have you been?")],
        relationship="Tomas likes Priya.",
        now=NOW,
        speaker_status="work at the counter",
    )
    assert said.text.startswith("Hello, Priya!") or said.text.startswith(("Hi", "Good"))
    assert "working at the counter." in said.text


@pytest.mark.parametrize(
    ("doing", "said", "unsaid"),
    [
        ("sell his catch at the quay", "selling my catch at the quay.", "his"),
        ("help Priya Raman with her essay", "", "her essay"),
        ("open his shop at Harbour Hall", "opening my shop at Harbour Hall.", "his"),
        (  # held out (Pangdan): "collect what people owe my before …"
            "collect what people owe her before the fees are due",
            "collecting what people owe me before the fees are due.",
            "owe my",
        ),
    ],
)
def test_what_one_is_doing_is_told_in_the_first_person(doing: str, said: str, unsaid: str) -> None:
    line = next_utterance(
        speaker=TOMAS,
        listener=PRIYA.name,
        intent="",
        memories=[],
        history=[(PRIYA.name, "Hi Tomas! How have you been?")],
        relationship="Tomas likes Priya.",
        now=NOW,
        speaker_status=doing,
    )
    assert said in line.text and unsaid not in line.text, line


def test_these_days_are_told_in_the_first_person() -> None:
    lines = talk(TOMAS, PRIYA, memories={})
    first_person = re.compile(r"\bI(?:'m|'ve been) practising a new song about the river\b")
    assert any(first_person.search(t) for _, t in lines), lines


def test_what_one_is_up_to_these_days_is_answered_not_mirrored() -> None:
    lines = talk(TOMAS, PRIYA, memories={})
    told = next(i for i, (_, t) in enumerate(lines) if "practising a new song" in t)
    assert lines[told + 1][1] in dialogue.ANSWERS_TO_THEIR_DAYS, lines


def test_styles_change_the_words_not_the_names() -> None:
    formal = next_utterance(
        speaker=ELEANOR,
        listener=TOMAS.name,
        intent="",
        memories=[],
        history=[],
        relationship="Eleanor knows Tomas.",
        now=NOW,
    )
    assert "'" not in formal.text.replace("Tomas'", "")
    shy = next_utterance(
        speaker=FELIX,
        listener="Noor Haddad",
        intent="",
        memories=[],
        history=[],
        relationship="Felix adores Noor.",
        now=NOW,
    )
    assert shy.text.startswith("Um, ") and "Noor" in shy.text
    closing = talk(JUNIE, TOMAS, memories={})[-1]
    if closing[0] == JUNIE.name:
        assert closing[1].endswith(", love!")


def test_conversations_end() -> None:
    lines = talk(TOMAS, PRIYA, memories={TOMAS.name: [RUNNING, PARTY_SEED]})
    assert len(lines) <= LONG_CONVERSATION + 1


def test_lines_are_the_same_on_every_run() -> None:
    """Golden lines: choices come from SHA-256 of the names and the hour, never Python's hash
    seed."""
    lines = talk(JUNIE, TOMAS, memories={JUNIE.name: [PARTY_SEED]})
    assert lines[0] == (
        JUNIE.name,
        "Hi Tomas! I'm organising a Valentine's Day party at The Copper Kettle tomorrow "
        "from 6 pm to 8 pm! Do you want to come along?",
    )


def test_a_candidate_is_welcomed_to_their_face_once() -> None:
    """Walter tells Priya himself: she answers him as "you", and his second mention of the
    campaign is not welcomed again ("I did not know Walter was running!" twice, to Walter)."""
    walter = Persona(
        name="Walter Brigg",
        currently="Walter Brigg is running for a seat on the town council",
        speaking_style="gruff",
    )
    lines = talk(walter, PRIYA, memories={walter.name: [walter.currently]})
    readable(lines, [walter.name, PRIYA.name])
    priya = [text for who, text in lines if who == PRIYA.name]
    assert "I didn't know you were running. Good luck!" in priya[0], lines
    assert not any("Walter was running" in text for text in priya), lines
    assert sum("didn't know" in text for text in priya) == 1, lines


def test_a_shower_is_not_what_one_has_been_busy_with() -> None:
    """Asked how they have been, a speaker interrupted in the shower does not say so."""
    asked = [(TOMAS.name, "Hi Priya! How have you been?")]
    for doing, expected in (
        ("taking a shower", "!"),
        ("coding in the library", "coding in the library."),
    ):
        said = next_utterance(
            speaker=PRIYA,
            listener=TOMAS.name,
            intent="",
            memories=[],
            history=asked,
            relationship=f"{PRIYA.name} likes {TOMAS.name}.",
            now=NOW,
            speaker_status=doing,
        )
        assert expected in said.text, said
        assert "shower" not in said.text, said


def test_one_greeted_by_name_does_not_claim_they_have_never_met() -> None:
    """Beatrix greets Junie by name; Junie, who has no record of her, does not answer "Hello!
    I don't think we've met! I'm Junie!"."""
    said = next_utterance(
        speaker=JUNIE,
        listener=PRIYA.name,
        intent="",
        memories=[],
        history=[(PRIYA.name, "Good afternoon, Junie! How have you been?")],
        relationship="",
        now=NOW,
    )
    assert "don't think we've met" not in said.text, said
    assert said.text.startswith("Hello! I'm sorry, have we met? I'm Junie"), said


def test_a_formal_speaker_remarks_on_the_listener_once() -> None:
    """Eleanor speaks without contractions ("I see you are …"): her remark on what Theo is
    doing is made once, not at every turn (two formal speakers traded four of them)."""
    history = [
        (ELEANOR.name, "Good afternoon, Theo! How have you been?"),
        ("Theo Calloway", "I am well, thank you."),
        (ELEANOR.name, "I see you are attending chemistry lectures."),
        ("Theo Calloway", "I see you are holding office hours."),
    ]
    said = next_utterance(
        speaker=ELEANOR,
        listener="Theo Calloway",
        intent="",
        memories=[],
        history=history,
        relationship=f"{ELEANOR.name} likes Theo Calloway.",
        now=NOW,
        listener_status="attending chemistry lectures",
    )
    assert "I see you" not in said.text, said


def test_a_host_told_of_her_own_party_says_it_is_hers() -> None:
    """Noor heard of the party without its host and tells Junie; Junie does not answer "I'd
    love to come!" to her own party."""
    said = next_utterance(
        speaker=JUNIE,
        listener=PRIYA.name,
        intent="",
        memories=[PARTY_SEED],
        history=[
            (
                PRIYA.name,
                "Have you heard? There is a Valentine's Day party at The Copper Kettle on "
                "February 14. You should come!",
            )
        ],
        relationship=f"{JUNIE.name} likes {PRIYA.name}.",
        now=NOW,
    )
    assert "I'm organising the Valentine's Day party, actually!" in said.text, said
    assert "love to come" not in said.text, said


def test_no_introductions_when_the_world_records_an_earlier_talk() -> None:
    """The speaker's retrieval recalled none of their last talk; the world's record of
    conversations still says they have met, so there is no "have we met?"."""
    for history in ([], [(PRIYA.name, "Good afternoon, Junie! How have you been?")]):
        fresh = next_utterance(
            speaker=JUNIE, listener=PRIYA.name, intent="", memories=[], history=history, now=NOW
        )
        met = next_utterance(
            speaker=JUNIE,
            listener=PRIYA.name,
            intent="",
            memories=[],
            history=history,
            now=NOW,
            known_by_world=True,
        )
        assert "I'm Junie" in fresh.text or "have we met" in fresh.text, fresh
        assert "have we met" not in met.text and "I'm Junie" not in met.text, met


def test_a_speaker_with_more_news_keeps_the_chat_going_to_tell_it() -> None:
    """Four pieces of news for Tomas, none for Priya: at the usual length he still has one
    to tell, so the chat runs a line longer and Priya answers it as she takes her leave."""
    news = [
        RUNNING,
        PARTY_SEED,
        'Ada Brook said to Tomas Ferreira: "The old mill bridge is cracked and unsafe."',
        'Mo Reyes said to Tomas Ferreira: "My bake sale is at the bakery on February 17 at '
        '3 pm. Everyone is welcome."',
    ]
    lines = talk(TOMAS, PRIYA, memories={TOMAS.name: news})
    readable(lines, [TOMAS.name, PRIYA.name, "Walter Brigg", "Junie Halvorsen", "Ada Brook"])
    tomas = " ".join(text for who, text in lines if who == TOMAS.name)
    for told in ("council", "party", "bridge", "bake sale"):
        assert told in tomas, lines
    assert len(lines) == LONG_CONVERSATION + 2, lines
    last_who, last = lines[-1]
    assert last_who == PRIYA.name and re.search(r"bye|take care|see you", last, re.I), lines


def test_with_nothing_left_to_tell_a_chat_ends_at_its_usual_length() -> None:
    lines = talk(TOMAS, PRIYA, memories={TOMAS.name: [RUNNING]})
    assert len(lines) <= LONG_CONVERSATION + 1, lines


def test_a_gathering_that_has_begun_is_not_told_nor_accepted() -> None:
    """At 9:30, a fair "at 9 am" today is under way: no one tells of it, or says they will
    be there at 9."""
    fair = (
        'Walter Brigg said to Tomas Ferreira: "The spring fair is at Willow Park on February '
        '13 at 9 am, and everyone is welcome."'
    )
    lines = talk(TOMAS, PRIYA, memories={TOMAS.name: [fair]})
    assert not any("spring fair" in text for _, text in lines), lines
    later = fair.replace("at 9 am", "at 11 am")
    told = talk(TOMAS, PRIYA, memories={TOMAS.name: [later]})
    assert any("spring fair" in text for who, text in told if who == TOMAS.name), told


def test_an_action_of_two_in_turn_is_remarked_on_as_the_first() -> None:
    said = next_utterance(
        speaker=TOMAS,
        listener=PRIYA.name,
        intent="",
        memories=[],
        history=[(PRIYA.name, "Hi Tomas! How have you been?")],
        relationship="Tomas likes Priya.",
        now=NOW,
        speaker_status="buy groceries at the general store; then tend the flock again",
    )
    assert "buying groceries at the general store." in said.text and "then" not in said.text


def test_news_one_knew_first_is_not_credited_to_who_told_it_back() -> None:
    """Once the originator, told its own news back, passed it on as "Megan told me that …"."""
    seed = (
        "A green film has spread along the canal past the old mill. Junie Halvorsen noticed "
        "it this morning."
    )
    told_back = (
        'Tomas Ferreira said to Junie Halvorsen: "Word is that a green film has spread along '
        'the canal past the old mill."'
    )
    for listener in (FELIX, PRIYA, ELEANOR):  # the retelling's wording varies by listener
        lines = talk(JUNIE, listener, memories={JUNIE.name: [told_back, seed]})
        hers = " ".join(text for who, text in lines if who == JUNIE.name)
        assert "green film has spread along the canal" in hers, lines
        assert "Tomas told me" not in hers, lines


def test_news_one_knew_first_is_told_as_ones_own_not_as_hearsay() -> None:
    """The algae's originator said "Word is that …, and Dennis Fairweather noticed the scum"."""
    seed = (
        "A green film has spread along the canal past the old mill. Junie Halvorsen noticed "
        "the scum this morning."
    )
    for listener in (FELIX, PRIYA, ELEANOR):
        lines = talk(JUNIE, listener, memories={JUNIE.name: [seed]})
        hers = " ".join(text for who, text in lines if who == JUNIE.name)
        assert "and I noticed the scum" in hers, lines
        assert "Junie Halvorsen" not in hers and "I heard" not in hers, lines
        assert not re.search(r"Word is|It seems|Apparently", hers), lines
        theirs = [text for who, text in lines if who != JUNIE.name]
        assert theirs, lines


def test_no_small_talk_straight_after_hearing_news() -> None:
    """ "Really? I hadn't heard that. Most days I'm trying to grow early strawberries." """
    history = [
        (PRIYA.name, "Hello, Junie! What are you up to today?"),
        (JUNIE.name, "Hello, Priya! Not much, to be honest!"),
        (PRIYA.name, "I'm worried: the old aqueduct over the river has sprung a leak."),
    ]
    said = next_utterance(
        speaker=JUNIE,
        listener=PRIYA.name,
        intent="",
        memories=[],
        history=history,
        relationship="Junie Halvorsen likes Priya Raman.",
        now=NOW,
    )
    assert said.text and "aqueduct" not in said.text, said
    assert not re.search(r"These days|[Ll]ately|Most days|Valentine", said.text), said
    # with nothing heard, the same turn is small talk
    chat = [*history[:2], (PRIYA.name, "Not much, to be honest.")]
    small = next_utterance(
        speaker=JUNIE,
        listener=PRIYA.name,
        intent="",
        memories=[],
        history=chat,
        relationship="Junie Halvorsen likes Priya Raman.",
        now=NOW,
    )
    assert re.search(r"These days|[Ll]ately|Most days", small.text), small


def test_who_is_credited_with_news_tells_it_without_naming_themselves() -> None:
    seed = "The quarry road is closed until June, Junie Halvorsen says."
    for listener in (FELIX, PRIYA, ELEANOR):
        lines = talk(JUNIE, listener, memories={JUNIE.name: [seed]})
        hers = " ".join(text for who, text in lines if who == JUNIE.name)
        assert "quarry road is closed until June" in hers, lines
        assert "Junie" not in hers and "I heard" not in hers, lines


def test_every_way_of_asking_after_someone_is_answered() -> None:
    from cognition.offline.dialogue import HOW_ARE_YOU, WHAT_DOING

    asks = 0
    for listener in (FELIX, PRIYA, ELEANOR, TOMAS):
        lines = talk(JUNIE, listener, memories={})
        for (_, text), (_, answer) in itertools.pairwise(lines):
            if HOW_ARE_YOU.search(text) or WHAT_DOING.search(text):
                asks += 1
                said = r"I'm (?:well|\w+ing)|I am well|Not (?:bad|much)|Pretty good|Can(?:'t| not) "
                assert re.search(said, answer), (text, answer)  # "Can't complain"
    assert asks


def test_remarks_on_what_someone_is_doing_open_in_many_ways() -> None:
    """A quiet town's talk is mostly such remarks: one opening had held 11 % of its lines."""
    grocer = Persona(name="Tomas Ferreira", speaking_style="")  # no `currently` to talk of
    openings = set()
    for n in range(40):
        said = next_utterance(
            speaker=grocer,
            listener=f"Visitor Number{n}",
            intent="",
            memories=[],
            history=[
                (f"Visitor Number{n}", "Hi Tomas!"),
                (grocer.name, "Hello! How are you?"),
                (f"Visitor Number{n}", "Fine, thanks."),
            ],
            relationship="",
            now=NOW,
            listener_status="choose groceries from the shelves",
        )
        remark = next((s for s in re.split(r"(?<=[.?!]) ", said.text) if "groceries" in s), "")
        openings.add(" ".join(remark.lower().split()[:3]))
    assert len(openings) >= 4, openings


def test_no_remark_on_the_listener_talking() -> None:
    """The listener "chatting with the other guests" is talking to the speaker: "Busy chatting
    with the other guests, I see" was said to the very person chatting."""
    grocer = Persona(name="Tomas Ferreira", speaking_style="")
    for status, remarked in (
        ("chatting with the other guests", False),
        ("arriving and saying hello to the host", False),
        ("pour the tea", True),
    ):
        said = next_utterance(
            speaker=grocer,
            listener="Visitor Number",
            intent="",
            memories=[],
            history=[("Visitor Number", "Hi Tomas!"), (grocer.name, "Hello! How are you?")],
            relationship="",
            now=NOW,
            listener_status=status,
        )
        assert (status.split()[0][:4] in said.text.lower()) is remarked, said.text


def test_what_one_is_up_to_about_the_listener_is_not_told_to_them() -> None:
    """ "Lately I've been keeping an eye on Jade Oakes, who is doing work experience" was
    said to Jade Oakes."""
    maureen = Persona(
        name="Maureen Hollis",
        currently="Maureen is keeping an eye on Jade Oakes, who is doing work experience",
        speaking_style="",
    )
    jade = Persona(name="Jade Oakes", speaking_style="")
    told = " ".join(text for who, text in talk(maureen, jade, memories={}) if who != jade.name)
    assert "keeping an eye" not in told
    others = talk(maureen, PRIYA, memories={})
    assert any("keeping an eye on Jade" in text for _, text in others), others


def test_news_is_not_told_back_to_whom_it_was_heard_from() -> None:
    heard = (  # a memo of the talk, without the line itself (retrieval did not bring it)
        "Owen Price heard from Carys Lloyd that the choir's spring concert is at the Institute "
        "on February 14 at 7:30 pm, and everyone is invited."
    )
    owen = Persona(name="Owen Price", speaking_style="")
    carys = Persona(name="Carys Lloyd", speaking_style="")
    lines = talk(owen, carys, memories={owen.name: [heard]})
    assert not any("concert" in text for who, text in lines if who == owen.name), lines
    others = talk(owen, PRIYA, memories={owen.name: [heard]})
    assert any("concert" in text for who, text in others if who == owen.name), others


def test_news_naming_the_listener_is_not_told_to_them() -> None:
    """ "… and Dai Pritchard says the museum will have to be out by Christmas" was told to Dai
    Pritchard, who had said it."""
    heard = (
        'Carys Lloyd said to Owen Price: "The council has sold the old baths to a supermarket '
        'chain, and Dai Pritchard says the museum will have to be out by Christmas."'
    )
    owen = Persona(name="Owen Price", speaking_style="")
    dai = Persona(name="Dai Pritchard", speaking_style="")
    to_dai = talk(owen, dai, memories={owen.name: [heard]})
    assert not any("museum" in text for who, text in to_dai if who == owen.name), to_dai
    to_priya = talk(owen, PRIYA, memories={owen.name: [heard]})
    assert any("museum" in text for who, text in to_priya if who == owen.name), to_priya


def test_the_parting_names_the_soonest_gathering_agreed_to() -> None:
    """Invited to a concert tomorrow, then to a supper tonight, and saying yes to both, one
    parts with "see you at the supper", not "until the concert"."""
    concert = (
        "Tomas Ferreira is organising a choir concert at the Institute on February 14 at 7:30 pm, "
        "and everyone is welcome."
    )
    supper = (
        "Priya Raman is organising a soup supper at the chapel vestry on February 13 at 6 pm, "
        "and everyone is welcome."
    )
    lines = talk(TOMAS, PRIYA, memories={TOMAS.name: [concert], PRIYA.name: [supper]})
    said = " ".join(text for _, text in lines)
    assert "concert" in said and "supper" in said, lines  # both invitations were made
    parting = lines[-1][1]
    assert "supper" in parting and "concert" not in parting, lines


def test_no_remark_on_the_listener_washing_or_dressing() -> None:
    """ "Busy taking a shower, I see" was said across a kitchen at 7 am."""
    grocer = Persona(name="Tomas Ferreira", speaking_style="")
    for status, word, remarked in (
        ("taking a shower", "shower", False),
        ("getting dressed for work", "dressed", False),
        ("getting ready for bed", "bed", False),
        ("dressing the shop window", "window", True),
    ):
        said = next_utterance(
            speaker=grocer,
            listener=PRIYA.name,
            intent="",
            memories=[],
            history=[(PRIYA.name, "Hi Tomas!"), (grocer.name, "Hello! How are you?")],
            relationship="",
            now=NOW,
            listener_status=status,
        )
        assert (word in said.text.lower()) is remarked, (status, said.text)


def test_a_gathering_heard_under_two_names_is_told_once() -> None:
    """Held out: "the fish fry" and "the fry evening", one hall and one hour, were told to each
    other in turn as two pieces of news."""
    tyler = Persona(name="Tyler Keats", speaking_style="")
    clar_said = (
        "Clar Hynes said to Tyler Keats: \"I'm organising a fry evening at Legion Hall on "
        'February 14 at 6:30 pm. All are welcome."'
    )
    marlene_said = (
        "Marlene Keats said to Priya Raman: \"Clar Hynes's fish fry is at the Legion Hall on "
        'February 14 at 6:30 pm. You should come along, all are welcome!"'
    )
    lines = talk(PRIYA, tyler, memories={PRIYA.name: [marlene_said], tyler.name: [clar_said]})
    told = [text for _, text in lines if "fry" in text and "6:30 pm" in text]
    assert len(told) == 1, lines


def test_a_line_that_cannot_be_said_another_way_gives_way_to_a_goodbye(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fixed = "Guess what? I found an old ship's bell."
    monkeypatch.setattr(dialogue, "_line", lambda talk: Utterance(fixed))
    said = next_utterance(
        speaker=JUNIE,
        listener=TOMAS.name,
        intent="",
        memories=[],
        history=[(JUNIE.name, fixed), (TOMAS.name, "Goodness!")],
        now=NOW,
    )
    assert said.ends and said.text and "bell" not in said.text  # a goodbye, not silence


def test_a_host_names_their_own_home_as_my_house_and_the_listeners_as_yours() -> None:
    """Held out: "I'm organising a rutuchikuy at Marisol Yupanqui Ccori's house", said by
    Marisol herself."""
    lucia = Persona(name="Lucía Quispe Mamani", speaking_style="")
    seed = (
        "Lucía is doing Tomasito's rutuchikuy at Lucía Quispe Mamani's house on February 14 "
        "at 1 pm."
    )
    said = next_utterance(
        speaker=lucia,
        listener="Ana Flores",
        intent="",
        memories=[seed],
        history=[("Ana Flores", "Good morning, Lucía!")],
        relationship="Lucía likes Ana.",
        now=NOW,
    ).text
    assert "rutuchikuy at my house" in said and "Mamani's" not in said, said
    told = next_utterance(
        speaker=PRIYA,
        listener=lucia.name,
        intent="",
        memories=[f'Ana Flores said to Priya Raman: "{seed}"'],
        history=[(lucia.name, "Morning, Priya!")],
        relationship="Priya likes Lucía.",
        now=NOW,
    ).text
    assert "Mamani's house" not in told, told


def test_a_host_asks_people_along_in_more_than_one_way_and_each_is_accepted() -> None:
    guests = [TOMAS, PRIYA, *(replace(TOMAS, name=f"Guest {n} Ferreira") for n in range(12))]
    askings = set()
    for guest in guests:
        lines = talk(JUNIE, guest, memories={JUNIE.name: [PARTY_SEED]})
        invitation, reply = lines[0][1], lines[1][1]
        askings.add(invitation.rsplit("! ", 1)[-1])
        assert INVITATION.search(invitation), invitation
        assert ACCEPTED.search(reply) or DECLINED.search(reply), reply
    assert len(askings) >= 3, askings
