"""Analysts read the views as `hearth_analyst`, and that role can do nothing else."""

from __future__ import annotations

from datetime import timedelta

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from service.sql_console import analyst_url, format_table, run_query
from tests.factories import GAME_START, make_agent, make_memory, make_world


@pytest.fixture
def seeded(sessions: sessionmaker[Session]) -> None:
    with sessions.begin() as session:
        agent = make_agent(session, make_world(session))
        make_memory(session, agent, description="Isabella is planning a Valentine's party")


def test_analyst_reads_the_memory_stream_view(database_url: str, seeded: None) -> None:
    columns, rows = run_query(
        analyst_url(database_url), "SELECT agent, description FROM memory_stream"
    )
    assert columns == ["agent", "description"]
    assert rows == [("Isabella Rodriguez", "Isabella is planning a Valentine's party")]
    table = format_table(columns, rows)
    assert "Valentine's party" in table and table.endswith("(1 row)")


@pytest.mark.parametrize(
    "query",
    [
        "SELECT * FROM memories",
        "SELECT * FROM api_keys",
        "DELETE FROM memories",
        "UPDATE worlds SET name = 'x'",
        "CREATE TABLE mine (x int)",
    ],
)
def test_analyst_cannot_touch_tables(database_url: str, seeded: None, query: str) -> None:
    with pytest.raises(sa.exc.DBAPIError, match=r"permission denied|read-only"):
        run_query(analyst_url(database_url), query)


def test_analyst_cannot_write_through_a_view(database_url: str, seeded: None) -> None:
    with pytest.raises(sa.exc.DBAPIError, match=r"permission denied|read-only|cannot delete"):
        run_query(analyst_url(database_url), "DELETE FROM memory_stream")


def test_every_analyst_view_answers(database_url: str) -> None:
    for view in ("memory_stream", "reflection_evidence", "plan_tree", "dialogue",
                 "relationships_now", "llm_usage", "heard", "relationship_pairs"):  # fmt: skip
        columns, _ = run_query(analyst_url(database_url), f"SELECT * FROM {view} LIMIT 1")
        assert columns, view


def test_reflection_evidence_walks_the_tree_with_levels(
    database_url: str, sessions: sessionmaker[Session]
) -> None:
    from db.models import MemoryEvidence

    with sessions.begin() as session:
        agent = make_agent(session, make_world(session))
        seen = make_memory(session, agent, description="Klaus reads about gentrification")
        inner = make_memory(session, agent, kind="reflection", depth=1,
                            description="Klaus is dedicated to his research")  # fmt: skip
        outer = make_memory(session, agent, kind="reflection", depth=2,
                            description="Klaus cares about his neighbourhood")  # fmt: skip
        session.add_all([MemoryEvidence(reflection_id=inner.id, evidence_id=seen.id),
                         MemoryEvidence(reflection_id=outer.id, evidence_id=inner.id)])  # fmt: skip
        outer_id, seen_id = outer.id, seen.id
    _, rows = run_query(
        analyst_url(database_url),
        f"SELECT evidence_id, tree_level FROM reflection_evidence WHERE reflection_id = {outer_id} "
        "ORDER BY tree_level",
    )
    assert [row[1] for row in rows] == [1, 2]
    assert rows[-1][0] == seen_id


def test_heard_names_the_listener_of_every_line(
    database_url: str, sessions: sessionmaker[Session]
) -> None:
    from db.models import Conversation, Utterance

    with sessions.begin() as session:
        world = make_world(session)
        junie = make_agent(session, world, name="Junie Halvorsen")
        tomas = make_agent(session, world, name="Tomas Ferreira")
        talk = Conversation(world_id=world.id, initiator_id=junie.id, partner_agent_id=tomas.id,
                            started_at=GAME_START)  # fmt: skip
        chat = Conversation(world_id=world.id, initiator_id=tomas.id, partner_player="Ana",
                            started_at=GAME_START)  # fmt: skip
        session.add_all([talk, chat])
        session.flush()
        session.add_all([
            Utterance(conversation_id=talk.id, seq=1, speaker_agent_id=junie.id,
                      text="I'm hosting a party!", spoken_at=GAME_START),
            Utterance(conversation_id=talk.id, seq=2, speaker_agent_id=tomas.id,
                      text="I'd love to come!", spoken_at=GAME_START + timedelta(minutes=1)),
            Utterance(conversation_id=chat.id, seq=1, speaker_player="Ana",
                      text="Walter is running.", spoken_at=GAME_START),
            Utterance(conversation_id=chat.id, seq=2, speaker_agent_id=tomas.id,
                      text="Is he?", spoken_at=GAME_START),
        ])  # fmt: skip
    _, rows = run_query(
        analyst_url(database_url),
        "SELECT listener, speaker, speaker_is_player, text FROM heard ORDER BY utterance_id",
    )
    assert rows == [
        ("Tomas Ferreira", "Junie Halvorsen", False, "I'm hosting a party!"),
        ("Junie Halvorsen", "Tomas Ferreira", False, "I'd love to come!"),
        ("Tomas Ferreira", "Ana", True, "Walter is running."),
    ]  # the agent's line to a player has no agent to hear it


def test_relationship_pairs_are_mutual_and_dated_by_the_later_side(
    database_url: str, sessions: sessionmaker[Session]
) -> None:
    from db.queries.relationships import set_relationship

    with sessions.begin() as session:
        world = make_world(session)
        a, b, c = (make_agent(session, world, name=n) for n in ("Ada", "Ben", "Cy"))
        later = GAME_START + timedelta(hours=5)
        views = ((a, b, GAME_START, 7), (b, a, later, 7), (a, c, GAME_START, 7),
                 (a, b, later + timedelta(hours=1), 9))  # fmt: skip
        for me, other, at, sentiment in views:
            set_relationship(session, agent_id=me.id, other_name=other.name,
                             other_agent_id=other.id, summary=f"liked {sentiment}",
                             sentiment=sentiment, at=at)  # fmt: skip
    url = analyst_url(database_url)
    _, rows = run_query(url, "SELECT agent, other, since, sentiment FROM relationship_pairs")
    assert rows == [("Ada", "Ben", later, 9)]  # Cy holds no view of Ada: no edge; a revision
    # changes the view, not when the pair was formed
    _, before = run_query(url, f"SELECT 1 FROM relationship_pairs WHERE since <= '{GAME_START}'")
    assert before == []
