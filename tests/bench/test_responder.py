"""The bench's stand-in model answers every operation over the real LLM path exactly as the
offline mind does, so a bench town behaves as an offline town while counting model calls."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from bench.responder import OfflineResponder
from cognition.adapters.llm import LLMConfig, LLMMind
from cognition.norms import Norms
from cognition.offline import OfflineMind
from cognition.places import PlaceOption
from cognition.requests import ALL_REQUESTS
from cognition.types import Granularity, Persona, PlanItem, RelationshipUpdate
from tests.fakes.openai_server import FakeOpenAI

NOW = datetime(2023, 2, 13, 9, 30)
ROSA = Persona(
    name="Rosa Diaz",
    age=41,
    innate="warm, stubborn",
    currently="runs the bakery",
    lifestyle="wakes at 6am, sleeps at 10pm",
    speaking_style="short sentences",
)
AREAS = [
    PlaceOption("Johnson Park", contains=("bench",), norms=Norms.parse({"quiet": "yes"})),
    PlaceOption(
        "Rosa's Bakery",
        contains=("kitchen", "oven"),
        norms=Norms.parse({"capacity": 3, "opening_hours": "06:00-14:00"}),
        occupancy=3,
    ),
    PlaceOption(
        "Cafe Bread", contains=("oven",), norms=Norms.parse({"opening_hours": "22:00-02:00"})
    ),
    PlaceOption("Rosa's flat", contains=("kitchen", "oven")),
]
ROOMS = [PlaceOption("kitchen", contains=("oven",)), PlaceOption("counter")]


def test_every_operation_answers_as_the_offline_mind() -> None:
    offline = OfflineMind()
    with FakeOpenAI(chat_responder=OfflineResponder(year=2023)) as server:
        llm = LLMMind(LLMConfig(base_url=server.base_url, api_key="k", model="fake"))
        item = PlanItem(NOW, 60, "bake bread for the morning", "Rosa's Bakery: kitchen")
        cases = [
            ("rate_importance", {"memories": ["Rosa is baking", "the oven is on fire"]}),
            ("reflection_questions", {"records": ["Rosa baked bread", "Rosa met Tom"], "n": 3}),
            (
                "insights",
                {
                    "question": "How has Rosa Diaz been spending the time?",
                    "n": 5,
                    "statements": ["Rosa Diaz is baking bread", "Rosa Diaz is baking bread"],
                },
            ),
            (
                "plan_day",
                {
                    "persona": ROSA,
                    "summary": "Rosa bakes.",
                    "previous_day": "",
                    "directives": ["visit Tom at 5pm"],
                    "now": NOW.replace(hour=0),
                },
            ),
            (
                "decompose",
                {"item": item, "granularity": Granularity.TASK, "persona": ROSA, "summary": ""},
            ),
            (
                "choose_location",  # the bakery says "bake", but it is full; the café is closed
                {
                    "action": "bake bread",
                    "options": AREAS,
                    "at": NOW,
                    "name": "Rosa Diaz",
                    "current": "Johnson Park: bench",
                    "home": "Rosa's flat",
                },
            ),
            (
                "choose_location",  # nothing inside suits: stay
                {
                    "action": "daydream",
                    "options": ROOMS,
                    "at": NOW,
                    "until": NOW + timedelta(hours=15),  # past midnight
                    "within": "Rosa's Bakery",
                },
            ),
            (
                "react",
                {
                    "persona": ROSA,
                    "summary": "",
                    "status": "baking",
                    "observation": "oven is burning",
                    "context": "",
                    "now": NOW,
                },
            ),
            (
                "relationship",
                {
                    "name": "Rosa Diaz",
                    "other": "Tom Moreno",
                    "statements": ["Rosa likes Tom Moreno"],
                },
            ),
            (
                "next_utterance",
                {
                    "speaker": ROSA,
                    "listener": "Tom Moreno",
                    "summary": "",
                    "relationship": "friends",
                    "intent": "invite Tom to dinner",
                    "memories": ["Tom likes bread"],
                    "now": NOW,
                    "history": [("Tom Moreno", "Hi Rosa!")],
                },
            ),
            (
                "summarize_agent",
                {
                    "persona": ROSA,
                    "retrieved": {
                        "core": ["Rosa is warm"],
                        "occupation": ["Rosa runs the bakery"],
                        "feeling": [],
                    },
                },
            ),
            ("object_state", {"action": "bake bread", "obj": "oven"}),
            ("emoji", {"action": "bake bread"}),
            (
                "judge_answer",
                {
                    "question": "Do you know of Tom Moreno?",
                    "answer": "Yes, I know Tom Moreno.",
                    "subject": "Tom Moreno",
                    "cues": ["Moreno"],
                },
            ),
            (
                "rank_answers",
                {
                    "name": "Rosa Diaz",
                    "summary": "Rosa bakes.",
                    "question": "What do you do?",
                    "answers": ["I'm not sure.", "I bake bread at Rosa's Bakery."],
                    "memories": ["Rosa bakes bread at Rosa's Bakery"],
                },
            ),
        ]
        by_operation = {r.operation: r for r in ALL_REQUESTS}
        for operation, inputs in cases:
            request = by_operation[operation](**inputs)
            expected = _wire(offline.think(request))
            assert _wire(llm.think(request)) == expected, operation
        assert server.calls() == len(cases)


def _wire(answer: object) -> object:
    """What the wire carries: plan items travel without emoji (the mind adds them apart), a
    relationship without how many statements it rests on (only the offline mind counts)."""
    if isinstance(answer, list):
        return [replace(a, emoji=None) if isinstance(a, PlanItem) else a for a in answer]
    if isinstance(answer, RelationshipUpdate):
        return replace(answer, evidence=None)
    return answer
