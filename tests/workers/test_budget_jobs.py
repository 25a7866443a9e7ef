"""The agent loop's jobs spend their world's model budget: with the LLM mind on the fake model
server, the sweep's planning and decomposition reach the model up to the limit and the offline
mind plans the rest, so the agents still have a day — and a world without a budget is not
held back by one that has spent its own."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from bench.responder import OfflineResponder
from db.models import BudgetSpend, LlmCall, Plan
from db.providers import build_mind
from db.settings import Settings
from tests.factories import GAME_START
from tests.fakes.openai_server import FakeOpenAI
from tests.workers.support import drain, installed, seeded
from workers.tasks.sweep import sweep_worlds

LIMIT = 2


def test_jobs_stop_reaching_the_model_at_the_worlds_budget(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    capped, *capped_agents = seeded(
        sessions, settings={"budget": {"per_game_day": {"calls": LIMIT}}}
    )
    free, *_ = seeded(sessions, name="Freeville")
    with FakeOpenAI(chat_responder=OfflineResponder(year=GAME_START.year)) as fake:
        llm = settings.model_copy(
            update={"llm_base_url": fake.base_url, "llm_model": "gpt-test", "llm_api_key": "k"}
        )
        with installed(llm, sessions, build_mind(llm)) as queue:
            for _ in range(3):  # outlines, hour chunks, tasks
                sweep_worlds()
                drain(queue, skip=frozenset({"hearth.summarize"}))
    with sessions() as session:
        by_world = dict(
            session.execute(
                sa.select(LlmCall.world_id, sa.func.count())
                .where(LlmCall.model == "gpt-test", LlmCall.error.is_(None))
                .group_by(LlmCall.world_id)
            ).all()
        )
        offline = session.scalar(
            sa.select(BudgetSpend.answered_offline).where(BudgetSpend.world_id == capped.id)
        )
        planned = {
            agent_id
            for (agent_id,) in session.execute(sa.select(Plan.agent_id).where(Plan.level == "day"))
        }
    assert by_world[capped.id] == LIMIT
    assert by_world[free.id] > LIMIT  # the other world kept its model
    assert offline is not None and offline > 0
    assert {a.id for a in capped_agents} <= planned  # the offline mind planned the rest
