"""The offline mind reads a memory's stored fields (`Recalled`), never its words again."""

from __future__ import annotations

from datetime import datetime

from cognition.offline import knowledge
from cognition.types import FactRecord, LineSaid, MemoryDetail, Recalled

NOW = datetime(2023, 2, 13, 9, 0)


def test_stored_news_is_read_from_the_fields_not_the_words() -> None:
    fair = FactRecord(
        kind="gathering",
        what="lantern fair",
        place="the green",
        weekday=4,
        start_min=18 * 60,
        open_to_all=True,
    )
    quiet = Recalled("Mo said something about Friday.", MemoryDetail(news=(fair,)))
    [fact] = knowledge.news_in(quiet, now=NOW)
    assert fact.record() == fair
    # words that would read as news, stored as holding none: the fields win
    read_empty = Recalled("There is a wedding at the chapel on Friday at noon.", MemoryDetail())
    assert knowledge.news_in(read_empty, now=NOW) == []
    assert knowledge.news_in(str(read_empty), now=NOW) != []  # unread words are still read


def test_a_line_is_read_from_its_stored_fields() -> None:
    line = LineSaid("Ada Brook", "Mo Reyes", "Lovely morning.")
    stored = Recalled('someone said something: "garbled"', MemoryDetail(said=line))
    assert knowledge.said(stored) == knowledge.Said("Ada Brook", "Mo Reyes", "Lovely morning.")
    assert knowledge.said(Recalled("The kettle boils", MemoryDetail())) is None


def test_reading_at_write_time_resolves_days_against_the_moment_it_was_heard() -> None:
    heard = datetime(2023, 2, 10, 8, 0)  # a Friday
    detail = knowledge.read_detail(
        'Rosa Vance said to Ada Brook: "My bake sale is at the bakery tomorrow at 3 pm."',
        now=heard,
    )
    assert detail.said == LineSaid(
        "Rosa Vance", "Ada Brook", "My bake sale is at the bakery tomorrow at 3 pm."
    )
    [sale] = detail.news
    assert (sale.who, sale.month, sale.day, sale.start_min) == ("Rosa Vance", 2, 11, 15 * 60)
    assert (
        knowledge.line_detail(
            "Rosa Vance", "Ada Brook", "My bake sale is at the bakery tomorrow at 3 pm.", now=heard
        )
        == detail
    )
