"""The beat sweep as a task body and through a real worker process: what comes due on each
running world's game clock is enqueued once however often the sweep runs; a paused world's
schedules wait; changed current actions are announced once."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

import pytest
import sqlalchemy as sa
from celery import Celery
from sqlalchemy.orm import Session, sessionmaker

from cognition.testing import ScriptedMind
from cognition.types import PlanItem, PlanLevel
from db.models import Agent, Event, World
from db.queries.plans import save_items
from db.queries.worlds import configure_clock, set_clock
from db.settings import Settings
from tests.conftest import WORKER_PROCESSES
from tests.factories import GAME_START, make_agent, make_world
from tests.workers.support import installed, seeded
from workers.app import make_celery
from workers.runtime import build_runtime, set_runtime
from workers.tasks.sweep import sweep_worlds


def test_sweep_body_counts_worlds(settings: Settings, sessions: sessionmaker[Session]) -> None:
    with sessions.begin() as session:
        make_world(session)
        make_world(session, name="Second")
    set_runtime(build_runtime(settings))
    try:
        assert sweep_worlds() == {"worlds": 2, "enqueued": 0, "actions_changed": 0}
    finally:
        set_runtime(None)


def test_due_work_is_enqueued_once_and_a_paused_world_waits(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    world, isabella, klaus = seeded(sessions)
    with sessions.begin() as session:
        session.get_one(Agent, klaus.id).summary_at = None  # never summarised: summary first
        session.get_one(Agent, isabella.id).importance_since_reflection = 151
    with installed(settings, sessions, ScriptedMind()) as queue:
        first = sweep_worlds()
        again = sweep_worlds()
        jobs = sorted((name, args) for name, args, _ in queue.queue)
        queue.queue.clear()
        with sessions.begin() as session:
            configure_clock(session, session.get_one(World, world.id), paused=True)
        paused = sweep_worlds()
    isabella_id, klaus_id = str(isabella.id), str(klaus.id)
    assert jobs == sorted(
        [
            ("hearth.plan_day", (isabella_id, "2023-02-13")),
            ("hearth.reflect", (isabella_id, 1)),
            ("hearth.summarize", (klaus_id,)),  # Klaus plans once he has a summary
        ]
    )
    assert (first["enqueued"], again["enqueued"]) == (3, 0)
    assert paused == {"worlds": 0, "enqueued": 0, "actions_changed": 0}
    assert not queue.queue


def test_a_changed_current_action_is_announced_once(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    with sessions.begin() as session:
        world = make_world(session)
        agent = make_agent(
            session, world, summary="s", summary_at=GAME_START, planned_day=GAME_START.date()
        )
        save_items(
            session,
            agent_id=agent.id,
            level=PlanLevel.DAY,
            items=[
                PlanItem(GAME_START, 30, "make coffee"),
                PlanItem(GAME_START + timedelta(minutes=30), 30, "read the news"),
            ],
        )
    with installed(settings, sessions, ScriptedMind()):
        assert sweep_worlds()["actions_changed"] == 1
        assert sweep_worlds()["actions_changed"] == 0
        with sessions.begin() as session:
            set_clock(session, session.get_one(World, world.id), to=datetime(2023, 2, 13, 7, 40))
        assert sweep_worlds()["actions_changed"] == 1
    with sessions() as session:
        announced = session.scalars(
            sa.select(Event).where(Event.type == "action_changed").order_by(Event.id)
        ).all()
    assert [e.payload["description"] for e in announced] == ["make coffee", "read the news"]


def test_last_nights_plan_holds_the_outline_back_and_a_reaction_does_not(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    _, isabella, klaus = seeded(sessions)  # 7 am, both summarised, neither planned today
    yesterday = GAME_START - timedelta(hours=12)
    with sessions.begin() as session:
        night = PlanItem(GAME_START - timedelta(hours=9), 600, "go to bed and sleep")  # to 8 am
        save_items(
            session, agent_id=isabella.id, level=PlanLevel.DAY, items=[night], decided_at=yesterday
        )
        hello = PlanItem(GAME_START, 15, "say hello to Isabella")  # a reaction made at 7 am
        save_items(
            session, agent_id=klaus.id, level=PlanLevel.DAY, items=[hello], decided_at=GAME_START
        )
    with installed(settings, sessions, ScriptedMind()) as queue:
        sweep_worlds()
        outlines = [args for name, args, _ in queue.queue if name == "hearth.plan_day"]
    assert outlines == [(str(klaus.id), "2023-02-13")]  # Isabella plans when she wakes at 8


def test_one_poisoned_world_never_stops_the_others(
    settings: Settings, sessions: sessionmaker[Session], caplog: pytest.LogCaptureFixture
) -> None:
    """A world whose clock holds a time the calendar arithmetic overflows on (stored before the
    edge refused such times) fails its own sweep, logged with its id; the others plan."""
    _, isabella, klaus = seeded(sessions)
    with sessions.begin() as session:
        poisoned = make_world(session, name="Far future")
        make_agent(session, poisoned, name="Nobody", summary="s", summary_at=GAME_START)
        session.execute(
            sa.update(World).where(World.id == poisoned.id).values(game_time=datetime(9999, 12, 31))
        )
    with caplog.at_level(logging.ERROR), installed(settings, sessions, ScriptedMind()) as queue:
        counts = sweep_worlds()
        again = sweep_worlds()
        outlines = sorted(args for name, args, _ in queue.queue if name == "hearth.plan_day")
    assert counts["failed"] == again["failed"] == 1 and counts["worlds"] == 1
    assert outlines == sorted([(str(isabella.id), "2023-02-13"), (str(klaus.id), "2023-02-13")])
    failures = [r for r in caplog.records if r.name == "db.flows.sweep"]
    assert failures and all(getattr(r, "world_id", None) == str(poisoned.id) for r in failures)
    assert str(poisoned.id) in failures[0].getMessage() and failures[0].exc_info is not None


@pytest.mark.worker
def test_sweep_runs_in_a_real_worker(
    settings: Settings, sessions: sessionmaker[Session], celery_worker: None
) -> None:
    with sessions.begin() as session:
        make_world(session)
    app = make_celery(redis_url=str(settings.redis_url))
    assert _sweep(app) == {"worlds": 1, "enqueued": 0, "actions_changed": 0}


def _sweep(app: Celery) -> object:
    """One sweep's result. The harness ends the session worker's connections when a previous
    test's job holds locks past its truncate; the beat sends the sweep again seconds later,
    so a sweep that met such a closed connection is sent again, as the beat would. Each of the
    worker's processes finds its own pool dead once (SQLAlchemy then renews that pool), so a
    sweep is sent at most once more per process."""
    for _ in range(WORKER_PROCESSES):
        try:
            return app.send_task("hearth.sweep_worlds").get(timeout=30)
        except Exception as exc:  # the worker's error, re-raised here by Celery
            if "terminating connection" not in str(exc):
                raise
    return app.send_task("hearth.sweep_worlds").get(timeout=30)
