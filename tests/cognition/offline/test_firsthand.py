"""Who knew news first, one rule for planning and talk: the one who read the notice or saw the
thing spreads it and tells it as their own, even once someone has told it back to them."""

from __future__ import annotations

from datetime import datetime, timedelta

from cognition.offline import knowledge
from cognition.offline.dialogue import next_utterance
from cognition.types import Persona, Recalled

GWEN = Persona(name="Gwen Talbot", speaking_style="")
NOW = datetime(2024, 5, 6, 9, 0)
SEED = (
    "The Fenwick Bat Group's moth evening is at Millers Meadow on May 10 at 8 pm. "
    "Everyone is welcome."
)
TOLD_BACK = (
    "Ivor Price said to Gwen Talbot: \"Word is that the Fenwick Bat Group's moth evening is at "
    'Millers Meadow on May 10 at 8 pm. Everyone is welcome!"'
)


def first(memories: list[str]) -> list[str]:
    return [f.what for f in knowledge.firsthand(memories, name=GWEN.name, now=NOW)]


def test_news_seen_first_stays_ones_own_when_told_back_later() -> None:
    seen = Recalled(SEED, at=NOW - timedelta(hours=5))
    later = Recalled(TOLD_BACK, at=NOW - timedelta(hours=1))
    assert first([later, seen]) == ["moth evening"]
    earlier = Recalled(TOLD_BACK, at=NOW - timedelta(hours=9))
    assert first([earlier, seen]) == []  # told before she saw the notice: she heard it


def test_a_line_naming_the_listener_as_its_source_is_told_back_whenever_it_was_said() -> None:
    named = TOLD_BACK.replace("Word is that", "Gwen told me that")
    assert first([named, SEED]) == ["moth evening"]
    assert first([TOLD_BACK, SEED]) == []  # unknown times: the line may have come first


def test_the_one_who_knew_first_tells_it_as_their_own_after_being_told_back() -> None:
    memories = [
        Recalled(TOLD_BACK, at=NOW - timedelta(hours=1)),
        Recalled(SEED, at=NOW - timedelta(hours=5)),
    ]
    said = next_utterance(
        speaker=GWEN,
        listener="Nia Hughes",
        intent="",
        memories=memories,
        history=[("Nia Hughes", "Morning, Gwen!")],
        relationship="Gwen likes Nia.",
        now=NOW,
    )
    assert "moth evening" in said.text, said.text
    assert "Ivor" not in said.text and "I heard" not in said.text, said.text


def test_news_heard_is_not_told_back_to_whom_it_came_from_when_a_later_note_restates_it() -> None:
    """A reflection restating what one was told ("Martin knows that …") is no notice seen:
    its time puts it after the line it came from, so the teller stays the source."""
    ivor = Persona(name="Ivor Price", speaking_style="")
    heard = Recalled(SEED_LINE := f'Gwen Talbot said to Ivor Price: "{SEED}"', at=NOW)
    restated = Recalled(f"Ivor Price knows that {SEED[0].lower()}{SEED[1:]}", at=NOW)
    later = NOW + timedelta(hours=3)
    said = next_utterance(
        speaker=ivor,
        listener=GWEN.name,
        intent="",
        memories=[restated, heard],
        history=[(GWEN.name, "Hello Ivor!")],
        relationship="Ivor likes Gwen.",
        now=later,
    )
    assert "moth evening" not in said.text, (SEED_LINE, said.text)


def test_a_memo_of_what_someone_said_has_them_as_the_source() -> None:
    memo = f"Ivor Price heard from Gwen Talbot that {SEED[0].lower()}{SEED[1:]}"
    (fact,) = knowledge.news_in(memo, now=NOW)
    assert (fact.what, fact.source) == ("moth evening", "Gwen Talbot")
    assert knowledge.firsthand([memo], name="Ivor Price", now=NOW) == []  # heard, not seen


CALL = (
    "Roin from the road department phoned Gwen Talbot before six, shouting over the rain: the "
    "slope above the lower road came down in the night and mud and rocks cover both lanes."
)


def test_news_phoned_in_from_outside_is_the_listeners_to_spread_crediting_the_caller() -> None:
    """Held out: news a road worker phoned to the village's foreman stayed the caller's, so
    the foreman, who alone in the village knew it, never went out to tell it."""
    [fact] = knowledge.firsthand([CALL], name=GWEN.name, now=NOW)
    assert fact.source == "Roin"
    said = next_utterance(
        speaker=GWEN,
        listener="Nia Hughes",
        intent="",
        memories=[CALL],
        history=[("Nia Hughes", "Morning, Gwen!")],
        relationship="Gwen likes Nia.",
        now=NOW,
    )
    assert "slope" in said.text, said.text
    assert "I heard" not in said.text and "Have you heard" not in said.text, said.text


def test_an_activity_for_an_occasion_that_has_begun_is_not_small_talk_after_it() -> None:
    """Held out: "Lately I've been preparing the residents' association's annual meeting",
    said all the day after the meeting."""
    astrid = Persona(
        name="Astrid Lie",
        currently="Astrid is preparing the residents' association's annual meeting",
        speaking_style="",
    )
    notice = "The residents' association annual meeting is at the Community House on May 6 at 7 pm."
    for hour, preparing in ((10, True), (31, False)):
        lines = {
            next_utterance(
                speaker=astrid,
                listener="Nia Hughes",
                intent="",
                memories=[notice, 'Astrid Lie said to Nia Hughes: "The meeting is tonight!"'],
                history=[
                    ("Nia Hughes", "Hello Astrid!"),
                    ("Astrid Lie", f"Guess what? {notice}"),
                    ("Nia Hughes", "Really? That sounds lovely!" + "!" * turn),
                ],
                relationship="Astrid likes Nia.",
                now=NOW.replace(hour=0) + timedelta(hours=hour),
            ).text
            for turn in range(12)
        }
        assert any("preparing" in line for line in lines) == preparing, lines
