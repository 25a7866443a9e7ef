"""Analysts read the views as `hearth_analyst`, and that role can do nothing else."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from service.sql_console import analyst_url, format_table, run_query
from tests.factories import make_agent, make_memory, make_world


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
