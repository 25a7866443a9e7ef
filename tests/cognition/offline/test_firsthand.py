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
