"""`hearth.summarize` in process: remade only when stale, once however often it is asked."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy.orm import Session, sessionmaker

from cognition.testing import ScriptedMind
from db.models import Agent, World
from db.queries.worlds import set_clock
from db.settings import Settings
from tests.factories import GAME_START
from tests.workers.support import installed, observe, seeded
from workers.tasks.summaries import summarize


def test_a_summary_is_remade_when_stale_and_only_then(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    world, isabella, _ = seeded(sessions)
    agent_id = str(isabella.id)
    mind = ScriptedMind({"summarize_agent": lambda **_: "Isabella Rodriguez is a cafe owner."})
    with installed(settings, sessions, mind):
        assert summarize(agent_id) == {"summarized": False}  # made at 7 am: fresh
        later = GAME_START + timedelta(minutes=5)
        with sessions.begin() as session:
            set_clock(session, session.get_one(World, world.id), to=later)
        observe(sessions, isabella.id, [f"a customer ordered tea {n}" for n in range(50)], later)
        assert summarize(agent_id) == {"summarized": True}  # 50 memories since
        assert summarize(agent_id) == {"summarized": False}  # a redelivery: fresh again
        with sessions.begin() as session:
            set_clock(session, session.get_one(World, world.id), to=later + timedelta(days=1))
        assert summarize(agent_id) == {"summarized": True}  # a game day old
    assert mind.count("summarize_agent") == 2
    with sessions() as session:
        agent = session.get_one(Agent, isabella.id)
    assert agent.summary == "Isabella Rodriguez is a cafe owner."
    assert agent.summary_at == GAME_START + timedelta(days=1, minutes=5)
    assert agent.memories_at_summary == 50
