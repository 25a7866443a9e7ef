"""A morning in the demo town of Larkspur, built through the API and the agents' own tables:
25 characters, a dozen of them busy about town, and Junie Halvorsen's mind filled in
(memories, reflections citing reflections, a day plan with a superseded afternoon, talks,
relationships, model calls). The browser tests read it back through the inspector."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
from hearth_client import Hearth
from hearth_client.demo import load_town
from sqlalchemy.orm import Session, sessionmaker

from cognition.offline import OfflineMind
from cognition.types import PlanItem, PlanLevel
from db.flows.enrichment import enrich
from db.models import Agent, Memory
from db.providers import build_embedder
from db.queries.plans import save_items
from db.settings import Settings
from tests import seed

MORNING = datetime(2023, 2, 14, 9, 35)
BUSY = [  # who is where at 9:35, doing what
    ("Junie Halvorsen", "The Copper Kettle: counter", None, None),
    ("Tomas Ferreira", "The Copper Kettle: dining area: window table", "✏️", "sketch the cafe"),
    ("Hiro Tanaka", "The Copper Kettle: dining area: corner table", "📰", "read the paper"),
    ("Eleanor Voss", "Wren College: classroom: lectern", "🎓", "teach the morning seminar"),
    ("Felix Moreau", "Wren College: library: reading table", "📚", "study for an exam"),
    ("Priya Raman", "Wren College: library: computer", "💻", "write a thesis chapter"),
    ("Noor Haddad", "Wren College: chemistry lab: lab bench", "⚗️", "run a titration"),
    ("Oskar Brandt", "Wren College: art studio: easel", "🎨", "paint a portrait"),
    ("Theo Calloway", "Willow Park: pond: park bench", "🦆", "feed the ducks"),
    ("Walter Brigg", "Willow Park: garden: flower beds", "🌷", "weed the flower beds"),
    ("Martin Calloway", "Marigold Pharmacy: dispensary: pill counter", "💊", "fill prescriptions"),
    ("Daniel Okafor", "Dunmore General Store: front counter", "🧾", "serve customers"),
    ("Helen Calloway", "Dunmore General Store: aisles: grocery shelf", "🛒", "buy groceries"),
    ("Beatrix Lund", "Town Square: notice board", "📌", "pin up a book club flyer"),
    ("Lucia Bellandi", "The Lantern Tavern: stage: piano", "🎹", "rehearse for Friday"),
]
MEMORIES = [
    ("07:02", "Junie unlocked The Copper Kettle and switched on the espresso machine"),
    ("07:20", "Tomas Ferreira ordered a flat white and said he would help with decorations"),
    ("07:45", "Hiro Tanaka asked whether the party has music"),
    ("08:05", "the pastry case is nearly empty"),
    ("08:30", "Eleanor Voss said she might come to the party with Helen"),
    ("08:50", "Felix Moreau asked Junie quietly whether Noor Haddad is coming to the party"),
    ("09:05", "the espresso machine is brewing"),
    ("09:20", "Beatrix Lund offered to put a party flyer on the town notice board"),
]

JUNIE = (
    "Junie Halvorsen is 38. Innate traits: warm, energetic, organized, sentimental. "
    "Junie runs The Copper Kettle, which she took over from her late aunt, and is planning a "
    "Valentine's Day party there on February 14 from 6pm to 8pm. Lately she has been inviting "
    "every regular she serves, and Tomas Ferreira has offered to help with the decorations."
)


@dataclass(frozen=True)
class Scene:
    world_id: str
    world_key: str
    junie: str
    tomas: str
    felix: str
    agents: dict[str, str]
    reflection: int
    deep_reflection: int
    cited: list[int]
    plan: dict[str, int]


def _at(clock: str) -> datetime:
    hours, minutes = (int(part) for part in clock.split(":"))
    return MORNING.replace(hour=hours, minute=minutes)


def build(
    admin: Hearth, base_url: str, sessions: sessionmaker[Session], settings: Settings
) -> Scene:
    world = admin.create_world("Larkspur", clock={"mode": "driven", "start": MORNING.isoformat()})
    world_id = world["id"]
    with Hearth(base_url, api_key=world["api_key"]) as client:
        client.import_personas(world_id, load_town())
        ids = {a["name"]: a["id"] for a in client.list_agents(world_id)}
        client.step(
            world_id, [{"agent_id": ids[name], "place": place} for name, place, _, _ in BUSY]
        )
        junie = ids["Junie Halvorsen"]
        written = client.add_memories(
            world_id,
            junie,
            [
                {"description": text, "created_at": _at(clock).isoformat()}
                for clock, text in MEMORIES
            ],
        )
    memory_ids = [m["id"] for m in written]
    with sessions.begin() as session:
        scene = _minds(session, uuid.UUID(world_id), ids, memory_ids)
    enrich(
        sessions,
        _memory_ids(sessions, uuid.UUID(world_id)),
        embedder=build_embedder(settings),
        mind=OfflineMind(),
    )
    return Scene(world_id=world_id, world_key=world["api_key"], agents=ids, **scene)


def _minds(
    session: Session, world_id: uuid.UUID, ids: dict[str, str], memory_ids: list[int]
) -> dict[str, object]:
    agent = {name: uuid.UUID(value) for name, value in ids.items()}
    junie, tomas, felix = agent["Junie Halvorsen"], agent["Tomas Ferreira"], agent["Felix Moreau"]
    for name, place, emoji, doing in BUSY:
        if emoji is not None and doing is not None:
            item = PlanItem(MORNING.replace(hour=9, minute=0), 120, doing, place, emoji)
            save_items(session, agent_id=agent[name], level=PlanLevel.DAY, items=[item])
    plan = seed.day_plan(session, agent_id=junie, day=MORNING)
    session.execute(
        sa.update(Agent).where(Agent.id == junie).values(summary=JUNIE, summary_at=MORNING)
    )
    reflection = seed.reflection(
        session,
        world_id=world_id,
        agent_id=junie,
        depth=1,
        at=_at("09:10"),
        text="Junie's regulars are excited about the Valentine's Day party",
        cites=[memory_ids[1], memory_ids[2], memory_ids[4]],
    )
    deep = seed.reflection(
        session,
        world_id=world_id,
        agent_id=junie,
        depth=2,
        at=_at("09:30"),
        text="Junie's party is bringing Larkspur together, and Felix hopes to see Noor there",
        cites=[reflection, memory_ids[5]],
    )
    seed.conversation(
        session,
        world_id=world_id,
        initiator=junie,
        partner=tomas,
        at=_at("07:20"),
        topic="the Valentine's Day party",
        lines=[
            (junie, "Morning, love! You're coming to the party tonight, aren't you?"),
            (tomas, "Wouldn't miss it. Do you need a hand with the decorations?"),
            (junie, "Would you? I've got boxes of paper hearts that need hanging."),
            (tomas, "I'll come by at noon and carry them in."),
        ],
    )
    seed.conversation(
        session,
        world_id=world_id,
        initiator=felix,
        partner=junie,
        at=_at("08:50"),
        topic="who is coming",
        lines=[
            (felix, "Junie, is Noor coming to the party, do you know?"),
            (junie, "I invited her this morning, love. Why do you ask?"),
            (felix, "No reason! Just wondering."),
        ],
    )
    hiro = agent["Hiro Tanaka"]
    seed.conversation(
        session,
        world_id=world_id,
        initiator=hiro,
        partner=tomas,
        at=_at("09:34"),
        topic="the party",
        ended=False,
        lines=[
            (hiro, "Are you going to Junie's party tonight?"),
            (tomas, "Of course! I'm hanging the paper hearts at noon."),
        ],
    )
    seed.relationship(
        session,
        agent_id=junie,
        other="Tomas Ferreira",
        other_agent_id=tomas,
        at=_at("07:00"),
        views=[
            ("her neighbour in apartment 2", 6),
            ("a kind neighbour who is helping with the party", 8),
        ],
    )
    seed.relationship(
        session,
        agent_id=junie,
        other="Felix Moreau",
        other_agent_id=felix,
        at=_at("08:55"),
        views=[("a shy student with a crush on Noor", 7)],
    )
    seed.relationship(
        session,
        agent_id=junie,
        other="Walter Brigg",
        at=_at("07:00"),
        other_agent_id=agent["Walter Brigg"],
        views=[("a grumpy customer who never tips", 3)],
    )
    seed.model_calls(
        session,
        world_id=world_id,
        calls=[
            (agent[name], operation, MORNING.replace(hour=hour, minute=5 * i), 300 + 40 * i)
            for i, name in enumerate(["Junie Halvorsen", "Tomas Ferreira", "Felix Moreau"])
            for hour in (6, 7, 8, 9)
            for operation in ("plan_day", "decompose", "react")[: 1 + hour % 3]
        ],
    )
    return {
        "junie": str(junie),
        "tomas": str(tomas),
        "felix": str(felix),
        "plan": plan,
        "reflection": reflection,
        "deep_reflection": deep,
        "cited": memory_ids,
    }


def _memory_ids(sessions: sessionmaker[Session], world_id: uuid.UUID) -> list[int]:
    with sessions() as session:
        return list(session.scalars(sa.select(Memory.id).where(Memory.world_id == world_id)))
