"""React-or-continue: the paper's two retrievals as context, the decision, and re-planning."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cognition.errors import InvalidInput
from cognition.mind import Mind
from cognition.offline import OfflineMind
from cognition.offline.reacting import STRANGER_ONE_IN
from cognition.offline.text import stable_index
from cognition.reacting import (
    DEFAULT_CONTEXT_K,
    DEFAULT_EXCHANGED_K,
    DEFAULT_NEWS_K,
    NEWS_QUERY,
    decide,
    reaction_item,
    replan_from,
)
from cognition.testing import ScriptedMind
from cognition.types import Decision, PlanItem, Reaction, RelationshipUpdate

from ..offline.personas import NOW, ROSA
from .support import RecordingStore, remember

MEMORIES = [
    "Tomas Okafor is a regular at Juniper Cafe",
    "Tomas Okafor ordered an almond croissant",
    "the oven is preheating",
    "Tomas Okafor is studying for his chemistry exam",
    "Helen Park is filling prescriptions",
]
OBSERVATION = "Tomas Okafor is entering Juniper Cafe"


def _decide(store: RecordingStore, mind: Mind) -> Decision:
    return decide(
        store,
        mind,
        persona=ROSA,
        summary="Rosa runs Juniper Cafe.",
        status="serving customers at the counter",
        observation=OBSERVATION,
        observed_entity="Tomas Okafor",
        now=NOW,
    )


def test_context_is_the_relationship_summary_then_the_observation_statements(
    store: RecordingStore,
) -> None:
    remember(store, MEMORIES, start=NOW - timedelta(hours=3))
    mind = ScriptedMind(
        {
            "relationship": [RelationshipUpdate("Rosa is fond of Tomas, a regular.", 8)],
            "react": [Reaction(True, "say hello to Tomas", "Tomas Okafor", "he is a regular")],
        }
    )

    decision = _decide(store, mind)

    about, situation, exchanged, news = store.retrievals
    assert about.query == "What is Rosa Delgado's relationship with Tomas Okafor?"
    assert situation.query == OBSERVATION
    assert exchanged.query == "Rosa Delgado said to Tomas Okafor"
    assert news.query == NEWS_QUERY.format(name="Rosa Delgado") and news.k == DEFAULT_NEWS_K
    assert about.k == situation.k == DEFAULT_CONTEXT_K
    assert exchanged.k == DEFAULT_EXCHANGED_K
    assert mind.inputs("relationship")[0]["statements"] == about.descriptions
    lines = [
        "Rosa is fond of Tomas, a regular.",
        *situation.descriptions,
        *exchanged.descriptions,
        *news.descriptions,
    ]
    expected = "\n".join(dict.fromkeys(lines))
    assert decision.context == expected
    assert mind.inputs("react")[0]["context"] == expected
    assert mind.inputs("react")[0]["status"] == "serving customers at the counter"


def test_the_decision_keeps_what_whom_and_why(store: RecordingStore) -> None:
    remember(store, MEMORIES, start=NOW - timedelta(hours=3))
    mind = ScriptedMind(
        {"react": [Reaction(True, " say hello to Tomas ", "  ", "Rosa knows Tomas well")]}
    )
    decision = _decide(store, mind)
    assert (decision.react, decision.what, decision.talk_to) == (True, "say hello to Tomas", None)
    assert decision.reason == "Rosa knows Tomas well"


def test_carrying_on_has_no_action_but_keeps_the_reason(store: RecordingStore) -> None:
    mind = ScriptedMind({"react": [Reaction(False, "stray words", "Tomas", "busy baking")]})
    decision = _decide(store, mind)
    assert (decision.react, decision.what, decision.talk_to) == (False, "", None)
    assert decision.reason == "busy baking"
    with pytest.raises(InvalidInput):
        reaction_item(decision, at=NOW)


def test_the_offline_mind_greets_a_regular_it_remembers(store: RecordingStore) -> None:
    remember(store, MEMORIES, start=NOW - timedelta(hours=3))
    decision = _decide(store, OfflineMind())
    assert decision.react
    assert decision.talk_to == "Tomas Okafor"
    assert decision.reason
    assert "Tomas Okafor is a regular at Juniper Cafe" in decision.context


def test_the_offline_mind_does_not_greet_a_stranger(store: RecordingStore) -> None:
    remember(store, MEMORIES, start=NOW - timedelta(hours=3))
    not_hosting = replace(ROSA, currently="Rosa Delgado is baking bread", background="")
    decision = decide(
        store,
        OfflineMind(),
        persona=not_hosting,
        summary="Rosa runs Juniper Cafe.",
        status="serving customers at the counter",
        observation="Mara Quist is entering Juniper Cafe",
        observed_entity="Mara Quist",
        now=NOW,
    )
    meets = stable_index(f"{ROSA.name}|Mara Quist", STRANGER_ONE_IN) == 0
    assert decision.react == meets
    assert decision.what == ("meet Mara and chat" if meets else "")
    assert "does not know" in decision.context  # the relationship summary says so


MIDNIGHT = datetime(2024, 2, 13)


def at(hour: int, minute: int = 0) -> datetime:
    return MIDNIGHT + timedelta(hours=hour, minutes=minute)


PLAN = [
    PlanItem(at(6), 120, "morning routine", "flat"),
    PlanItem(at(8), 240, "work at the counter", "cafe"),
    PlanItem(at(12), 60, "have lunch", "cafe"),
    PlanItem(at(13), 240, "work in the afternoon", "cafe"),
]


def spans(items: tuple[PlanItem, ...] | list[PlanItem]) -> list[tuple[datetime, int, str]]:
    return [(i.start, i.duration_min, i.description) for i in items]


def test_a_reaction_supersedes_the_plan_from_its_time_on() -> None:
    greet = PlanItem(at(0), 20, "say hello to Tomas and chat", "cafe")
    replan = replan_from(PLAN, at=at(9, 10) + timedelta(seconds=42), reaction_item=greet)

    assert replan.kept == (PLAN[0],)  # over before the reaction: what Rosa did
    assert replan.superseded == tuple(PLAN[1:])  # everything not over, not only the overlap
    assert replan.reaction == PlanItem(at(9, 10), 20, "say hello to Tomas and chat", "cafe")
    assert [spans(parts) for parts in replan.rewritten] == [
        [(at(8), 70, "work at the counter"), (at(9, 30), 150, "work at the counter")],
        [(at(12), 60, "have lunch")],  # later items are written again at their times
        [(at(13), 240, "work in the afternoon")],
    ]
    plan = replan.plan
    assert plan[0].start == at(6) and plan[-1].end == at(17)
    assert all(a.end == b.start for a, b in pairwise(plan))


def test_a_later_item_the_reaction_runs_into_is_cut_and_keeps_its_end() -> None:
    chat = PlanItem(at(0), 30, "talk with Maria about the party")
    replan = replan_from(PLAN, at=at(11, 50), reaction_item=chat)
    assert replan.superseded == tuple(PLAN[1:])
    assert [spans(parts) for parts in replan.rewritten] == [
        [(at(8), 230, "work at the counter")],
        [(at(12, 20), 40, "have lunch")],
        [(at(13), 240, "work in the afternoon")],
    ]


def test_an_item_wholly_inside_the_reaction_is_dropped() -> None:
    fire = PlanItem(at(0), 90, "put out the fire in the kitchen")
    replan = replan_from(PLAN, at=at(11, 50), reaction_item=fire)
    assert [spans(parts) for parts in replan.rewritten] == [
        [(at(8), 230, "work at the counter")],
        [],  # lunch (12–1 pm) lies inside 11:50–1:20
        [(at(13, 20), 220, "work in the afternoon")],
    ]
    assert all(a.end == b.start for a, b in pairwise(replan.plan))


def test_a_reaction_at_an_item_start_leaves_no_empty_head() -> None:
    stove = reaction_item(
        Decision(True, "put out the fire on the stove", None, "it is burning", ""),
        at=at(12) + timedelta(seconds=30),
    )
    assert stove.start == at(12)  # to the minute, the plan's unit
    replan = replan_from(PLAN, at=at(12), reaction_item=stove)
    assert replan.kept == (PLAN[0], PLAN[1])  # the counter shift ends as lunch begins
    assert replan.superseded == (PLAN[2], PLAN[3])
    assert [i.start for i in replan.added] == [at(12), at(12, 15), at(13)]
    assert all(i.duration_min > 0 for i in replan.added)


@settings(max_examples=200, deadline=None)
@given(
    minute=st.integers(min_value=0, max_value=11 * 60 - 1),
    length=st.integers(min_value=1, max_value=180),
)
def test_after_a_reaction_nothing_live_overlaps_it_and_the_day_has_no_gap(
    minute: int, length: int
) -> None:
    start = at(6) + timedelta(minutes=minute)
    replan = replan_from(PLAN, at=start, reaction_item=PlanItem(start, length, "react"))
    until = replan.reaction.end
    assert all(i.end <= start for i in replan.kept)
    assert all(i.end > start for i in replan.superseded)
    others = [i for i in replan.plan if i is not replan.reaction]
    assert not any(i.start < until and i.end > start for i in others)
    plan = replan.plan
    assert plan[0].start == at(6) and plan[-1].end == max(at(17), until)
    assert all(a.end == b.start for a, b in pairwise(plan))


def test_a_host_invites_whom_it_sees_when_its_gathering_is_only_on_its_mind(
    store: RecordingStore,
) -> None:
    """Eating lunch recalls the meal, not the ceilidh the agent holds tomorrow: what it has on
    its mind (`on_mind`, its memories of gatherings soon) comes to the decision too."""
    remember(store, MEMORIES, start=NOW - timedelta(hours=3))
    brewer = replace(ROSA, currently="Rosa Delgado is brewing a dark ale", background="")
    seed = (
        "Rosa Delgado is putting on a ceilidh in the taproom at Millrace Brewery tomorrow at "
        "7 pm, and the whole town's invited."
    )
    kwargs = {
        "persona": brewer,
        "summary": "",
        "status": "eating",
        "observation": "Mara Quist is looking at the menu and ordering",
        "observed_entity": "Mara Quist",
        "now": NOW,
    }
    without = decide(store, OfflineMind(), **kwargs)  # type: ignore[arg-type]
    assert "ceilidh" not in without.what
    decision = decide(store, OfflineMind(), on_mind=[seed], **kwargs)  # type: ignore[arg-type]
    assert decision.react and decision.what == "invite Mara to the ceilidh"
    assert seed in decision.context
