"""What the emergence evaluation reads of a run, as the analyst would: the views, logged in as
`hearth_analyst` (`memory_stream`, `reflection_evidence`, `heard`, `relationship_pairs`,
`llm_usage`) — the same questions a user can ask with `hearth sql`."""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa

from bench.emergence_trace import MemoryRow
from cognition.errors import InvalidOutput
from cognition.offline import OFFLINE_MODEL
from cognition.parsing import parse_next_utterance
from service.sql_console import analyst_url

MEMORIES = sa.text(
    "SELECT id, agent, kind, description, subject, created_at FROM memory_stream "
    "WHERE world_id = :world"
)
EVIDENCE = sa.text(
    "SELECT e.reflection_id, e.evidence_id FROM reflection_evidence e "
    "JOIN memory_stream m ON m.id = e.reflection_id WHERE m.world_id = :world"
)
HEARD = sa.text(
    "SELECT listener, speaker, text, spoken_at FROM heard WHERE world_id = :world "
    "ORDER BY spoken_at, seq"
)
PAIRS = sa.text("SELECT agent, other, since FROM relationship_pairs WHERE world_id = :world")
CALLS = sa.text(
    "SELECT model, count(*) FROM llm_usage WHERE world_id = :world AND NOT failed GROUP BY model"
)
MODEL_LINES = sa.text(
    "SELECT c.response, a.name FROM llm_calls c LEFT JOIN agents a ON a.id = c.agent_id "
    "WHERE c.world_id = :world AND c.operation = 'next_utterance' AND c.error IS NULL "
    "AND NOT c.degraded AND c.model <> :offline AND c.response IS NOT NULL"
)
"""The model's answers for lines of talk: from the audit table itself, since the analysts'
`llm_usage` view leaves prompts and answers out."""
TALK_UNDER_WAY = sa.text(
    "SELECT count(*) FROM llm_usage WHERE world_id = :world AND finished_at IS NULL "
    "AND operation IN ('next_utterance', 'conversation_notes', 'relationship') "
    "AND called_at > now() - make_interval(secs => :limit)"
)
"""A conversation's model calls still in flight (one whose process died is given up on after
the wait's own limit)."""
TALK_QUIET_S = 5.0
"""How long nothing may be under way before the clock moves on: the sweep sends a line that has
come due within its beat, a second or two."""
UNEMBEDDED = sa.text("SELECT count(*) FROM memory_stream WHERE world_id = :world AND NOT embedded")
EMBED_WAIT_S = 120.0


@dataclass(frozen=True)
class Line:
    listener: str
    speaker: str
    text: str
    spoken_at: datetime


@dataclass(frozen=True)
class RunRows:
    memories: dict[int, MemoryRow]
    evidence: dict[int, list[int]]
    """reflection id → every memory it rests on, transitively"""
    heard: list[Line]
    pairs: list[tuple[str, str, datetime | None]]
    calls_by_model: dict[str, int]

    @property
    def model_calls(self) -> int:
        """Calls a language model answered (the offline heuristics are not a model)."""
        return sum(n for model, n in self.calls_by_model.items() if model != OFFLINE_MODEL)


@contextmanager
def analyst(database_url: str) -> Iterator[sa.Connection]:
    engine = sa.create_engine(analyst_url(database_url), poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            yield conn
    finally:
        engine.dispose()


def read_rows(database_url: str, world_id: str) -> RunRows:
    params = {"world": world_id}
    with analyst(database_url) as conn:
        memories = {row[0]: MemoryRow(*row) for row in conn.execute(MEMORIES, params)}
        evidence: dict[int, list[int]] = defaultdict(list)
        for reflection_id, evidence_id in conn.execute(EVIDENCE, params):
            evidence[reflection_id].append(evidence_id)
        heard = [Line(*row) for row in conn.execute(HEARD, params)]
        pairs = [(a, b, since) for a, b, since in conn.execute(PAIRS, params)]
        calls = calls_by_model(conn, world_id)
    return RunRows(memories, dict(evidence), heard, pairs, calls)


def calls_by_model(conn: sa.Connection, world_id: str) -> dict[str, int]:
    """The world's audited Mind calls (town and interviews), by model."""
    return {model: int(n) for model, n in conn.execute(CALLS, {"world": world_id})}


def model_lines(database_url: str, world_id: str) -> frozenset[str]:
    """Every line of talk a language model wrote in the world, as the conversation stored it
    (its answer read by the same parser); empty when no model was configured."""
    engine = sa.create_engine(database_url, poolclass=sa.pool.NullPool)
    lines: set[str] = set()
    try:
        with engine.connect() as conn:
            answers = conn.execute(MODEL_LINES, {"world": world_id, "offline": OFFLINE_MODEL})
            for raw, speaker in answers:
                try:
                    lines.add(parse_next_utterance(raw, speaker=speaker).text)
                except InvalidOutput:
                    continue  # an answer the model was asked again for: not a line
    finally:
        engine.dispose()
    return frozenset(lines)


def wait_for_talk(
    database_url: str, world_id: str, *, quiet_s: float = TALK_QUIET_S, timeout_s: float
) -> float:
    """Hold the clock while the world's agents talk with a model: until no model call of a
    conversation has been in flight for `quiet_s` (at most `timeout_s`); the seconds waited.

    A local model on a CPU takes a minute a line, while the town's clock would move on a game
    hour in that time: the conversation would be overtaken (and, an hour after it began,
    closed as lost by the sweep). Held this way, a conversation's first line is said in the
    step it opens and the rest in the next (each line is due a game minute after the last, and
    once the clock has passed them they follow one another at once)."""
    started = time.monotonic()
    quiet_since = started
    with analyst(database_url) as conn:
        while time.monotonic() - started < timeout_s:
            params = {"world": world_id, "limit": timeout_s}
            busy = int(conn.execute(TALK_UNDER_WAY, params).scalar_one())
            conn.rollback()  # a new snapshot for the next look
            now = time.monotonic()
            if busy:
                quiet_since = now
            elif now - quiet_since >= quiet_s:
                break
            time.sleep(0.5)
    return time.monotonic() - started


def wait_until_embedded(
    database_url: str, world_id: str, *, timeout_s: float = EMBED_WAIT_S
) -> int:
    """Wait for the workers to embed the world's memories (a fresh town's seeds), so the first
    interviews retrieve by relevance too; returns how many are still waiting."""
    deadline = time.monotonic() + timeout_s
    with analyst(database_url) as conn:
        while True:
            waiting = int(conn.execute(UNEMBEDDED, {"world": world_id}).scalar_one())
            conn.rollback()  # a new snapshot for the next look
            if waiting == 0 or time.monotonic() >= deadline:
                return waiting
            time.sleep(0.5)
