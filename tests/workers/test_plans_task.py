"""`hearth.plan_day` and `hearth.decompose` in process, driven by the sweep on the game clock:
one outline per day, decompositions only inside the just-in-time window, each done once."""

from __future__ import annotations

from datetime import datetime
from itertools import pairwise

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from cognition.planning import ASLEEP
from cognition.schedule import DEFAULT_LEAD
from cognition.testing import ScriptedMind
from cognition.types import Granularity, PlanItem, Reaction, RelationshipUpdate
from db.models import Agent, Event, Memory, Plan, World
from db.queries.plans import current_action
from db.queries.worlds import set_clock
from db.settings import Settings
from tests.workers.support import count, drain, installed, observe, seeded
from workers.tasks.plans import decompose, plan_day
from workers.tasks.reactions import decide_reaction
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


def near(hours: list[Plan], now: datetime) -> list[Plan]:
    """The hour chunks whose tasks the window asks for at `now` (`window_to_decompose`)."""
    return [h for h in hours if h.end > now and h.start <= now + DEFAULT_LEAD][:2]


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
        # hour chunks for the current day item only: the 8 am one is more than the lead away
        assert {h.parent_id for h in hours} == {days[0].id}
        _assert_tiles(days[0], hours, Granularity.HOUR)
        # tasks for the first two hour chunks not over at 7 am that start within the lead
        upcoming = near(hours, at(7))
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
        assert len(decomposed) == 1 + len(upcoming)

        for now in (at(7, 40), at(8, 10)):  # the clock moves on: the window follows it
            with sessions.begin() as session:
                set_clock(session, session.get_one(World, world.id), to=now)
            for _ in range(3):
                sweep_and_drain(queue)
            with sessions() as session:
                hours = [p for p in live(session, "hour") if p.agent_id == isabella.id]
                tasks = [p for p in live(session, "task") if p.agent_id == isabella.id]
            upcoming += near(hours, now)
        assert {h.parent_id for h in hours} == {days[0].id, days[1].id}  # noon is far off
        _assert_tiles(days[1], [h for h in hours if h.parent_id == days[1].id], Granularity.HOUR)
        assert {t.parent_id for t in tasks} == {h.id for h in upcoming}
        split = {t.parent_id for t in tasks}
        assert not any(h.start > at(8, 40) for h in hours if h.id in split)  # past the lead
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


LATE_RISER = [
    PlanItem(at(10), 120, "wake up and complete the morning routine", "Isabella's apartment"),
    PlanItem(at(12), 60, "have lunch at the cafe"),
    PlanItem(at(13), 300, "work at the cafe counter"),
    PlanItem(at(18), 240, "have dinner and read"),
    PlanItem(at(22), 720, "go to bed and sleep"),
]
HELLO = Reaction(True, what="say hello to Klaus", talk_to=None, reason="he is right there")


def test_a_reaction_before_the_outline_leaves_the_agent_never_between_plans(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    """Seen in the demo: a late riser planned at 7 am wakes at 10, and nothing covered the
    hours until then (a reaction made first had held the outline back while it lasted)."""
    world, isabella, _ = seeded(sessions)  # 7 am, summarised, nothing planned yet
    agent_id = str(isabella.id)
    mind = ScriptedMind(
        {
            "plan_day": lambda **_: list(LATE_RISER),
            "react": [HELLO],
            "relationship": lambda **kw: RelationshipUpdate(f"{kw['name']} knows them", 6),
        }
    )
    with installed(settings, sessions, mind) as queue:
        seen = observe(sessions, isabella.id, ["Klaus Mueller is reading a book"], at(7))
        assert decide_reaction(agent_id, seen[0])["react"] is True  # 7:00–7:15, no outline
        for minute in (5, 20):  # the sweep during the reaction, then after it
            with sessions.begin() as session:
                set_clock(session, session.get_one(World, world.id), to=at(7, minute))
            sweep_and_drain(queue)
        with sessions() as session:
            planned = session.get_one(Agent, isabella.id).planned_day
            reaction = session.scalars(
                sa.select(Plan).where(Plan.description == HELLO.what, Plan.level == "day")
            ).one()
            doing = {
                t: current_action(session, agent_id=isabella.id, at=t)
                for t in (at(7, 10), at(7, 15), at(8), at(9, 59), at(10), at(14), at(23, 59))
            }
            days = [p for p in live(session, "day") if p.agent_id == isabella.id]
    outlines = [call["persona"].name for call in mind.inputs("plan_day")]
    assert planned == DAY.date() and outlines.count(isabella.name) == 1  # today's outline came
    assert all(action is not None for action in doing.values()), doing
    # the outline did not clobber the reaction: laid around it, nothing else covers 7:10
    assert [p.id for p in days if p.start <= at(7, 10) < p.end] == [reaction.id]
    assert (reaction.status, reaction.end) == ("planned", at(7, 15))
    # after it the agent sleeps until it wakes up, then follows its outline
    assert [(d.start, d.description) for d in days[:3]] == [
        (at(7), HELLO.what),
        (at(7, 15), ASLEEP),
        (at(10), LATE_RISER[0].description),
    ]
    woken, asleep = doing[at(10)], doing[at(9, 59)]
    assert woken is not None and woken.start >= at(10)
    assert asleep is not None and asleep.description == ASLEEP


def _assert_tiles(parent: Plan, steps: list[Plan], granularity: Granularity) -> None:
    low, high = (5, 15) if granularity is Granularity.TASK else (1, 60)
    assert steps, f"{parent.description} has no steps"
    assert steps[0].start == parent.start and steps[-1].end == parent.end
    for before, after in pairwise(steps):
        assert before.end == after.start
    assert all(low <= s.duration_min <= high for s in steps)
