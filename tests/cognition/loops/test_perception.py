"""Perception rules: the paper's wording, repeats not stored twice, what may need a reaction."""

from __future__ import annotations

from datetime import timedelta

from cognition.hashing_embedder import HashingEmbedder
from cognition.perception import (
    Observed,
    is_repeat,
    needs_reaction,
    new_observation,
    observation_text,
    subject_key,
    unseen,
)
from cognition.testing import InMemoryStore
from cognition.types import MemoryKind, NewMemory

from ..offline.personas import NOW

STOVE = "Fernbrook: Juniper Cafe: kitchen: stove"
AGENTS = ("Rosa Delgado", "Tomas Okafor")


def test_observations_read_as_the_paper_writes_them() -> None:
    assert observation_text(STOVE, "burning") == "stove is burning"
    assert (
        observation_text("Tomas Okafor", " is  reading a book. ")
        == "Tomas Okafor is reading a book"
    )
    memory = new_observation(STOVE, "burning", now=NOW)
    assert (memory.subject, memory.predicate, memory.object) == (STOVE, "is", "burning")
    assert (memory.kind, memory.created_at) == (MemoryKind.OBSERVATION, NOW)


def test_the_same_state_of_the_same_subject_is_a_repeat() -> None:
    store = InMemoryStore(HashingEmbedder())
    (stored,) = store.add([new_observation(STOVE, "idle", now=NOW)], now=NOW)
    later = NOW + timedelta(minutes=10)
    assert is_repeat(new_observation(STOVE, "Idle", now=later), stored)
    assert not is_repeat(new_observation(STOVE, "burning", now=later), stored)
    assert not is_repeat(new_observation("Fernbrook: Cafe: oven", "idle", now=later), stored)
    assert not is_repeat(new_observation(STOVE, "idle", now=later), None)


def test_only_observations_repeat() -> None:
    said = NewMemory("Tomas Okafor is reading", kind=MemoryKind.UTTERANCE, subject="Tomas Okafor")
    seen = NewMemory("Tomas Okafor is reading", subject="Tomas Okafor")
    assert is_repeat(seen, seen)
    assert not is_repeat(seen, said)
    assert not is_repeat(NewMemory("a bell rings"), NewMemory("a bell rings"))  # no subject


def test_another_agent_may_need_a_reaction_but_oneself_never() -> None:
    tomas = new_observation("Tomas Okafor", "entering the cafe", now=NOW)
    rosa = new_observation("Rosa Delgado", "serving customers", now=NOW)
    assert needs_reaction(tomas, observer="Rosa Delgado", agents=AGENTS)
    assert not needs_reaction(rosa, observer="Rosa Delgado", agents=AGENTS)


def test_nobody_walks_up_to_someone_asleep_or_in_the_bath() -> None:
    for state in ("sleep", "sleeping", "take a shower", "having a bath", "going to bed"):
        tomas = new_observation("Tomas Okafor", state, now=NOW, doing=True)
        assert not needs_reaction(tomas, observer="Rosa Delgado", agents=AGENTS), state
    for state in ("make the bed", "wash the dishes", "have breakfast"):
        tomas = new_observation("Tomas Okafor", state, now=NOW, doing=True)
        assert needs_reaction(tomas, observer="Rosa Delgado", agents=AGENTS), state


def test_an_object_needs_a_reaction_only_when_its_state_changed() -> None:
    burning = new_observation(STOVE, "burning", now=NOW)
    idle = new_observation(STOVE, "idle", now=NOW)
    assert needs_reaction(burning, observer="Rosa Delgado", last_seen_state="idle")
    assert not needs_reaction(burning, observer="Rosa Delgado", last_seen_state="Burning")
    assert needs_reaction(burning, observer="Rosa Delgado")  # first sight, not idle
    assert not needs_reaction(idle, observer="Rosa Delgado")  # first sight of an idle object


def test_free_text_without_a_subject_goes_to_the_mind() -> None:
    assert needs_reaction(NewMemory("someone screams outside"), observer="Rosa Delgado")


def test_what_agents_do_reads_as_english_and_objects_keep_their_path() -> None:
    seen = new_observation("Tomas Okafor", "have lunch", doing=True)
    assert (seen.description, seen.subject, seen.object) == (
        "Tomas Okafor is having lunch",
        "Tomas Okafor",
        "have lunch",
    )
    stove = new_observation("Fernbrook:Juniper Cafe : kitchen:stove", "burning")
    assert (stove.description, stove.subject) == ("stove is burning", STOVE)


def test_unseen_leaves_out_repeats_against_the_stream_and_within_the_batch() -> None:
    last: dict[tuple[str, str], Observed] = {
        ("rosa", subject_key(STOVE)): new_observation(STOVE, "idle")
    }
    batch = [
        ("rosa", new_observation(STOVE, "Idle")),  # what Rosa last saw
        ("tomas", new_observation(STOVE, "idle")),  # Tomas never saw it
        ("rosa", new_observation(STOVE, "burning")),
        ("rosa", new_observation(STOVE, "burning")),  # said twice in one step
        ("rosa", NewMemory("a bell rings")),
        ("rosa", NewMemory("a bell rings")),  # no subject: never a repeat
    ]
    fresh = unseen(batch, last)
    assert [(who, m.description) for who, m in fresh] == [
        ("tomas", "stove is idle"),
        ("rosa", "stove is burning"),
        ("rosa", "a bell rings"),
        ("rosa", "a bell rings"),
    ]
    assert last[("rosa", subject_key(STOVE))].object == "burning"
