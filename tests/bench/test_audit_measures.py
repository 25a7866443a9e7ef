"""The audit's measures over small hand-made rows: what counts, what does not, per agent."""

from __future__ import annotations

from datetime import datetime, timedelta

from bench.audit_grammar import Kind, Names, Text
from bench.audit_measures import (
    LineRow,
    MemoryRow,
    PlanRow,
    Sample,
    Share,
    at_workplace,
    duplicate_memories,
    grammar,
    long_conversations,
    meals_on_time,
    nested_quotes,
    tasks_in_chunk_area,
    town,
)
from bench.audit_routine import Routine, Shift

T0 = datetime(2023, 2, 13, 7, 0)
NAMES = Names(frozenset({"Junie Halvorsen", "Tomas Ferreira"}))


def _at(minutes: int) -> datetime:
    return T0 + timedelta(minutes=minutes)


def test_a_description_repeated_within_ten_game_minutes_is_a_duplicate() -> None:
    said = 'Walter Brigg said to Arvid Lindqvist: "How have you been?"'
    rows = [
        MemoryRow("Arvid", "utterance", said, _at(0)),
        MemoryRow("Arvid", "utterance", said, _at(10)),  # duplicate
        MemoryRow("Arvid", "utterance", said, _at(25)),  # 15 minutes later: not one
        MemoryRow("Walter", "utterance", said, _at(0)),  # another agent's memory
        MemoryRow("Arvid", "observation", "Walter Brigg is reading", _at(0)),
    ]
    shares = duplicate_memories(rows)
    assert shares == {"Arvid": Share(1, 4), "Walter": Share(0, 1)}
    assert town(shares) == Share(1, 5) and town(shares).rate == 0.2


def test_nested_quotes_are_counted_among_utterance_memories() -> None:
    nested = 'Junie said to Tomas: "You said to me: "Hi me!"".'
    plain = 'Junie said to Tomas: "See you at the party."'
    rows = [
        MemoryRow("Tomas", "utterance", nested, _at(0)),
        MemoryRow("Tomas", "utterance", plain, _at(1)),
        MemoryRow("Tomas", "observation", nested, _at(2)),  # not an utterance
    ]
    assert nested_quotes(rows, NAMES) == {"Tomas": Share(1, 2)}


def _plan(
    id: int,
    level: str,
    location: str,
    *,
    parent: int | None = None,
    minute: int = 0,
    description: str = "work",
    status: str = "planned",
    agent: str = "Junie",
) -> PlanRow:
    return PlanRow(id, parent, agent, level, _at(minute), location, description, status)


def test_tasks_are_judged_against_their_hour_chunks_area() -> None:
    plans = [
        _plan(1, "day", "The Copper Kettle"),
        _plan(2, "hour", "The Copper Kettle: counter", parent=1),
        _plan(3, "task", "The Copper Kettle: kitchen: oven", parent=2),
        _plan(4, "task", "Marigold Pharmacy: dispensary", parent=2),  # another area
        _plan(5, "task", "Riverside Apartments", parent=2, status="superseded"),  # not lived
    ]
    assert tasks_in_chunk_area(plans) == {"Junie": Share(1, 2)}


def test_work_hours_count_only_steps_inside_a_shift() -> None:
    routine = Routine(
        wake=330, bed=1320, shifts=(Shift("The Copper Kettle", 420, 1020, ((720, 780),)),)
    )
    samples = [
        Sample("Junie", _at(0), "The Copper Kettle"),  # 07:00, at work
        Sample("Junie", _at(60), "Riverside Apartments"),  # 08:00, away
        Sample("Junie", _at(330), "Riverside Apartments"),  # 12:30, lunch break: not judged
        Sample("Junie", _at(-60), "Riverside Apartments"),  # 06:00, before the shift
        Sample("Tomas", _at(0), "The Copper Kettle"),  # no routine known
    ]
    assert at_workplace(samples, {"Junie": routine}) == {"Junie": Share(1, 2)}


def test_meals_must_start_in_their_window() -> None:
    plans = [
        _plan(1, "day", "home", minute=0, description="have breakfast"),  # 07:00
        _plan(2, "day", "home", minute=13 * 60, description="have lunch"),  # 20:00
        _plan(3, "hour", "home", minute=13 * 60, description="have lunch"),  # same meal, same start
        _plan(4, "day", "home", minute=11 * 60, description="cook supper"),  # 18:00, dinner
        _plan(5, "task", "home", minute=13 * 60, description="finish lunch"),  # tasks not judged
        _plan(6, "day", "home", minute=60, description="dinner", status="superseded"),
    ]
    assert meals_on_time(plans) == {"Junie": Share(2, 3)}


def test_a_conversation_said_at_one_game_instant_does_not_span() -> None:
    lines = [
        LineRow(1, "Junie", "Tomas", "Hi Tomas!", _at(0)),
        LineRow(1, "Tomas", "Junie", "Hi Junie!", _at(0)),
        LineRow(2, "Junie", "Tomas", "Party tomorrow?", _at(15)),
        LineRow(2, "Tomas", "Junie", "Yes!", _at(30)),
        LineRow(3, "Junie", "Noor", "Hello?", _at(30)),  # one line: not a conversation
    ]
    assert long_conversations(lines) == {"Junie": Share(1, 2), "Tomas": Share(1, 2)}


def test_grammar_judges_each_distinct_text_of_an_agent_once() -> None:
    texts = [
        ("Junie", Text(Kind.OBSERVATION, "Tomas Ferreira is say hello to Junie and chat")),
        ("Junie", Text(Kind.OBSERVATION, "Tomas Ferreira is say hello to Junie and chat")),
        ("Junie", Text(Kind.PLAN, "open the cafe")),
        ("Tomas", Text(Kind.UTTERANCE, "Hi me! How are you?", "Tomas Ferreira")),
    ]
    found = grammar(texts, NAMES)
    assert found.shares == {"Junie": Share(1, 2), "Tomas": Share(1, 1)}
    assert found.by_rule == {"be_bare_verb": 1, "self_greeting": 1}
    assert found.by_kind["observation"] == Share(1, 1) and found.by_kind["plan"] == Share(0, 1)
    assert "is say" in found.examples["be_bare_verb"]


def test_a_share_of_nothing_has_no_rate() -> None:
    assert Share().rate is None and town({}) == Share()
