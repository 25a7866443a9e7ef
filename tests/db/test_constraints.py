"""The schema refuses what the domain forbids, whatever code path writes it."""

from __future__ import annotations

from datetime import timedelta

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session

from db.models import MemoryEvidence, Plan
from tests.factories import GAME_START, make_agent, make_memory, make_world


@pytest.mark.parametrize("importance", [0, 11, -3])
def test_importance_outside_1_to_10_is_refused(session: Session, importance: int) -> None:
    agent = make_agent(session, make_world(session))
    with pytest.raises(sa.exc.IntegrityError, match="importance_range"):
        make_memory(session, agent, importance=importance)


def test_importance_at_the_bounds_is_accepted(session: Session) -> None:
    agent = make_agent(session, make_world(session))
    assert (
        make_memory(session, agent, importance=1).id < make_memory(session, agent, importance=10).id
    )


def test_a_reflection_cannot_cite_itself(session: Session) -> None:
    agent = make_agent(session, make_world(session))
    reflection = make_memory(session, agent, kind="reflection", depth=1)
    session.add(MemoryEvidence(reflection_id=reflection.id, evidence_id=reflection.id))
    with pytest.raises(sa.exc.IntegrityError, match="no_self_citation"):
        session.flush()


def test_depth_follows_kind(session: Session) -> None:
    agent = make_agent(session, make_world(session))
    with pytest.raises(sa.exc.IntegrityError, match="depth_by_kind"):
        make_memory(session, agent, kind="observation", depth=2)


def test_unknown_memory_kind_is_refused(session: Session) -> None:
    agent = make_agent(session, make_world(session))
    with pytest.raises(sa.exc.IntegrityError, match="ck_memories_kind"):
        make_memory(session, agent, kind="dream")


def _plan(agent_id: object, **fields: object) -> Plan:
    defaults: dict[str, object] = dict(
        agent_id=agent_id, level="day", start=GAME_START, duration_min=60, description="work"
    )
    defaults.update(fields)
    return Plan(**defaults)


def test_plan_levels_are_day_hour_task_only(session: Session) -> None:
    agent = make_agent(session, make_world(session))
    session.add(_plan(agent.id, level="week"))
    with pytest.raises(sa.exc.IntegrityError, match="ck_plans_level"):
        session.flush()


def test_only_day_plans_are_roots(session: Session) -> None:
    agent = make_agent(session, make_world(session))
    day = _plan(agent.id)
    session.add(day)
    session.flush()
    session.add(
        _plan(agent.id, level="hour", parent_id=day.id, start=GAME_START + timedelta(hours=1))
    )
    session.flush()  # an hour under a day is fine
    session.add(_plan(agent.id, level="task"))
    with pytest.raises(sa.exc.IntegrityError, match="only_days_are_roots"):
        session.flush()


def test_agent_names_are_unique_per_world(session: Session) -> None:
    world = make_world(session)
    make_agent(session, world, name="Klaus")
    make_agent(session, make_world(session, name="Elsewhere"), name="Klaus")  # another world: ok
    with pytest.raises(sa.exc.IntegrityError, match="uq_agents_world_name"):
        make_agent(session, world, name="Klaus")
