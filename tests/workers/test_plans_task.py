"""`hearth.plan_day` and `hearth.decompose` in process, driven by the sweep on the game clock:
one outline per day, decompositions only inside the just-in-time window, each done once."""

from __future__ import annotations

from datetime import datetime
from itertools import pairwise

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from cognition.testing import ScriptedMind
from cognition.types import Granularity, PlanItem
from db.models import Agent, Event, Memory, Plan, World
from db.queries.plans import end_of
from db.queries.worlds import set_clock
from db.settings import Settings
from tests.workers.support import count, drain, installed, seeded
from workers.tasks.plans import decompose, plan_day
from workers.tasks.sweep import sweep_worlds

DAY = datetime(2023, 2, 13)


def at(hour: int, minute: int = 0) -> datetime:
    return DAY.replace(hour=hour, minute=minute)


OUTLINE = [
    PlanItem(at(6, 30), 90, "wake up and complete the morning routine"),
    PlanItem(at(8), 240, "open Hobbs Cafe and serve breakfast", "Hobbs Cafe: counter"),
    PlanItem(at(12), 60, "have lunch at the cafe"),
    PlanItem(at(13), 300, "work at the cafe counter"),
    PlanItem(at(18), 180, "have dinner and read"),
    PlanItem(at(21), 570, "go to bed and sleep"),
]


def planning_mind() -> ScriptedMind:
    return ScriptedMind({"plan_day": lambda **_: list(OUTLINE)})


def live(session: Session, level: str) -> list[Plan]:
    query = sa.select(Plan).where(Plan.level == level, Plan.status != "superseded")
    return list(session.scalars(query.order_by(Plan.start, Plan.id)))


def sweep_and_drain(queue: object) -> None:
    sweep_worlds()
    drain(queue, skip=frozenset({"hearth.summarize"}))  # type: ignore[arg-type]


def test_the_sweep_plans_the_day_once_and_decomposes_only_inside_the_window(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    world, isabella, _ = seeded(sessions)
    mind = planning_mind()
    with installed(settings, sessions, mind) as queue:
        for _ in range(4):  # outline, hour chunks, tasks, then nothing new
            sweep_and_drain(queue)
        with sessions() as session:
            days = [p for p in live(session, "day") if p.agent_id == isabella.id]
            hours = [p for p in live(session, "hour") if p.agent_id == isabella.id]
            tasks = [p for p in live(session, "task") if p.agent_id == isabella.id]
            memory = session.scalars(
                sa.select(Memory).where(Memory.kind == "plan", Memory.agent_id == isabella.id)
            ).one()
            planned = session.get_one(Agent, isabella.id).planned_day
        assert [d.description for d in days] == [i.description for i in OUTLINE]
        assert 5 <= len(days) <= 8 and planned == DAY.date()
        assert memory.description.startswith("This is Isabella Rodriguez's plan for Monday")
        # hour chunks for the current and next day items only (7 am: 6:30 and 8:00 items)
        assert {h.parent_id for h in hours} == {days[0].id, days[1].id}
        for day in days[:2]:
            _assert_tiles(day, [h for h in hours if h.parent_id == day.id], Granularity.HOUR)
        # tasks for the first two hour chunks not over at 7 am only
        upcoming = [h for h in hours if end_of(h) > at(7)][:2]
        assert {t.parent_id for t in tasks} == {h.id for h in upcoming}
        for hour in upcoming:
            _assert_tiles(hour, [t for t in tasks if t.parent_id == hour.id], Granularity.TASK)
        planned_for = sorted(call["persona"].name for call in mind.inputs("plan_day"))
        assert planned_for == ["Isabella Rodriguez", "Klaus Mueller"]  # one outline each
        decomposed = [
            call
            for call in mind.inputs("decompose")
            if call["persona"].name == "Isabella Rodriguez"
        ]
        assert len(decomposed) == 2 + 2

        with sessions.begin() as session:  # the clock moves on: the window follows it
            set_clock(session, session.get_one(World, world.id), to=at(8, 10))
        for _ in range(3):
            sweep_and_drain(queue)
        with sessions() as session:
            hours = [p for p in live(session, "hour") if p.agent_id == isabella.id]
            tasks = [p for p in live(session, "task") if p.agent_id == isabella.id]
        assert {h.parent_id for h in hours} == {days[0].id, days[1].id, days[2].id}
        window = [h for h in hours if end_of(h) > at(8, 10)][:2]
        assert {t.parent_id for t in tasks} == {h.id for h in upcoming} | {h.id for h in window}
        assert not any(t.start >= end_of(window[-1]) for t in tasks)  # nothing past the window
        assert all(
            not d.description.endswith("sleep")
            for d in days
            if d.id in {h.parent_id for h in hours}
        )
    with sessions() as session:
        created = [
            e
            for e in session.scalars(sa.select(Event).where(Event.type == "plan_created"))
            if e.payload["agent_id"] == str(isabella.id)
        ]
    split = {h.parent_id for h in hours} | {t.parent_id for t in tasks}
    assert len(created) == 1 + len(split)  # the outline, then one event per decomposition


def test_plan_day_and_decompose_run_twice_do_the_work_once(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    _, isabella, _ = seeded(sessions)
    agent_id, today = str(isabella.id), DAY.date().isoformat()
    mind = planning_mind()
    with installed(settings, sessions, mind):
        assert plan_day(agent_id, today) == {"items": 6}
        assert plan_day(agent_id, today) == {"items": 0}
        assert plan_day(agent_id, "2023-02-12") == {"items": 0}  # a past day is not planned
        with sessions() as session:
            first = live(session, "day")[1]
        assert decompose(agent_id, first.id, "hour")["steps"] == 4
        assert decompose(agent_id, first.id, "hour") == {"steps": 0}
        assert decompose(agent_id, first.id, "task") == {"steps": 0}  # a day item has no tasks
    assert mind.count("plan_day") == 1
    assert mind.count("decompose") == 1
    with sessions() as session:
        assert count(session, Plan, Plan.level == "day") == 6
        assert count(session, Plan, Plan.level == "hour") == 4


def test_steps_of_an_item_superseded_while_the_model_thought_are_dropped(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    _, isabella, _ = seeded(sessions)
    agent_id, today = str(isabella.id), DAY.date().isoformat()

    def decompose_while_replanned(*, item: PlanItem, **_: object) -> list[PlanItem]:
        with sessions.begin() as other:  # a reaction supersedes the item meanwhile
            other.execute(
                sa.update(Plan)
                .where(Plan.start == item.start, Plan.level == "day")
                .values(status="superseded")
            )
        return [PlanItem(item.start, item.duration_min, "anything")]

    mind = ScriptedMind(
        {"plan_day": lambda **_: list(OUTLINE), "decompose": decompose_while_replanned}
    )
    with installed(settings, sessions, mind):
        plan_day(agent_id, today)
        with sessions() as session:
            first = live(session, "day")[1]
        assert decompose(agent_id, first.id, "hour") == {"steps": 0}
    with sessions() as session:
        assert count(session, Plan, Plan.parent_id == first.id) == 0


def _assert_tiles(parent: Plan, steps: list[Plan], granularity: Granularity) -> None:
    low, high = (5, 15) if granularity is Granularity.TASK else (1, 60)
    assert steps, f"{parent.description} has no steps"
    assert steps[0].start == parent.start and end_of(steps[-1]) == end_of(parent)
    for before, after in pairwise(steps):
        assert end_of(before) == after.start
    assert all(low <= s.duration_min <= high for s in steps)
