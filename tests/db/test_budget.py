"""A world's model budget, metered in PostgreSQL: calls stop at the limit — across processes
too — the offline mind answers after, and a new game day or wall hour starts afresh."""

from __future__ import annotations

import multiprocessing
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from bench.responder import OfflineResponder
from cognition.budget import Budget, Limits, Period, Window
from cognition.errors import OverBudget
from cognition.mind import ListAudit
from cognition.requests import RateImportance
from db.budget import MeteredAudit, WallClock
from db.flows.faculties import Faculties
from db.models import BudgetSpend, LlmCall, World
from db.providers import build_embedder, build_mind
from db.queries import budget as queries
from db.queries.worlds import wall_now
from db.session import make_engine, make_session_factory
from db.settings import Settings
from tests.factories import GAME_START, make_world
from tests.fakes.openai_server import FakeOpenAI, reply

PROCESSES = 4
ATTEMPTS = 12
LIMIT = 17
MODEL = "gpt-test"


class Clock:
    """A wall clock a test moves."""

    def __init__(self, at: datetime) -> None:
        self.at = at

    def __call__(self) -> datetime:
        return self.at


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(chat_responder=OfflineResponder(year=GAME_START.year)) as server:
        yield server


def _world(sessions: sessionmaker[Session], budget: dict[str, Any] | None) -> World:
    settings = {} if budget is None else {"budget": budget}
    with sessions.begin() as session:
        return make_world(session, settings=settings)


def _faculties(
    settings: Settings,
    fake: FakeOpenAI,
    sessions: sessionmaker[Session],
    clock: WallClock = wall_now,
    **values: Any,
) -> Faculties:
    """What the flows think with: the LLM mind on the fake server, `values` as settings."""
    llm = settings.model_copy(
        update={"llm_base_url": fake.base_url, "llm_model": MODEL, "llm_api_key": "k", **values}
    )
    return Faculties(
        settings=llm,
        mind=build_mind(llm),
        embedder=build_embedder(llm),
        audit=sessions,
        clock=clock,
    )


def _rate(faculties: Faculties, world: World, at: datetime, times: int) -> None:
    for n in range(times):
        with faculties.thinking(world=world, agent_id=None, game_time=at) as mind:
            assert mind.think(RateImportance([f"saw a heron {n}"]))  # someone always answers


def _window(sessions: sessionmaker[Session], world: World, period: Period) -> list[Any]:
    with sessions() as session:
        return list(
            session.execute(
                sa.select(BudgetSpend.calls, BudgetSpend.answered_offline)
                .where(BudgetSpend.world_id == world.id, BudgetSpend.period == period.value)
                .order_by(BudgetSpend.window_start)
            )
        )


def test_calls_stop_at_the_budget_and_the_next_game_day_resets_it(
    settings: Settings, sessions: sessionmaker[Session], fake: FakeOpenAI
) -> None:
    world = _world(sessions, {"per_game_day": {"calls": 3}})
    clock = Clock(datetime(2024, 5, 1, 10, 0, tzinfo=UTC))
    faculties = _faculties(settings, fake, sessions, clock=clock)
    _rate(faculties, world, GAME_START, times=5)
    assert fake.calls() == 3
    with sessions() as session:
        rows = session.execute(sa.select(LlmCall.model, LlmCall.degraded, LlmCall.error)).all()
    assert (
        sorted((m, d) for m, d, _ in rows)
        == [(MODEL, False)] * 3 + [("offline-heuristic", True)] * 2
    )
    refusals = [e for _, d, e in rows if d]
    assert all(e.startswith("OverBudget: the world's model budget is spent") for e in refusals)
    assert "3 calls per game day until 2023-02-14T00:00:00" in refusals[0]
    assert [tuple(r) for r in _window(sessions, world, Period.GAME_DAY)] == [(3, 2)]

    _rate(faculties, world, GAME_START.replace(hour=23, minute=59), times=1)
    assert fake.calls() == 3  # the same game day
    clock.at += timedelta(hours=1)
    _rate(faculties, world, GAME_START + timedelta(days=1), times=2)
    assert fake.calls() == 5
    assert [tuple(r) for r in _window(sessions, world, Period.GAME_DAY)] == [(3, 3), (2, 0)]


def test_a_clock_moved_a_day_on_or_back_does_not_open_a_fresh_game_day(
    settings: Settings, sessions: sessionmaker[Session], fake: FakeOpenAI
) -> None:
    """A world's key may jump its clock; its budget window does not follow: a day ahead within
    the hour, or any day back, counts in the latest window (issue 21's reset by `advance`)."""
    world = _world(sessions, {"per_game_day": {"calls": 2}})
    clock = Clock(datetime(2024, 5, 1, 10, 0, tzinfo=UTC))
    faculties = _faculties(settings, fake, sessions, clock=clock)
    _rate(faculties, world, GAME_START, times=2)
    for moved in (timedelta(days=1), timedelta(days=5), -timedelta(days=365 * 70)):
        clock.at += timedelta(minutes=59) / 3
        _rate(faculties, world, GAME_START + moved, times=1)
    assert fake.calls() == 2
    assert [tuple(r) for r in _window(sessions, world, Period.GAME_DAY)] == [(2, 3)]
    clock.at += timedelta(hours=1)
    _rate(faculties, world, GAME_START - timedelta(days=1), times=1)  # still never back
    assert fake.calls() == 2
    _rate(faculties, world, GAME_START + timedelta(days=6), times=1)  # an hour on: the next day
    assert fake.calls() == 3


def test_the_next_wall_hour_resets_its_budget(
    settings: Settings, sessions: sessionmaker[Session], fake: FakeOpenAI
) -> None:
    world = _world(sessions, {"per_wall_hour": {"calls": 2}})
    clock = Clock(datetime(2024, 5, 1, 10, 59, 58, tzinfo=UTC))
    faculties = _faculties(settings, fake, sessions, clock=clock)
    _rate(faculties, world, GAME_START, times=3)
    assert fake.calls() == 2
    clock.at += timedelta(seconds=2)  # 11:00:00
    _rate(faculties, world, GAME_START, times=3)
    assert fake.calls() == 4
    assert [tuple(r) for r in _window(sessions, world, Period.WALL_HOUR)] == [(2, 1), (2, 1)]


def test_a_cost_limit_stops_calls_once_reached_overshooting_by_at_most_one_call(
    settings: Settings, sessions: sessionmaker[Session], fake: FakeOpenAI
) -> None:
    """Each call costs $0.01 (1000 tokens in at $10 per million); the limit is $0.025: calls
    start while the spend is below it, so the third starts at $0.02 and ends at $0.03."""
    world = _world(sessions, {"per_game_day": {"cost_usd": 0.025}})
    ratings = '{"ratings": [{"memory": 1, "rating": 4}]}'
    fake.script_chat(*[reply(ratings, usage=(1000, 0)) for _ in range(5)])
    faculties = _faculties(settings, fake, sessions, llm_prices={MODEL: (10.0, 0.0)})
    _rate(faculties, world, GAME_START, times=5)
    assert fake.calls() == 3
    with sessions() as session:
        day = Window(Period.GAME_DAY, datetime(2023, 2, 13))
        spent = queries.spent(session, world.id, [day])[Period.GAME_DAY]
    assert spent == queries.Spent(calls=3, cost_usd=Decimal("0.03"), answered_offline=2)


def test_the_worlds_own_budget_overrides_the_default_and_none_is_not_metered(
    settings: Settings, sessions: sessionmaker[Session], fake: FakeOpenAI
) -> None:
    default = {"per_game_day": {"calls": 1}}
    capped, own, free = (
        _world(sessions, None),
        _world(sessions, {"per_game_day": {"calls": 2}}),
        _world(sessions, {}),
    )
    faculties = _faculties(settings, fake, sessions, model_budget=default)
    for world, expected in ((capped, 1), (own, 3), (free, 6)):
        _rate(faculties, world, GAME_START, times=3)
        assert fake.calls() == expected
    assert _window(sessions, free, Period.GAME_DAY) == []  # no limit: no row, no lock


def _spend(
    database_url: str, world_id: str, start: Any, results: Any, attempts: int = ATTEMPTS
) -> None:
    """One process: admit `attempts` calls as fast as it can once every process is ready."""
    engine = make_engine(database_url, pool_size=1)
    meter = MeteredAudit(
        ListAudit(),
        sessions=make_session_factory(engine),
        world_id=uuid.UUID(world_id),
        budget=Budget(per_game_day=Limits(calls=LIMIT), per_wall_hour=Limits(calls=10_000)),
        game_time=GAME_START,
        clock=wall_now,
    )
    admitted = 0
    start.wait()
    for _ in range(attempts):
        try:
            meter.admit("chat")
            admitted += 1
        except OverBudget:
            pass
    engine.dispose()
    results.put(admitted)


def test_several_processes_never_admit_more_than_the_limit(
    database_url: str, sessions: sessionmaker[Session], tmp_path: Path
) -> None:
    world = _world(sessions, None)
    context = multiprocessing.get_context("spawn")
    start, results = context.Barrier(PROCESSES), context.Queue()
    processes = [
        context.Process(target=_spend, args=(database_url, str(world.id), start, results))
        for _ in range(PROCESSES)
    ]
    for process in processes:
        process.start()
    admitted = [results.get(timeout=120) for _ in processes]
    for process in processes:
        process.join(timeout=60)
    assert sum(admitted) == LIMIT
    assert [tuple(r) for r in _window(sessions, world, Period.GAME_DAY)] == [
        (LIMIT, PROCESSES * ATTEMPTS - LIMIT)
    ]
    assert [tuple(r) for r in _window(sessions, world, Period.WALL_HOUR)] == [(LIMIT, 0)]
