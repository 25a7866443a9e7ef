"""Analysts read the views as `hearth_analyst`, and that role can do nothing else."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from service.sql_console import analyst_url, format_table, render, run_query
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
    for view in (
        "memory_stream",
        "reflection_evidence",
        "plan_tree",
        "dialogue",
        "relationships_now",
        "llm_usage",
        "heard",
        "relationship_pairs",
    ):
        columns, _ = run_query(analyst_url(database_url), f"SELECT * FROM {view} LIMIT 1")
        assert columns, view


def test_reflection_evidence_walks_the_tree_with_levels(
    database_url: str, sessions: sessionmaker[Session]
) -> None:
    from db.models import MemoryEvidence

    with sessions.begin() as session:
        agent = make_agent(session, make_world(session))
        seen = make_memory(session, agent, description="Klaus reads about gentrification")
        inner = make_memory(
            session,
            agent,
            kind="reflection",
            depth=1,
            description="Klaus is dedicated to his research",
        )
        outer = make_memory(
            session,
            agent,
            kind="reflection",
            depth=2,
            description="Klaus cares about his neighbourhood",
        )
        session.add_all(
            [
                MemoryEvidence(reflection_id=inner.id, evidence_id=seen.id),
                MemoryEvidence(reflection_id=outer.id, evidence_id=inner.id),
            ]
        )
        outer_id, seen_id = outer.id, seen.id
    _, rows = run_query(
        analyst_url(database_url),
        f"SELECT evidence_id, tree_level FROM reflection_evidence WHERE reflection_id = {outer_id} "
        "ORDER BY tree_level",
    )
    assert [row[1] for row in rows] == [1, 2]
    assert rows[-1][0] == seen_id


@pytest.mark.parametrize(
    "statement",
    [
        "CREATE TEMP TABLE mine (x int)",
        "SELECT lo_create(0)",
        "CREATE TABLE public.mine (x int)",
        "INSERT INTO memories (description) VALUES ('x')",
    ],
)
def test_analyst_cannot_write_even_in_a_read_write_transaction(
    database_url: str, statement: str
) -> None:
    """A direct login (psql) may open `BEGIN READ WRITE`: privileges, not the mode, stop it."""
    engine = sa.create_engine(analyst_url(database_url), poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            conn.exec_driver_sql("SET TRANSACTION READ WRITE")
            with pytest.raises(sa.exc.DBAPIError, match="permission denied"):
                conn.exec_driver_sql(statement)
    finally:
        engine.dispose()


def test_the_console_runs_one_read_only_statement(database_url: str) -> None:
    url = analyst_url(database_url)
    with pytest.raises(sa.exc.DBAPIError, match="multiple commands"):
        run_query(url, "COMMIT; BEGIN READ WRITE; SELECT 1")
    with pytest.raises(sa.exc.DBAPIError, match="read-only transaction"):
        run_query(url, "CREATE TEMP TABLE mine (x int)")


def test_the_console_times_a_long_query_out(database_url: str) -> None:
    with pytest.raises(sa.exc.DBAPIError, match="statement timeout"):
        run_query(analyst_url(database_url), "SELECT pg_sleep(5)", timeout_s=0.2)
    _, rows = run_query(analyst_url(database_url), "SHOW statement_timeout", timeout_s=12)
    assert rows == [("12s",)]


def test_the_role_has_a_statement_timeout_by_default(database_url: str) -> None:
    engine = sa.create_engine(analyst_url(database_url), poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            assert conn.exec_driver_sql("SHOW statement_timeout").scalar() == "30s"
    finally:
        engine.dispose()


def test_results_as_csv_json_and_full_cells() -> None:
    long = "x" * 100
    columns, rows = ["n", "text"], [(1, long), (2, 'a "quoted", line\nbreak'), (3, None)]
    assert "…" in render(columns, rows) and long not in render(columns, rows)
    assert long in render(columns, rows, full=True)
    assert render(columns, rows, fmt="csv").splitlines()[:2] == ["n,text", f"1,{long}"]
    assert '"a ""quoted"", line\nbreak"' in render(columns, rows, fmt="csv")
    assert json.loads(render(columns, rows, fmt="json")) == [
        {"n": 1, "text": long},
        {"n": 2, "text": 'a "quoted", line\nbreak'},
        {"n": 3, "text": None},
    ]


def test_heard_names_the_listener_of_every_line(
    database_url: str, sessions: sessionmaker[Session]
) -> None:
    from db.models import Conversation, Utterance

    with sessions.begin() as session:
        world = make_world(session)
        junie = make_agent(session, world, name="Junie Halvorsen")
        tomas = make_agent(session, world, name="Tomas Ferreira")
        talk = Conversation(
            world_id=world.id,
            initiator_id=junie.id,
            partner_agent_id=tomas.id,
            started_at=GAME_START,
        )
        chat = Conversation(
            world_id=world.id, initiator_id=tomas.id, partner_player="Ana", started_at=GAME_START
        )
        session.add_all([talk, chat])
        session.flush()
        session.add_all(
            [
                Utterance(
                    conversation_id=talk.id,
                    seq=1,
                    speaker_agent_id=junie.id,
                    text="I'm hosting a party!",
                    spoken_at=GAME_START,
                ),
                Utterance(
                    conversation_id=talk.id,
                    seq=2,
                    speaker_agent_id=tomas.id,
                    text="I'd love to come!",
                    spoken_at=GAME_START + timedelta(minutes=1),
                ),
                Utterance(
                    conversation_id=chat.id,
                    seq=1,
                    speaker_player="Ana",
                    text="Walter is running.",
                    spoken_at=GAME_START,
                ),
                Utterance(
                    conversation_id=chat.id,
                    seq=2,
                    speaker_agent_id=tomas.id,
                    text="Is he?",
                    spoken_at=GAME_START,
                ),
            ]
        )
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
        views = (
            (a, b, GAME_START, 7),
            (b, a, later, 7),
            (a, c, GAME_START, 7),
            (a, b, later + timedelta(hours=1), 9),
        )
        for me, other, at, sentiment in views:
            set_relationship(
                session,
                agent_id=me.id,
                other_name=other.name,
                other_agent_id=other.id,
                summary=f"liked {sentiment}",
                sentiment=sentiment,
                at=at,
            )
    url = analyst_url(database_url)
    _, rows = run_query(url, "SELECT agent, other, since, sentiment FROM relationship_pairs")
    assert rows == [("Ada", "Ben", later, 9)]  # Cy holds no view of Ada: no edge; a revision
    # changes the view, not when the pair was formed
    _, before = run_query(url, f"SELECT 1 FROM relationship_pairs WHERE since <= '{GAME_START}'")
    assert before == []
