"""Stand-ins (issue 24): with a model configured, `hearth.plan_day` and `hearth.decompose`
commit the offline mind's outline or steps before the model is asked, so the agent has a
current action while the model thinks; the model's plan then supersedes what of the stand-in
was not lived, and keeps what was. Task bodies run in process; the scripted model looks at the
committed plan and moves the game clock while it "thinks", as a model on a CPU would."""

from __future__ import annotations

from datetime import datetime
from itertools import pairwise

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from cognition.testing import ScriptedMind
from cognition.types import PlanItem, Reaction, RelationshipUpdate
from db.models import Agent, Memory, Plan, World
from db.queries.plans import current_action
from db.queries.worlds import set_clock
from db.settings import Settings
from tests.workers.support import count, installed, observe, seeded
from workers.tasks.plans import decompose, plan_day
from workers.tasks.reactions import decide_reaction

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
CHUNKS = ["unlock the door", "bake the scones", "serve the regulars", "wipe the tables"]


def with_a_model(settings: Settings) -> Settings:
    """Settings naming a model (never called: the runtime's mind is the scripted one)."""
    return settings.model_copy(
        update={"llm_model": "slow-model", "llm_base_url": "http://127.0.0.1:9/v1"}
    )


class SlowModel:
    """A scripted model that, while it thinks, reads the agent's committed current action and
    moves the world's clock on (`minutes` of game time pass during the call)."""

    def __init__(self, sessions: sessionmaker[Session], world: World, agent: Agent) -> None:
        self.sessions, self.world_id, self.agent_id = sessions, world.id, agent.id
        self.seen: list[tuple[datetime, Plan | None]] = []

    def thinking(self, until: datetime) -> None:
        with self.sessions.begin() as session:
            world = session.get_one(World, self.world_id)
            now = world.game_time
            action = current_action(session, agent_id=self.agent_id, at=now)
            if action is not None:
                session.expunge(action)
            self.seen.append((now, action))
            set_clock(session, world, to=until)


def live(session: Session, agent_id: object, *where: sa.ColumnElement[bool]) -> list[Plan]:
    query = sa.select(Plan).where(Plan.agent_id == agent_id, Plan.status != "superseded", *where)
    return list(session.scalars(query.order_by(Plan.start, Plan.id)))


def assert_no_overlap(rows: list[Plan]) -> None:
    for before, after in pairwise(rows):
        assert before.end <= after.start, (before.description, after.description)


def test_the_stand_in_acts_while_the_model_plans_and_the_model_replaces_what_was_not_lived(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    world, isabella, _ = seeded(sessions)  # 7 am, nothing planned
    model = SlowModel(sessions, world, isabella)

    def outline(**_: object) -> list[PlanItem]:
        model.thinking(until=at(7, 40))  # 40 game minutes go by while the model plans
        return list(OUTLINE)

    mind = ScriptedMind({"plan_day": outline})
    agent_id, today = str(isabella.id), DAY.date().isoformat()
    with installed(with_a_model(settings), sessions, mind):
        report = plan_day(agent_id, today)
        again = plan_day(agent_id, today)
    [(when, standing)] = model.seen
    assert when == at(7) and standing is not None and standing.stand_in  # never idle
    assert report["items"] > 0 and report["stand_in"] > 0
    assert again == {"stand_in": 0, "items": 0}  # a redelivery adds nothing
    with sessions() as session:
        days = live(session, isabella.id, Plan.level == "day")
        stand_ins = list(session.scalars(sa.select(Plan).where(Plan.stand_in)))
        doing = current_action(session, agent_id=isabella.id, at=at(7, 40))
        memories = session.scalars(sa.select(Memory.description).where(Memory.kind == "plan"))
        plan_memories = list(memories)
        planned = session.get_one(Agent, isabella.id).planned_day
    assert planned == DAY.date()
    assert_no_overlap(days)  # one live item at a time: nothing doubled
    lived = [d for d in days if d.stand_in]
    assert [(d.start, d.end) for d in lived] == [(at(7), at(7, 40))]  # what she did meanwhile
    assert lived[0].description == standing.description
    modelled = [d for d in days if not d.stand_in]
    assert {d.description for d in modelled} == {i.description for i in OUTLINE}
    assert doing is not None and not doing.stand_in  # the model's plan from now on
    assert doing.description == OUTLINE[0].description and doing.start == at(7, 40)
    # the stand-in is kept, superseded by the model's outline, never deleted
    superseded = [p for p in stand_ins if p.status == "superseded"]
    assert len(stand_ins) == report["stand_in"] + 1  # its outline and the lived part
    assert superseded and {p.superseded_by for p in superseded} == {modelled[0].id}
    assert len(plan_memories) == 1 and "Isabella Rodriguez's plan" in plan_memories[0]


def test_the_model_s_steps_replace_the_stand_in_steps_around_what_was_lived(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    world, isabella, _ = seeded(sessions)
    model = SlowModel(sessions, world, isabella)

    def chunks(*, item: PlanItem, **_: object) -> list[PlanItem]:
        model.thinking(until=at(8, 25))
        return [PlanItem(item.start, 60, text) for text in CHUNKS]

    mind = ScriptedMind({"plan_day": lambda **_: list(OUTLINE), "decompose": chunks})
    agent_id = str(isabella.id)
    with installed(with_a_model(settings), sessions, mind):
        plan_day(agent_id, DAY.date().isoformat())
        with sessions.begin() as session:
            set_clock(session, session.get_one(World, world.id), to=at(8))
            cafe = live(session, isabella.id, Plan.description == OUTLINE[1].description)[0]
        report = decompose(agent_id, cafe.id, "hour")
        assert decompose(agent_id, cafe.id, "hour") == {"stand_in": 0, "steps": 0}
    [(when, standing)] = model.seen
    assert when == at(8) and standing is not None
    assert standing.stand_in and standing.parent_id == cafe.id  # a stand-in hour chunk
    with sessions() as session:
        hours = live(session, isabella.id, Plan.parent_id == cafe.id)
        replaced = session.scalars(
            sa.select(Plan).where(Plan.parent_id == cafe.id, Plan.status == "superseded")
        ).all()
    assert report["stand_in"] > 0 and report["steps"] == len(CHUNKS)
    assert_no_overlap(hours)
    assert hours[0].start == cafe.start and hours[-1].end == cafe.end  # tiled, nothing doubled
    assert all(b.end == a.start for b, a in pairwise(hours))
    assert [(h.start, h.end, h.stand_in) for h in hours[:2]] == [
        (at(8), at(8, 25), True),  # lived while the model thought
        (at(8, 25), at(9), False),  # the model's first chunk, from then on
    ]
    assert [h.description for h in hours[1:]] == CHUNKS
    assert replaced and {p.superseded_by for p in replaced} == {hours[1].id}


def test_a_stand_in_item_is_split_by_the_offline_mind_alone(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    world, isabella, _ = seeded(sessions)
    model = SlowModel(sessions, world, isabella)

    def outline(**_: object) -> list[PlanItem]:
        model.thinking(until=at(7))  # the clock stands still
        with sessions() as session:  # the stand-in is split while the model plans
            [now] = live(session, isabella.id, Plan.level == "day", Plan.start <= at(7))[-1:]
        split.append(decompose(str(isabella.id), now.id, "hour"))  # its own job
        return list(OUTLINE)

    split: list[dict[str, object]] = []
    mind = ScriptedMind({"plan_day": outline})
    with installed(with_a_model(settings), sessions, mind):
        plan_day(str(isabella.id), DAY.date().isoformat())
    assert mind.count("decompose") == 0  # the model is not asked about a stand-in
    assert split and split[0]["steps"] == 0 and int(str(split[0]["stand_in"])) > 0
    with sessions() as session:
        days = live(session, isabella.id, Plan.level == "day")
        steps = session.scalars(sa.select(Plan).where(Plan.level == "hour")).all()
    # the clock stood still, so nothing of the stand-in was lived: the model's plan is all
    assert [d.description for d in days] == [i.description for i in OUTLINE]
    assert not any(d.stand_in for d in days)
    assert steps and all(s.stand_in and s.status == "superseded" for s in steps)


HELLO = Reaction(True, what="say hello to Klaus", talk_to=None, reason="he is right there")


def test_a_reaction_on_the_stand_in_keeps_it_a_stand_in_for_the_model_to_replace(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    """A re-plan writes the stand-in's day again around the reaction: still a stand-in, so the
    model's outline replaces it rather than going around it."""
    world, isabella, _ = seeded(sessions)
    model = SlowModel(sessions, world, isabella)

    def outline(**_: object) -> list[PlanItem]:
        seen = observe(sessions, isabella.id, ["Klaus Mueller is reading a book"], at(7))
        assert decide_reaction(str(isabella.id), seen[0])["react"] is True  # 7:00-7:15
        model.thinking(until=at(7, 40))
        return list(OUTLINE)

    mind = ScriptedMind(
        {
            "plan_day": outline,
            "react": [HELLO],
            "relationship": lambda **kw: RelationshipUpdate(f"{kw['name']} knows them", 6),
        }
    )
    with installed(with_a_model(settings), sessions, mind):
        plan_day(str(isabella.id), DAY.date().isoformat())
    with sessions() as session:
        days = live(session, isabella.id, Plan.level == "day")
        doing = {
            t: current_action(session, agent_id=isabella.id, at=t)
            for t in (at(7, 5), at(7, 20), at(7, 45))
        }
    assert_no_overlap(days)
    reaction, standing, modelled = doing[at(7, 5)], doing[at(7, 20)], doing[at(7, 45)]
    assert reaction is not None and reaction.description == HELLO.what
    assert not reaction.stand_in
    assert standing is not None and standing.stand_in  # what she did until the model answered
    assert (standing.start, standing.end) == (at(7, 15), at(7, 40))
    assert modelled is not None and not modelled.stand_in
    assert [d.stand_in for d in days if d.start >= at(7, 40)] == [False] * len(OUTLINE)


def test_with_the_offline_mind_configured_nothing_stands_in(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    _, isabella, _ = seeded(sessions)
    mind = ScriptedMind({"plan_day": lambda **_: list(OUTLINE)})
    with installed(settings, sessions, mind):
        assert plan_day(str(isabella.id), DAY.date().isoformat()) == {"items": 6}
    with sessions() as session:
        assert count(session, Plan, Plan.stand_in) == 0
        assert count(session, Plan) == 6
