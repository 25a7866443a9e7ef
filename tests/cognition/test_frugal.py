"""Sparing model calls: cheap operations go to the heuristics, one-step items are their own
decomposition, known relationships are not asked again, and the reaction gate's rules."""

from __future__ import annotations

from datetime import datetime, timedelta

from cognition.frugal import (
    FrugalMind,
    GateFacts,
    KnownRelationships,
    is_sleep,
    needs_detail,
    reaction_gate,
)
from cognition.mind import ListAudit
from cognition.offline import OfflineMind
from cognition.places import PlaceOption
from cognition.requests import (
    ChooseLocation,
    Decompose,
    Emoji,
    RateImportance,
    SummarizeRelationship,
)
from cognition.testing import ScriptedMind
from cognition.types import Granularity, Persona, PlanItem, RelationshipUpdate

NOW = datetime(2023, 2, 13, 9, 0)
ROSA = Persona(name="Rosa")


def test_cheap_operations_go_to_the_cheap_mind_and_the_rest_to_the_primary() -> None:
    primary = ScriptedMind({"emoji": ["🤖"], "rate_importance": [[9]]})
    audit = ListAudit()
    mind = FrugalMind(primary, cheap=OfflineMind()).with_audit(audit)
    assert mind.think(Emoji("brewing coffee")) != "🤖"
    areas = [PlaceOption("Cafe", contains=("kitchen", "stove")), PlaceOption("Park")]
    assert mind.think(ChooseLocation("brew coffee", areas, at=NOW)) == "Cafe"
    assert mind.think(RateImportance(["a fire"])) == [9]
    assert primary.count("emoji") == primary.count("choose_location") == 0
    assert [c.model for c in audit.calls] == ["offline-heuristic", "offline-heuristic"]
    assert mind.model == "scripted"


def test_an_item_that_fits_one_step_is_its_own_decomposition() -> None:
    primary = ScriptedMind()
    mind = FrugalMind(primary, cheap=OfflineMind())
    short = PlanItem(NOW, 15, "greet Klaus", "Cafe")
    assert mind.think(
        Decompose(item=short, granularity=Granularity.TASK, persona=ROSA, summary="")
    ) == [short]
    hour = PlanItem(NOW, 45, "have breakfast", "Cafe")
    assert mind.think(
        Decompose(item=hour, granularity=Granularity.HOUR, persona=ROSA, summary="")
    ) == [hour]
    assert primary.count("decompose") == 0
    mind.think(Decompose(item=hour, granularity=Granularity.TASK, persona=ROSA, summary=""))
    assert primary.count("decompose") == 1


def test_known_relationships_answer_without_the_mind_and_new_ones_are_learned() -> None:
    primary = ScriptedMind({"relationship": [RelationshipUpdate("Rosa barely knows Tom", 5)]})
    known = {"Klaus Mueller": RelationshipUpdate("Rosa and Klaus are friends", 8)}
    mind = KnownRelationships(primary, known).with_audit(ListAudit())
    assert (
        mind.think(
            SummarizeRelationship(name="Rosa", other="klaus mueller", statements=[])
        ).sentiment
        == 8
    )
    assert mind.think(
        SummarizeRelationship(name="Rosa", other="Tom", statements=["x"])
    ).summary.startswith("Rosa")
    assert primary.count("relationship") == 1
    assert list(mind.learned) == ["Tom"]


def test_sleep_is_not_decomposed() -> None:
    assert is_sleep("go to bed and sleep") and is_sleep("Sleeping") and is_sleep("take a nap")
    assert not is_sleep("read about sleepwalking")  # words, not substrings
    assert needs_detail(PlanItem(NOW, 60, "open the cafe"))
    assert not needs_detail(PlanItem(NOW, 480, "go to bed and sleep"))


def test_the_reaction_gate() -> None:
    person = GateFacts(subject_is_agent=True)
    assert reaction_gate(person, now=NOW) is None
    recently = GateFacts(subject_is_agent=False, last_decided_about=NOW - timedelta(minutes=20))
    assert "already considered" in (reaction_gate(recently, now=NOW) or "")
    long_ago = GateFacts(subject_is_agent=True, last_decided_about=NOW - timedelta(hours=4))
    assert reaction_gate(long_ago, now=NOW) is None
    assert reaction_gate(GateFacts(subject_is_agent=True, asleep=True), now=NOW) == "asleep"
    assert reaction_gate(GateFacts(subject_is_agent=False, asleep=True), now=NOW) is None
    talking = GateFacts(subject_is_agent=True, in_conversation=True)
    assert reaction_gate(talking, now=NOW) == "already in a conversation"
    chatted = GateFacts(subject_is_agent=True, last_talked_with=NOW - timedelta(hours=1))
    assert "talked with them" in (reaction_gate(chatted, now=NOW) or "")
    reacted = GateFacts(subject_is_agent=False, last_reacted_at=NOW - timedelta(minutes=20))
    assert "reacted at" in (reaction_gate(reacted, now=NOW) or "")  # even about an object
    settled = GateFacts(subject_is_agent=True, last_reacted_at=NOW - timedelta(minutes=30))
    assert reaction_gate(settled, now=NOW) is None
    busy = GateFacts(subject_is_agent=True, subject_reacted_at=NOW - timedelta(minutes=10))
    assert "they are busy" in (reaction_gate(busy, now=NOW) or "")
    free = GateFacts(subject_is_agent=True, subject_reacted_at=NOW - timedelta(minutes=15))
    assert reaction_gate(free, now=NOW) is None
    crying = GateFacts(
        subject_is_agent=True,
        importance=7,
        asleep=True,
        last_decided_about=NOW - timedelta(minutes=5),
        last_talked_with=NOW - timedelta(minutes=30),
        last_reacted_at=NOW - timedelta(minutes=5),
        subject_reacted_at=NOW - timedelta(minutes=5),
    )
    assert reaction_gate(crying, now=NOW) is None  # notable: always considered
    # however notable the sight, one person is not approached by a crowd
    talking_to_another = GateFacts(subject_is_agent=True, importance=7, subject_talking=True)
    assert reaction_gate(talking_to_another, now=NOW) == "they are talking with someone else"
    sought = GateFacts(
        subject_is_agent=True, importance=7, subject_sought_at=NOW - timedelta(minutes=5)
    )
    assert reaction_gate(sought, now=NOW) == "someone else went to talk to them at 08:55"
    campaigning = GateFacts(
        subject_is_agent=True, importance=6, last_talked_with=NOW - timedelta(minutes=30)
    )  # news-like, but they talked half an hour ago
    assert "talked with them" in (reaction_gate(campaigning, now=NOW) or "")
    sought_long_ago = GateFacts(
        subject_is_agent=True, subject_sought_at=NOW - timedelta(minutes=15)
    )
    assert reaction_gate(sought_long_ago, now=NOW) is None
