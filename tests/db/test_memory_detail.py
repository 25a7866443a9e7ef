"""`memories.detail`: a line's fields stored as it is written, a memory's news read once by
enrichment on its own day, and both read back by every path that returns memories."""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from cognition.dialogue import said_memory
from cognition.hashing_embedder import HashingEmbedder
from cognition.offline import OfflineMind, knowledge
from cognition.types import FactRecord, LineSaid, MemoryDetail, MemoryKind, MemorySource, NewMemory
from db import memory_detail
from db.flows.enrichment import enrich
from db.models import Agent, Memory
from db.queries import memory_rows
from db.store import PgMemoryStore
from tests.factories import GAME_START, committed_agent

NOON = 12 * 60


def test_a_line_is_stored_with_its_fields_and_read_back(sessions: sessionmaker[Session]) -> None:
    agent = committed_agent(sessions)
    line = said_memory(
        "Ines Moreau",
        "Tomas Ferreira",
        "I'm getting married at St. Brigid's chapel on Friday at noon!",
        at=GAME_START,
        source=MemorySource.AGENT,
    )
    with sessions.begin() as session:
        store = PgMemoryStore(
            session, world_id=agent.world_id, agent_id=agent.id, embedder=HashingEmbedder()
        )
        [written] = store.add([line], now=GAME_START)
    with sessions() as session:
        stored = session.scalar(sa.select(Memory.detail).where(Memory.id == written.id))
        [read] = PgMemoryStore(
            session, world_id=agent.world_id, agent_id=agent.id, embedder=HashingEmbedder()
        ).get([written.id])
    assert stored is not None and stored["said"]["speaker"] == "Ines Moreau"
    assert read.detail is not None and read.detail.said == LineSaid(
        "Ines Moreau",
        "Tomas Ferreira",
        "I'm getting married at St. Brigid's chapel on Friday at noon!",
    )
    [wedding] = read.detail.news
    assert wedding.who == "Ines Moreau" and wedding.start_min == NOON
    assert wedding.place is not None and "Brigid" in wedding.place
    # what the offline mind is shown reads the stored fields
    assert knowledge.said(read.recalled()) == knowledge.Said(
        "Ines Moreau", "Tomas Ferreira", read.detail.said.quote
    )


def test_enrichment_reads_a_memorys_news_on_its_own_day(sessions: sessionmaker[Session]) -> None:
    agent = committed_agent(sessions)
    written_at = GAME_START - timedelta(days=3)  # "tomorrow" is the day after it was heard
    with sessions.begin() as session:
        store = PgMemoryStore(
            session, world_id=agent.world_id, agent_id=agent.id, embedder=HashingEmbedder()
        )
        news, plain = store.add(
            [
                NewMemory(
                    description="Rosa said the bake sale is at the bakery tomorrow at 3 pm.",
                    created_at=written_at,
                ),
                NewMemory(description="The kettle is boiling", created_at=written_at),
            ],
            now=written_at,
        )
    assert news.detail is None  # not read until enriched
    enrich(sessions, [news.id, plain.id], embedder=HashingEmbedder(), mind=OfflineMind())
    with sessions() as session:
        store = PgMemoryStore(
            session, world_id=agent.world_id, agent_id=agent.id, embedder=HashingEmbedder()
        )
        read_news, read_plain = store.get([news.id, plain.id])
        retrieved = store.retrieve("the bake sale", k=1, now=GAME_START)
    assert read_plain.detail == MemoryDetail()  # read, and nothing in it
    assert read_news.detail is not None
    [sale] = read_news.detail.news
    tomorrow = (written_at + timedelta(days=1)).date()
    assert (sale.what, sale.month, sale.day, sale.start_min) == (
        "bake sale",
        tomorrow.month,
        tomorrow.day,
        15 * 60,
    )
    assert retrieved[0].memory.detail == read_news.detail  # retrieval returns it too


def test_enrichment_keeps_the_fields_a_writer_stored(sessions: sessionmaker[Session]) -> None:
    agent = committed_agent(sessions)
    given = MemoryDetail(news=(FactRecord(kind="report", what="the weir gate is stuck"),))
    with sessions.begin() as session:
        store = PgMemoryStore(
            session, world_id=agent.world_id, agent_id=agent.id, embedder=HashingEmbedder()
        )
        [memory] = store.add(
            [NewMemory(description="Nothing to read here", detail=given)], now=GAME_START
        )
    enrich(sessions, [memory.id], embedder=HashingEmbedder(), mind=OfflineMind())
    with sessions() as session:
        stored = session.scalar(sa.select(Memory.detail).where(Memory.id == memory.id))
    assert memory_detail.from_json(stored) == given


def test_a_document_of_an_unknown_shape_is_read_as_no_detail() -> None:
    assert memory_detail.from_json(None) is None
    assert memory_detail.from_json({"said": {"speaker": "A"}}) is None  # listener, quote missing
    detail = MemoryDetail(
        said=LineSaid("A", "B", "hi"), news=(FactRecord(kind="gathering", what="fair"),)
    )
    stored = memory_detail.to_json(detail)
    assert stored is not None
    assert memory_detail.from_json({**stored, "later": 1}) == detail
    stored["news"][0]["added_later"] = True  # a field a newer version wrote is ignored
    assert memory_detail.from_json(stored) == detail


def test_the_gatherings_on_a_day_are_looked_up_by_their_fields(
    sessions: sessionmaker[Session],
) -> None:
    agent = committed_agent(sessions)
    heard = GAME_START  # Monday, February 13 2023

    def line(quote: str) -> NewMemory:
        return said_memory("Reuben Sowerby", agent.name, quote, at=heard, source=MemorySource.AGENT)

    with sessions.begin() as session:
        store = PgMemoryStore(
            session, world_id=agent.world_id, agent_id=agent.id, embedder=HashingEmbedder()
        )
        trial, _, _, fair = store.add(
            [
                line("My sheepdog trial is on High Fell Common tomorrow from 10 am to 1 pm."),
                line("The sheepdog trial next month will be grand."),  # no day, no time
                line("The old mill bridge is cracked and unsafe."),  # news, no gathering
                line("The lantern fair is on the green on Tuesday at 7 pm."),
            ],
            now=heard,
        )
    tuesday = (heard + timedelta(days=1)).date()
    with sessions() as session:
        found = memory_rows.gatherings_on(session, agent.id, tuesday, limit=10)
        none_on_monday = memory_rows.gatherings_on(session, agent.id, heard.date(), limit=10)
    assert {m.id for m in found} == {trial.id, fair.id}
    assert none_on_monday == []


def test_news_the_two_told_each_other_is_looked_up_by_the_lines_fields(
    sessions: sessionmaker[Session],
) -> None:
    """However long ago and however retrieval ranks it: a lock keeper told the same girl of
    the algae three times in two days."""
    agent = committed_agent(sessions)
    me, friend, stranger = agent.name, "Jade Oakes", "Priya Chandran"
    lines = [
        said_memory(
            me,
            friend,
            "The old mill bridge is cracked and unsafe.",
            at=GAME_START,
            source=MemorySource.AGENT,
        ),
        said_memory(
            friend,
            me,
            "The ceilidh is at the brewery on Thursday at 7 pm.",
            at=GAME_START,
            source=MemorySource.AGENT,
        ),
        said_memory(
            friend,
            me,
            "Having lunch, I see.",
            at=GAME_START,  # no news
            source=MemorySource.AGENT,
        ),
        said_memory(
            me,
            stranger,
            "The old mill bridge is cracked and unsafe.",  # another listener
            at=GAME_START,
            source=MemorySource.AGENT,
        ),
        said_memory(
            me,
            friend,
            "The old mill bridge is cracked and unsafe.",  # the same news again
            at=GAME_START + timedelta(hours=1),
            source=MemorySource.AGENT,
        ),
    ]
    with sessions.begin() as session:
        store = PgMemoryStore(
            session, world_id=agent.world_id, agent_id=agent.id, embedder=HashingEmbedder()
        )
        _, ceilidh, _, _, again = store.add(lines, now=GAME_START + timedelta(hours=1))
    with sessions() as session:
        found = memory_rows.news_exchanged(session, agent.id, me=me, other=friend, limit=10)
        with_stranger = memory_rows.news_exchanged(
            session, agent.id, me=me, other=stranger, limit=10
        )
    assert [m.id for m in found] == [again.id, ceilidh.id]  # the latest line of each
    assert len(with_stranger) == 1 and stranger in with_stranger[0].description


def test_news_an_admin_seeds_is_news_whatever_its_words_weigh(
    sessions: sessionmaker[Session],
) -> None:
    """ "Old Mr Jenkins passed away last night." seeded by an admin was no news to the mind (a
    plain sentence, scored under the bar), so nobody passed it on; as an observation it is
    still only a sight."""
    agent = committed_agent(sessions)
    text = "Old Mr Jenkins passed away last night."
    with sessions.begin() as session:
        store = PgMemoryStore(
            session, world_id=agent.world_id, agent_id=agent.id, embedder=HashingEmbedder()
        )
        seeded, seen = store.add(
            [
                NewMemory(description=text, kind=MemoryKind.SEED, created_at=GAME_START),
                NewMemory(description=text, created_at=GAME_START),
            ],
            now=GAME_START,
        )
    enrich(sessions, [seeded.id, seen.id], embedder=HashingEmbedder(), mind=OfflineMind())
    with sessions() as session:
        store = PgMemoryStore(
            session, world_id=agent.world_id, agent_id=agent.id, embedder=HashingEmbedder()
        )
        read_seeded, read_seen = store.get([seeded.id, seen.id])
    assert read_seeded.detail is not None and read_seen.detail is not None
    [death] = read_seeded.detail.news
    assert death.kind == "report" and death.what == "Old Mr Jenkins passed away last night"
    assert read_seen.detail.news == ()


def test_a_seed_in_the_first_person_is_the_agents_own_news(
    sessions: sessionmaker[Session],
) -> None:
    """ "We're having a fish fry at the Legion tonight at 6" seeded into an agent is that
    agent's gathering: its "we" is the agent."""
    agent = committed_agent(sessions)
    with sessions() as session:
        name = session.get(Agent, agent.id).name  # type: ignore[union-attr]
    text = "We're having a fish fry at the Legion Hall tonight at 6, all welcome."
    with sessions.begin() as session:
        store = PgMemoryStore(
            session, world_id=agent.world_id, agent_id=agent.id, embedder=HashingEmbedder()
        )
        [seeded] = store.add(
            [NewMemory(description=text, kind=MemoryKind.SEED, created_at=GAME_START)],
            now=GAME_START,
        )
    enrich(sessions, [seeded.id], embedder=HashingEmbedder(), mind=OfflineMind())
    with sessions() as session:
        store = PgMemoryStore(
            session, world_id=agent.world_id, agent_id=agent.id, embedder=HashingEmbedder()
        )
        [read] = store.get([seeded.id])
    assert read.detail is not None
    [fry] = read.detail.news
    assert (fry.what, fry.who, fry.place) == ("fish fry", name, "the Legion Hall")
