"""Two agents talking, in process: opened once per decision, one line per turn job, every line a
memory of both, closed with each side's view of the other (history kept), capped at 8."""

from __future__ import annotations

from datetime import timedelta

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from cognition.offline.knowledge import read_detail
from cognition.testing import ScriptedMind
from cognition.types import PlanItem, PlanLevel, RelationshipUpdate, Utterance
from db.memory_detail import to_json
from db.models import Agent, Conversation, Event, Memory, ReactionDecision, Relationship
from db.models import Utterance as UtteranceRow
from db.queries.plans import save_items
from db.settings import Settings
from tests.factories import GAME_START
from tests.workers.support import count, installed, seeded, talk_through
from workers.tasks.conversations import converse, converse_turn, end_conversation

TOPIC = "ask Klaus to the Valentine's party"
LINES = [
    Utterance("Hi Klaus! I'm throwing a Valentine's party on Friday."),
    Utterance("Oh, that sounds fun. When does it start?"),
    Utterance("At 5 pm at Hobbs Cafe. Will you come?"),
    Utterance("I'd love to. See you there!", ends=True),
]


def talking_mind(lines: list[Utterance]) -> ScriptedMind:
    return ScriptedMind(
        {
            "next_utterance": list(lines),
            "relationship": lambda **kw: RelationshipUpdate(f"{kw['name']} likes {kw['other']}", 8),
        }
    )


def decision_for(sessions: sessionmaker[Session], agent_id: object, memory_text: str) -> int:
    with sessions.begin() as session:
        memory = Memory(
            world_id=session.get_one(Agent, agent_id).world_id,
            agent_id=agent_id,
            description=memory_text,
            created_at=GAME_START,
            last_accessed_at=GAME_START,
            importance=3,
            content_hash="0" * 64,
        )
        session.add(memory)
        session.flush()
        row = ReactionDecision(
            agent_id=agent_id,
            memory_id=memory.id,
            react=True,
            what=TOPIC,
            talk_to="Klaus Mueller",
            decided_at=GAME_START,
        )
        session.add(row)
        session.flush()
        return row.id


def test_a_conversation_is_stored_for_both_and_each_side_reconsiders_the_other(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    world, isabella, klaus = seeded(sessions)
    with sessions.begin() as session:
        save_items(
            session,
            agent_id=klaus.id,
            level=PlanLevel.DAY,
            items=[PlanItem(GAME_START, 120, "work on his research paper", "Hobbs Cafe: counter")],
        )
    decision = decision_for(sessions, isabella.id, "Klaus Mueller is reading")
    args = [str(world.id), str(isabella.id), str(klaus.id), TOPIC, decision]
    mind = talking_mind(LINES)
    with installed(settings, sessions, mind) as queue:
        opened = converse(*args)
        assert converse(*args) == opened  # a redelivery finds the same conversation
        skip = frozenset({"hearth.enrich_memories", "hearth.enrich_world", "hearth.decompose"})
        ran = talk_through(queue, sessions, world.id, skip=skip)
        conversation_id = opened["conversation_id"]
        assert isinstance(conversation_id, int)
        assert converse_turn(conversation_id, 2) == {"spoken": False}  # said already
        assert end_conversation(conversation_id) == {"ended": False}  # ended already
    assert ran == 4 + 1  # four turns (turn 1 queued once for both deliveries), then the end
    assert mind.count("next_utterance") == 4
    intents = [call["intent"] for call in mind.inputs("next_utterance")]
    assert intents == [TOPIC, "work on his research paper"] * 2  # what drives each one's plan
    with sessions() as session:
        conversation = session.get_one(Conversation, conversation_id)
        lines = session.scalars(sa.select(UtteranceRow).order_by(UtteranceRow.seq)).all()
        remembered = session.scalars(
            sa.select(Memory).where(Memory.kind == "utterance").order_by(Memory.id)
        ).all()
        views = {(r.agent_id, r.other_name): r for r in session.scalars(sa.select(Relationship))}
        events = [e.type for e in session.scalars(sa.select(Event).order_by(Event.id))]
    assert (conversation.status, conversation.topic, conversation.decision_id) == (
        "ended",
        TOPIC,
        decision,
    )
    assert [(u.seq, u.text) for u in lines] == [(n, said.text) for n, said in enumerate(LINES, 1)]
    assert [u.speaker_agent_id for u in lines] == [isabella.id, klaus.id] * 2
    for agent in (isabella, klaus):  # every line is a memory of both
        mine = [m.description for m in remembered if m.agent_id == agent.id]
        assert mine[0] == f'Isabella Rodriguez said to Klaus Mueller: "{LINES[0].text}"'
        assert len(mine) == 4
    assert views[(isabella.id, "Klaus Mueller")].sentiment == 8
    assert (
        views[(klaus.id, "Isabella Rodriguez")].summary == "Klaus Mueller likes Isabella Rodriguez"
    )
    assert events == ["utterance"] * 4 + ["conversation_ended"]


def test_a_conversation_stops_at_the_cap_and_busy_agents_do_not_start_another(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    world, isabella, klaus = seeded(sessions)
    first = decision_for(sessions, isabella.id, "Klaus Mueller is reading")
    second = decision_for(sessions, klaus.id, "Isabella Rodriguez is baking")
    chatty = [Utterance(f"line {n}") for n in range(20)]
    mind = talking_mind(chatty)
    with installed(settings, sessions, mind) as queue:
        opened = converse(str(world.id), str(isabella.id), str(klaus.id), TOPIC, first)
        busy = converse(str(world.id), str(klaus.id), str(isabella.id), "say hi", second)
        assert busy == {"conversation_id": None}  # Klaus is already talking to Isabella
        skip = frozenset({"hearth.enrich_memories", "hearth.enrich_world", "hearth.decompose"})
        talk_through(queue, sessions, world.id, skip=skip)
    assert mind.count("next_utterance") == 8
    with sessions() as session:
        assert count(session, UtteranceRow) == 8
        assert session.get_one(Conversation, opened["conversation_id"]).status == "ended"
        assert count(session, Conversation) == 1


def test_a_speaker_has_its_gatherings_and_the_news_of_the_day_in_mind(
    settings: Settings, sessions: sessionmaker[Session]
) -> None:
    """Isabella's party tomorrow, seeded long ago, and the news she heard at dawn, outranked
    by a hundred fresh memories that read more like the conversation, are still among what
    she recalls as she speaks; a gathering next week and last week's news are not."""
    world, isabella, klaus = seeded(sessions)
    party = "Isabella is hosting a Valentine's Day party at Hobbs Cafe on February 14 at 5 pm."
    fair = "Klaus Mueller told Isabella that the spring fair is at the park on February 20 at 9 am."
    bridge = "Klaus Mueller is worried that the old mill bridge is cracked and unsafe."
    dam = "Klaus Mueller is worried that the beavers' dam will flood the lower meadow."
    with sessions.begin() as session:
        for n, (text, ago) in enumerate([(party, 3), (fair, 3), (bridge, 0), (dam, 3)]):
            at = GAME_START - timedelta(days=ago, minutes=n + 120)
            session.add(
                Memory(
                    world_id=world.id,
                    agent_id=isabella.id,
                    description=text,
                    created_at=at,
                    last_accessed_at=at,
                    importance=3,
                    content_hash=f"{n:064d}",
                    detail=to_json(read_detail(text, now=at)),
                )
            )
        for n in range(100):
            at = GAME_START - timedelta(minutes=n)
            session.add(
                Memory(
                    world_id=world.id,
                    agent_id=isabella.id,
                    description=f"Klaus Mueller is talking to Isabella Rodriguez about chat {n}",
                    created_at=at,
                    last_accessed_at=at,
                    importance=8,
                    content_hash=f"{n + 2:064d}",
                )
            )
    decision = decision_for(sessions, isabella.id, "Klaus Mueller is reading")
    mind = talking_mind([Utterance("Hi Klaus!", ends=True)])
    with installed(settings, sessions, mind) as queue:
        converse(str(world.id), str(isabella.id), str(klaus.id), TOPIC, decision)
        talk_through(queue, sessions, world.id, skip=frozenset({"hearth.enrich_memories"}))
    recalled = mind.inputs("next_utterance")[0]["memories"]
    assert party in recalled and bridge in recalled
    assert fair not in recalled and dam not in recalled
