"""The mind's level of detail (issue 22): in a world whose `mind_focus` is `focused`, the agent
loop's jobs for the agent the game marks in focus reach the model (the fake server), those of
the agent out of focus are the offline mind's and never reach it, each call audited with its
focus; and flipping focus moves the model calls over without touching what either agent
remembers or planned. The world's budget still bounds the focused agent; in a world that keeps
the default, an agent out of focus still thinks with the model."""

from __future__ import annotations

import uuid
from collections import Counter
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from bench.responder import OfflineResponder
from db.flows import step as game_step
from db.models import Agent, LlmCall, Memory, Plan, World
from db.providers import build_mind
from db.settings import Settings
from tests.factories import GAME_START
from tests.fakes.openai_server import FakeOpenAI
from tests.workers.support import drain, installed, seeded
from workers.local_queue import LocalDispatch
from workers.tasks.sweep import sweep_worlds

MODEL = "gpt-test"
OFFLINE = "offline-heuristic"
SKIP = frozenset({"hearth.summarize"})


@dataclass(frozen=True)
class _Reported:
    """One agent of a step that only says whether it is in focus."""

    agent_id: uuid.UUID
    in_focus: bool | None
    place: str | None = None
    position: dict[str, Any] | None = None
    perceived: tuple[Any, ...] = ()


def _step_focus(sessions: sessionmaker[Session], world_id: uuid.UUID, **marks: bool) -> None:
    """A step (the route's flow) that marks agents by id string in or out of focus."""
    with sessions.begin() as session:
        world = session.get_one(World, world_id)
        agents = [_Reported(uuid.UUID(i), in_focus=f) for i, f in marks.items()]
        game_step.report(session, world=world, agents=agents, focal=True)


def _think(queue: LocalDispatch, sessions: sessionmaker[Session], world_id: uuid.UUID) -> None:
    for _ in range(3):  # outlines, hour chunks, tasks
        sweep_worlds()
        drain(queue, skip=SKIP)


def _calls(sessions: sessionmaker[Session], world_id: uuid.UUID) -> Counter[tuple[Any, ...]]:
    """(agent, model, focus) of the world's successful calls, counted."""
    query = sa.select(LlmCall.agent_id, LlmCall.model, LlmCall.focus).where(
        LlmCall.world_id == world_id, LlmCall.error.is_(None)
    )
    with sessions() as session:
        return Counter(tuple(row) for row in session.execute(query))


def _kept(sessions: sessionmaker[Session], agent_id: uuid.UUID) -> tuple[set[Any], set[int]]:
    """The agent's plans (id, status, description) and memory ids."""
    with sessions() as session:
        plans = session.execute(
            sa.select(Plan.id, Plan.status, Plan.description).where(Plan.agent_id == agent_id)
        )
        memories = session.scalars(sa.select(Memory.id).where(Memory.agent_id == agent_id))
        return {tuple(p) for p in plans}, set(memories)


def _stand_ins(sessions: sessionmaker[Session], agent_id: uuid.UUID) -> int:
    query = sa.select(sa.func.count()).where(Plan.agent_id == agent_id, Plan.stand_in)
    with sessions() as session:
        return int(session.scalar(query) or 0)


def _llm(settings: Settings, fake: FakeOpenAI) -> Settings:
    return settings.model_copy(
        update={"llm_base_url": fake.base_url, "llm_model": MODEL, "llm_api_key": "k"}
    )


def test_only_the_agent_in_focus_reaches_the_model_and_flipping_keeps_what_they_had(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    world, isabella, klaus = seeded(sessions, settings={"mind_focus": "focused"})
    _step_focus(sessions, world.id, **{str(isabella.id): True, str(klaus.id): False})
    with FakeOpenAI(chat_responder=OfflineResponder(year=GAME_START.year)) as fake:
        llm = _llm(settings, fake)
        with installed(llm, sessions, build_mind(llm)) as queue:
            _think(queue, sessions, world.id)
            first, sent_first = _calls(sessions, world.id), fake.calls()
            his_stand_ins, her_stand_ins = (
                _stand_ins(sessions, klaus.id),
                _stand_ins(sessions, isabella.id),
            )
            her_before, his_before = _kept(sessions, isabella.id), _kept(sessions, klaus.id)

            _step_focus(sessions, world.id, **{str(isabella.id): False, str(klaus.id): True})
            with sessions() as session:
                focus = {a: f for a, f in session.execute(sa.select(Agent.id, Agent.in_focus))}
            assert focus == {isabella.id: False, klaus.id: True}  # sticky, as the step set it
            assert _kept(sessions, isabella.id) == her_before  # the flip alone changes nothing
            assert _kept(sessions, klaus.id) == his_before
            with sessions.begin() as session:  # an hour on: both decompose their next hour
                moved = session.get_one(World, world.id)
                moved.game_time = moved.game_time + timedelta(hours=1)
            _think(queue, sessions, world.id)
            second, sent_second = _calls(sessions, world.id), fake.calls()

    assert first[(isabella.id, MODEL, "focused")] > 0  # she planned with the model
    assert first[(klaus.id, OFFLINE, "unfocused")] > 0  # he planned offline …
    assert not [k for k in first if k[0] == klaus.id and k[1] != OFFLINE]  # … and only offline
    assert not [k for k in first if k[1] == MODEL and k[2] != "focused"]
    assert sent_first == sum(n for k, n in first.items() if k[1] == MODEL)  # no other request
    assert his_stand_ins == 0  # his offline plan is his plan: no stand-in while out of focus

    after = second - first
    assert after[(klaus.id, MODEL, "focused")] > 0  # now he reaches the model
    assert not [k for k in after if k[0] == isabella.id and k[1] != OFFLINE]  # and she does not
    assert sent_second - sent_first == sum(n for k, n in after.items() if k[1] == MODEL)
    assert _stand_ins(sessions, isabella.id) == her_stand_ins  # none made out of focus
    assert _stand_ins(sessions, klaus.id) > 0  # in focus, the model's plans have stand-ins

    plans, memories = _kept(sessions, isabella.id)
    before_plans, before_memories = her_before
    assert before_memories <= memories  # she forgot nothing
    still = {(plan_id, status) for plan_id, status, _ in plans}
    assert {(p, s) for p, s, _ in before_plans if s == "superseded"} <= still
    superseded_now = {p for p, s in still if s == "superseded"}
    assert not superseded_now & {p for p, s, _ in before_plans if s != "superseded"}  # no re-plan
    assert {p for p, _, _ in before_plans} <= {p for p, _ in still}  # every plan kept


def test_a_world_that_keeps_the_default_thinks_with_the_model_for_everyone(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    world, isabella, klaus = seeded(sessions)
    _step_focus(sessions, world.id, **{str(isabella.id): True})  # a mark, but policy `all`
    with FakeOpenAI(chat_responder=OfflineResponder(year=GAME_START.year)) as fake:
        llm = _llm(settings, fake)
        with installed(llm, sessions, build_mind(llm)) as queue:
            _think(queue, sessions, world.id)
    calls = _calls(sessions, world.id)
    assert calls[(isabella.id, MODEL, "focused")] > 0
    assert calls[(klaus.id, MODEL, "unfocused")] > 0  # labelled, but not held back


def test_the_worlds_budget_still_bounds_the_agents_in_focus(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    world, isabella, klaus = seeded(
        sessions, settings={"mind_focus": "focused", "budget": {"per_game_day": {"calls": 2}}}
    )
    _step_focus(sessions, world.id, **{str(isabella.id): True})
    with FakeOpenAI(chat_responder=OfflineResponder(year=GAME_START.year)) as fake:
        llm = _llm(settings, fake)
        with installed(llm, sessions, build_mind(llm)) as queue:
            _think(queue, sessions, world.id)
        sent = fake.calls()
    calls = _calls(sessions, world.id)
    assert sent == 2 == calls[(isabella.id, MODEL, "focused")]  # the limit, and no more
    assert calls[(isabella.id, OFFLINE, "focused")] > 0  # past it, the offline mind (degraded)
    assert not [k for k in calls if k[0] == klaus.id and k[1] != OFFLINE]
