"""`hearth.decide_reaction` in process: one recorded decision per observation, a reaction that
supersedes (never deletes) the rest of the plan and writes it again to be decomposed anew,
observations settled without the Mind, and what the step route asks to be decided."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session, sessionmaker

from cognition.testing import ScriptedMind
from cognition.types import NewMemory, PlanItem, Reaction, RelationshipUpdate
from db.models import Agent, Event, Memory, Plan, ReactionDecision, Relationship, World
from db.queries.api_keys import generate_key, store_key
from db.queries.memories import add_memories
from db.queries.plans import current_action
from db.queries.worlds import set_clock
from db.settings import Settings
from service.app import create_app
from tests.factories import make_agent
from tests.workers.support import count, drain, installed, seeded
from workers.tasks.plans import decompose, plan_day
from workers.tasks.reactions import decide_reaction
from workers.tasks.sweep import sweep_worlds

SEVEN = datetime(2023, 2, 13, 7, 0)
CONVERSATION_JOBS = frozenset(
    {"hearth.converse", "hearth.converse_turn", "hearth.end_conversation"}
)
OUTLINE = [
    PlanItem(SEVEN.replace(hour=6), 120, "wake up and get ready", "Isabella's apartment"),
    PlanItem(SEVEN.replace(hour=8), 240, "serve breakfast at the cafe", "Hobbs Cafe: counter"),
    PlanItem(SEVEN.replace(hour=12), 60, "have lunch"),
    PlanItem(SEVEN.replace(hour=13), 300, "work at the cafe"),
    PlanItem(SEVEN.replace(hour=18), 240, "have dinner and relax"),
    PlanItem(SEVEN.replace(hour=22), 480, "go to bed and sleep"),
]
CHAT = Reaction(
    True,
    what="ask Klaus to the Valentine's party",
    talk_to="Klaus Mueller",
    reason="Isabella wants Klaus at her party",
)


def reacting_mind(*reactions: Reaction) -> ScriptedMind:
    return ScriptedMind(
        {
            "plan_day": lambda **_: list(OUTLINE),
            "react": list(reactions),
            "relationship": lambda **kw: RelationshipUpdate(f"{kw['name']} knows {kw['other']}", 7),
        }
    )


def observation(
    sessions: sessionmaker[Session], agent: Agent, subject: str, state: str, at: datetime
) -> int:
    with sessions.begin() as session:
        [row] = add_memories(
            session,
            world_id=agent.world_id,
            agent_id=agent.id,
            now=at,
            items=[
                NewMemory(
                    description=f"{subject} is {state}",
                    subject=subject,
                    predicate="is",
                    object=state,
                )
            ],
        )
        return row.id


def live_rows(session: Session, agent_id: object) -> list[Plan]:
    query = sa.select(Plan).where(Plan.agent_id == agent_id, Plan.status != "superseded")
    return list(session.scalars(query.order_by(Plan.start, Plan.id)))


def test_a_reaction_supersedes_the_rest_of_the_plan_and_is_decomposed_at_once(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    world, isabella, klaus = seeded(sessions)
    agent_id = str(isabella.id)
    mind = reacting_mind(CHAT)
    at, until = SEVEN.replace(minute=20), SEVEN.replace(minute=35)
    with installed(settings, sessions, mind) as queue:
        plan_day(agent_id, "2023-02-13")
        with sessions() as session:
            morning = live_rows(session, isabella.id)[0]
        decompose(agent_id, morning.id, "hour")  # 6–8 am in hour chunks
        with sessions.begin() as session:
            set_clock(session, session.get_one(type(world), world.id), to=at)
        with sessions() as session:
            before = {(p.id, p.level, p.start, p.end) for p in live_rows(session, isabella.id)}
        seen = observation(sessions, isabella, "Klaus Mueller", "reading a book", at)
        assert decide_reaction(agent_id, seen) == {
            "decided": True,
            "react": True,
            "asked_mind": True,
        }
        assert decide_reaction(agent_id, seen) == {"decided": False}  # redelivered: done
        queued = list(queue.queue)
        with sessions() as session:
            decision = session.scalars(sa.select(ReactionDecision)).one()
            reaction = session.scalars(sa.select(Plan).where(Plan.description == CHAT.what)).one()
            rows = {p.id: p for p in session.scalars(sa.select(Plan))}
            live = live_rows(session, isabella.id)
            now_doing = current_action(session, agent_id=isabella.id, at=at)
            later = current_action(session, agent_id=isabella.id, at=until + timedelta(minutes=1))
            view = session.scalars(sa.select(Relationship)).one()
            reaction_event = session.scalars(sa.select(Event).where(Event.type == "reaction")).one()
        drain(queue, skip=CONVERSATION_JOBS)  # the reaction's decomposition, sent at once
        sweep_worlds()  # and its tasks, in the just-in-time window
        drain(queue, skip=CONVERSATION_JOBS | {"hearth.summarize"})
        with sessions() as session:
            [chunk] = session.scalars(sa.select(Plan).where(Plan.parent_id == reaction.id)).all()
            task = session.scalars(sa.select(Plan).where(Plan.parent_id == chunk.id)).first()
            assert task is not None
    assert mind.count("react") == 1 and mind.count("relationship") == 1
    react_inputs = mind.inputs("react")[0]
    assert react_inputs["observation"] == "Klaus Mueller is reading a book"
    assert react_inputs["context"].startswith("Isabella Rodriguez knows Klaus Mueller")
    assert (decision.react, decision.what, decision.talk_to) == (True, CHAT.what, "Klaus Mueller")
    assert decision.reason == CHAT.reason and decision.context and decision.asked_mind
    assert (reaction.level, reaction.start, reaction.end) == ("day", at, until)
    assert now_doing is not None and now_doing.id == reaction.id

    # every live item of every level not over at 7:20 is superseded by the reaction, never
    # deleted; what was over by then (the 6–7 am chunk) stays as it was
    displaced = {plan_id for plan_id, _, _, end in before if end > at}
    assert {level for plan_id, level, _, _ in before if plan_id in displaced} == {"day", "hour"}
    assert all(rows[i].status == "superseded" for i in displaced)
    assert all(rows[i].superseded_by == reaction.id for i in displaced)
    assert {(p.id, p.level, p.start, p.end) for p in live} >= before - {
        row for row in before if row[0] in displaced
    }
    assert not any(p.id in {row[0] for row in before} and p.end > at for p in live)
    # the day is written again as new rows: the part before 7:20, the reaction, the rest of
    # the morning after it, and every later item at its time — none with old steps
    days = [(p.start, p.end, p.description) for p in live if p.level == "day"]
    assert days == [
        (SEVEN.replace(hour=6), at, OUTLINE[0].description),
        (at, until, CHAT.what),
        (until, SEVEN.replace(hour=8), OUTLINE[0].description),
        *[(i.start, i.end, i.description) for i in OUTLINE[1:]],
    ]
    new_days = {p.id for p in live if p.level == "day"} - {row[0] for row in before}
    assert len(new_days) == len(days) and not any(p.parent_id in new_days for p in live)
    assert later is not None and (later.level, later.start) == ("day", until)
    # the reaction is decomposed at once, then its tasks inside the window
    assert ("hearth.decompose", (agent_id, reaction.id, "hour")) in [q[:2] for q in queued]
    assert (chunk.start, chunk.end, task.start) == (at, until, at)
    assert view.other_name == "Klaus Mueller" and view.sentiment == 7  # kept for next time
    assert reaction_event.payload["plan_id"] == reaction.id
    assert (
        "hearth.converse",
        (str(world.id), agent_id, str(klaus.id), CHAT.what, decision.id),
        f"converse:{decision.id}",
    ) in queued


def test_an_answer_already_known_is_recorded_without_asking_the_mind(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    _, isabella, _ = seeded(sessions)
    agent_id = str(isabella.id)
    mind = reacting_mind(Reaction(False, reason="she is busy"))
    with installed(settings, sessions, mind) as queue:
        first = observation(sessions, isabella, "Klaus Mueller", "reading", SEVEN)
        again = observation(
            sessions, isabella, "Klaus Mueller", "writing", SEVEN + timedelta(minutes=10)
        )
        assert decide_reaction(agent_id, first)["asked_mind"] is True
        assert decide_reaction(agent_id, again)["asked_mind"] is False
        drain(queue)
    assert mind.count("react") == 1
    with sessions() as session:
        later = session.scalars(
            sa.select(ReactionDecision).where(ReactionDecision.memory_id == again)
        ).one()
    assert not later.react and not later.asked_mind
    assert later.reason.startswith("already considered this subject")


def test_someone_already_approached_is_not_approached_by_a_second_agent(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    """Isabella goes to talk to Klaus; Maria, seeing Klaus a minute later, carries on without
    asking the Mind (however notable the sight), as she does while Klaus is talking."""
    world, isabella, _ = seeded(sessions)
    with sessions.begin() as session:
        maria = make_agent(session, world, name="Maria Lopez", place="Hobbs Cafe: counter")
    mind = reacting_mind(CHAT, CHAT)
    with installed(settings, sessions, mind) as queue:
        seen = observation(sessions, isabella, "Klaus Mueller", "reading", SEVEN)
        assert decide_reaction(str(isabella.id), seen)["react"] is True
        later = SEVEN + timedelta(minutes=1)
        with sessions.begin() as session:
            set_clock(session, session.get_one(World, world.id), to=later)
        crowd = observation(sessions, maria, "Klaus Mueller", "shouting for help", later)
        with sessions.begin() as session:  # notable: past every cooldown but this one
            session.get_one(Memory, crowd).importance = 8
        assert decide_reaction(str(maria.id), crowd)["asked_mind"] is False
        drain(queue)
    assert mind.count("react") == 1
    with sessions() as session:
        decision = session.scalars(
            sa.select(ReactionDecision).where(ReactionDecision.memory_id == crowd)
        ).one()
    assert not decision.react
    assert decision.reason == "someone else went to talk to them at 07:00"


class Sent:
    """Stands in for the app's Celery: records what the route enqueues."""

    def __init__(self) -> None:
        self.tasks: list[tuple[str, list[Any]]] = []

    def send_task(self, name: str, args: list[Any], **_: Any) -> None:
        self.tasks.append((name, args))


def test_the_step_route_asks_to_decide_one_observation_per_agent_that_may_matter(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    world, isabella, klaus = seeded(sessions)
    key = generate_key("admin")
    with sessions.begin() as session:
        store_key(session, key)
    admin_headers = {"Authorization": f"Bearer {key}"}
    app = create_app(settings)
    sent = Sent()
    with TestClient(app) as client:
        app.state.celery = sent
        perceive = [
            {
                "agent_id": str(isabella.id),
                "perceived": [
                    {"kind": "agent", "subject": "Klaus Mueller", "state": "reading a book"},
                    {"kind": "object", "subject": "Hobbs Cafe: kitchen: stove", "state": "idle"},
                ],
            },
            {
                "agent_id": str(klaus.id),
                "perceived": [
                    {"kind": "object", "subject": "Hobbs Cafe: kitchen: sink", "state": "idle"},
                ],
            },
        ]
        response = client.post(
            f"/v1/worlds/{world.id}/step", json={"agents": perceive}, headers=admin_headers
        )
        assert response.status_code == 200, response.json()
        fire = [
            {
                "agent_id": str(klaus.id),
                "perceived": [
                    {"kind": "object", "subject": "Hobbs Cafe: kitchen: sink", "state": "flooding"}
                ],
            }
        ]
        client.post(f"/v1/worlds/{world.id}/step", json={"agents": fire}, headers=admin_headers)
    with sessions() as session:
        ids = dict(session.execute(sa.select(Memory.description, Memory.id)).all())
    decided = [
        pair for name, args in sent.tasks if name == "hearth.decide_reactions" for pair in args[0]
    ]
    assert decided == [
        [str(isabella.id), ids["Klaus Mueller is reading a book"]],  # another agent
        [str(klaus.id), ids["sink is flooding"]],  # an object changed
    ]  # idle objects seen for the first time are no news


def test_a_gone_agent_or_a_foreign_memory_decides_nothing(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    _, isabella, klaus = seeded(sessions)
    theirs = observation(sessions, klaus, "Isabella Rodriguez", "baking", SEVEN)
    with installed(settings, sessions, reacting_mind()):
        assert decide_reaction(str(isabella.id), theirs) == {"decided": False}
    with sessions() as session:
        assert count(session, ReactionDecision) == 0
