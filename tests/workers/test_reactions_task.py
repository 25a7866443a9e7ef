"""`hearth.decide_reaction` in process: one recorded decision per observation, a reaction that
supersedes (never deletes) what it displaces and keeps the rest, observations settled without
the Mind, and what the step route asks to be decided."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session, sessionmaker

from cognition.testing import ScriptedMind
from cognition.types import NewMemory, PlanItem, Reaction, RelationshipUpdate
from db.models import Agent, Event, Memory, Plan, ReactionDecision, Relationship
from db.queries.api_keys import generate_key, store_key
from db.queries.memories import add_memories
from db.queries.plans import current_action, end_of
from db.queries.worlds import set_clock
from db.settings import Settings
from service.app import create_app
from tests.workers.support import count, drain, installed, seeded
from workers.tasks.plans import decompose, plan_day
from workers.tasks.reactions import decide_reaction

SEVEN = datetime(2023, 2, 13, 7, 0)
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


def test_a_reaction_supersedes_what_it_displaces_and_keeps_the_rest(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    world, isabella, klaus = seeded(sessions)
    agent_id = str(isabella.id)
    mind = reacting_mind(CHAT)
    with installed(settings, sessions, mind) as queue:
        plan_day(agent_id, "2023-02-13")
        with sessions() as session:
            morning = session.scalars(
                sa.select(Plan).where(Plan.level == "day").order_by(Plan.start)
            ).first()
        assert morning is not None
        decompose(agent_id, morning.id, "hour")  # 6–8 am in hour chunks
        with sessions.begin() as session:
            set_clock(session, session.get_one(type(world), world.id), to=SEVEN.replace(minute=20))
        seen = observation(
            sessions, isabella, "Klaus Mueller", "reading a book", SEVEN.replace(minute=20)
        )
        assert decide_reaction(agent_id, seen) == {
            "decided": True,
            "react": True,
            "asked_mind": True,
        }
        assert decide_reaction(agent_id, seen) == {"decided": False}  # redelivered: done
        queued = list(queue.queue)
    assert mind.count("react") == 1 and mind.count("relationship") == 1
    react_inputs = mind.inputs("react")[0]
    assert react_inputs["observation"] == "Klaus Mueller is reading a book"
    assert react_inputs["context"].startswith("Isabella Rodriguez knows Klaus Mueller")

    at, until = SEVEN.replace(minute=20), SEVEN.replace(minute=35)
    with sessions() as session:
        decision = session.scalars(sa.select(ReactionDecision)).one()
        reaction = session.scalars(sa.select(Plan).where(Plan.description == CHAT.what)).one()
        superseded = session.scalars(sa.select(Plan).where(Plan.status == "superseded")).all()
        live = session.scalars(
            sa.select(Plan).where(Plan.status != "superseded").where(Plan.agent_id == isabella.id)
        ).all()
        now_doing = current_action(session, agent_id=isabella.id, at=at)
        later = current_action(session, agent_id=isabella.id, at=until + timedelta(minutes=1))
        view = session.scalars(sa.select(Relationship)).one()
        reaction_event = session.scalars(sa.select(Event).where(Event.type == "reaction")).one()
    assert (decision.react, decision.what, decision.talk_to) == (True, CHAT.what, "Klaus Mueller")
    assert decision.reason == CHAT.reason and decision.context and decision.asked_mind
    assert (reaction.level, reaction.start, end_of(reaction)) == ("day", at, until)
    assert now_doing is not None and now_doing.id == reaction.id
    # the morning item and its 7–8 am chunk overlap the reaction: superseded, never deleted
    assert {(p.level, p.start.hour) for p in superseded} >= {("day", 6), ("hour", 7)}
    assert all(p.superseded_by == reaction.id for p in superseded)
    assert not any(p.start < until and end_of(p) > at for p in live if p.id != reaction.id)
    # ... their parts before and after it are planned again, at the same levels
    assert {
        (p.level, p.start, end_of(p))
        for p in live
        if p.description == OUTLINE[0].description and p.level == "day"
    } == {("day", SEVEN.replace(hour=6), at), ("day", until, SEVEN.replace(hour=8))}
    assert later is not None and later.level == "hour" and later.start == until
    # the rest of the day keeps its times
    assert [
        p.start.hour for p in live if p.level == "day" and p.start >= SEVEN.replace(hour=8)
    ] == [8, 12, 13, 18, 22]
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
    decided = [args for name, args in sent.tasks if name == "hearth.decide_reaction"]
    assert decided == [
        [str(isabella.id), ids["Klaus Mueller is reading a book"]],  # another agent
        [str(klaus.id), ids["Hobbs Cafe: kitchen: sink is flooding"]],  # an object changed
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
