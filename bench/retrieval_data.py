"""A synthetic town's memory streams for the retrieval benchmark, loaded with binary COPY.

Realistic rather than uniform: embeddings cluster the way sentence embeddings of an NPC's life
do (topics → recurring statements → paraphrases, exact repeats of repeated observations, a
shared mean direction that makes unrelated sentences ~0.1 cosine apart), mostly mundane
importance, and all agents' rows interleaved in game-time order, as concurrent perception
writes them. Deterministic for a given seed.
"""

from __future__ import annotations

import hashlib
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import numpy as np
import numpy.typing as npt
import psycopg
from pgvector.psycopg import register_vector

DIMENSION = 384
GAME_START = datetime(2023, 2, 13, 7, 0)
GAME_DAYS = 28
WAKING_MINUTES = 16 * 60
"""Agents perceive from 07:00 to 23:00 game time."""

TOPICS = 400
STATEMENTS_PER_TOPIC = 40
TOPICS_PER_AGENT = 40
TOPIC_POPULARITY = 1.1
"""Zipf exponent: a few town topics (the cafe, the election) concern many agents."""

SHARED_DIRECTION = 0.45
"""Weight of the mean direction all sentence embeddings share: unrelated topics end ~0.17
apart in cosine, as with MiniLM."""
STATEMENT_SPREAD = 0.75
"""A recurring statement sits ~0.8 cosine from its topic."""
PARAPHRASE_NOISE = 0.35
"""A memory sits ~0.94 cosine from its statement..."""
REPEAT_SHARE = 0.15
"""...unless it repeats it word for word (same text, same cached embedding)."""
QUERY_NOISE = 0.6
"""A query is phrased differently from the memories it should find (~0.85 cosine)."""

ACCESSED_LATER_SHARE = 0.2
"""Memories retrieved (touched) after they were made."""
UNEMBEDDED_MINUTES = 10
"""The newest game minutes of each stream still await the embedding job."""

KINDS = {
    "observation": 0.80,
    "utterance": 0.08,
    "plan": 0.06,
    "reflection": 0.04,
    "seed": 0.01,
    "directive": 0.01,
}
IMPORTANCE = {  # probabilities of 1..10 per kind: most observations are mundane
    "observation": [0.28, 0.24, 0.17, 0.11, 0.08, 0.05, 0.03, 0.02, 0.01, 0.01],
    "utterance": [0.05, 0.1, 0.2, 0.2, 0.18, 0.12, 0.08, 0.04, 0.02, 0.01],
    "plan": [0.02, 0.05, 0.12, 0.2, 0.22, 0.18, 0.11, 0.06, 0.03, 0.01],
    "reflection": [0.0, 0.01, 0.03, 0.08, 0.16, 0.22, 0.22, 0.16, 0.08, 0.04],
    "seed": [0.0, 0.0, 0.02, 0.05, 0.1, 0.18, 0.25, 0.2, 0.12, 0.08],
    "directive": [0.0, 0.0, 0.0, 0.02, 0.05, 0.1, 0.18, 0.25, 0.22, 0.18],
}
FILLER_MEDIAN = 6000
"""Median stream length of the other agents (lognormal), to fill up the requested rows."""
WORLDS = 4
COPY_CHUNK = 20000

Matrix = npt.NDArray[np.float64]
COLUMNS = (
    "world_id",
    "agent_id",
    "kind",
    "description",
    "created_at",
    "last_accessed_at",
    "importance",
    "importance_scored",
    "embedding",
    "content_hash",
    "depth",
    "source",
)
TYPES = [
    "uuid",
    "uuid",
    "varchar",
    "text",
    "timestamp",
    "timestamp",
    "int2",
    "bool",
    "vector",
    "varchar",
    "int2",
    "varchar",
]


@dataclass
class Agent:
    id: uuid.UUID
    world_id: uuid.UUID
    name: str
    size: int
    topics: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    weights: Matrix = field(default_factory=lambda: np.zeros(0))


@dataclass
class Town:
    """Everything needed to regenerate the data and the queries."""

    seed: int
    agents: list[Agent]
    topics: Matrix
    statements: Matrix

    @property
    def now(self) -> datetime:
        return GAME_START + timedelta(days=GAME_DAYS)

    def queries(self, agent: Agent, count: int, seed: int) -> list[list[float]]:
        """What the agent's cognition would ask: paraphrases of statements of its topics."""
        rng = np.random.default_rng(seed)
        topics = rng.choice(agent.topics, size=count, p=agent.weights)
        statements = topics * STATEMENTS_PER_TOPIC + rng.integers(STATEMENTS_PER_TOPIC, size=count)
        vectors = _unit(self.statements[statements] + QUERY_NOISE * _noise(rng, count))
        return [v.tolist() for v in vectors]


def build_town(seed: int, rows: int, sizes: tuple[int, ...]) -> Town:
    """Topic and statement vectors, and agents: one per fixed size, fillers for the rest."""
    rng = np.random.default_rng(seed)
    shared = _unit(rng.standard_normal((1, DIMENSION)))
    topics = _unit(_noise(rng, TOPICS) + SHARED_DIRECTION * shared)
    around = np.repeat(topics, STATEMENTS_PER_TOPIC, axis=0)
    statements = _unit(around + STATEMENT_SPREAD * _noise(rng, len(around)))
    worlds = [uuid.UUID(int=int(rng.integers(2**63)) + 1) for _ in range(WORLDS)]
    agent_sizes = list(sizes)
    while sum(agent_sizes) < rows:
        size = int(min(rng.lognormal(np.log(FILLER_MEDIAN), 0.8), rows - sum(agent_sizes)))
        agent_sizes.append(max(size, 1))
    popularity = 1.0 / np.arange(1, TOPICS + 1) ** TOPIC_POPULARITY
    agents = []
    for index, size in enumerate(agent_sizes):
        chosen = rng.choice(
            TOPICS, size=TOPICS_PER_AGENT, replace=False, p=popularity / popularity.sum()
        )
        weights = 1.0 / np.arange(1, TOPICS_PER_AGENT + 1) ** TOPIC_POPULARITY
        agents.append(
            Agent(
                id=uuid.UUID(int=int(rng.integers(2**63)) + 1),
                world_id=worlds[index % WORLDS],
                name=f"Agent {index:04d}",
                size=size,
                topics=chosen,
                weights=weights / weights.sum(),
            )
        )
    return Town(seed=seed, agents=agents, topics=topics, statements=statements)


def load(conn: psycopg.Connection[tuple[object, ...]], town: Town) -> None:
    """Worlds and agents, then every memory in game-time order with binary COPY."""
    with conn.cursor() as cursor:
        for world_id in sorted({a.world_id for a in town.agents}):
            cursor.execute(
                "INSERT INTO worlds (id, name, clock_mode, clock_rate, game_time, paused, settings)"
                " VALUES (%s, %s, 'driven', 60, %s, false, '{}')",
                (world_id, f"Bench {world_id.hex[:6]}", town.now),
            )
        for agent in town.agents:
            cursor.execute(
                "INSERT INTO agents (id, world_id, name, innate, background, currently, lifestyle,"
                " living_area, daily_plan_requirement, speaking_style, memories_at_summary,"
                " importance_since_reflection, reflections_done)"
                " VALUES (%s, %s, %s, '', '', '', '', '', '', '', 0, 0, 0)",
                (agent.id, agent.world_id, agent.name),
            )
    register_vector(conn)
    total, started = sum(a.size for a in town.agents), time.monotonic()
    with (
        conn.cursor() as cursor,
        cursor.copy(f"COPY memories ({', '.join(COLUMNS)}) FROM STDIN (FORMAT BINARY)") as copy,
    ):
        copy.set_types(TYPES)
        done = 0
        for chunk in _chunks(town):
            for row in chunk:
                copy.write_row(row)
            done += len(chunk)
            _progress("loading", done, total, started)
    conn.commit()
    print(file=sys.stderr)


def _chunks(town: Town) -> Iterator[list[tuple[object, ...]]]:
    """All rows, interleaved across agents by creation time, COPY_CHUNK at a time."""
    rng = np.random.default_rng(town.seed + 1)
    meta = [_agent_rows(rng, town, index, agent) for index, agent in enumerate(town.agents)]
    owner = np.concatenate([np.full(agent.size, i) for i, agent in enumerate(town.agents)])
    minutes = np.concatenate([m["created"] for m in meta])
    order = np.argsort(minutes, kind="stable")
    fields = {
        key: np.concatenate([m[key] for m in meta])[order]
        for key in ("created", "accessed", "statement", "kind", "importance", "repeat")
    }
    owner = owner[order]
    for start in range(0, len(order), COPY_CHUNK):
        part = slice(start, start + COPY_CHUNK)
        chunk = {key: value[part] for key, value in fields.items()}
        yield _rows(rng, town, owner[part], chunk, first=start)


def _agent_rows(
    rng: np.random.Generator, town: Town, index: int, agent: Agent
) -> dict[str, npt.NDArray[np.int64]]:
    n = agent.size
    day = rng.integers(GAME_DAYS, size=n)
    created = day * 24 * 60 + rng.integers(WAKING_MINUTES, size=n)  # minutes from GAME_START
    end = GAME_DAYS * 24 * 60
    later = rng.random(n) < ACCESSED_LATER_SHARE
    accessed = created + (later * (end - created) * rng.random(n) ** 2).astype(np.int64)
    topics = rng.choice(agent.topics, size=n, p=agent.weights)
    statement = topics * STATEMENTS_PER_TOPIC + rng.integers(STATEMENTS_PER_TOPIC, size=n)
    names = list(KINDS)
    kind = rng.choice(len(names), size=n, p=list(KINDS.values()))
    importance = np.empty(n, dtype=np.int64)
    for k, name in enumerate(names):
        mask = kind == k
        importance[mask] = rng.choice(10, size=int(mask.sum()), p=IMPORTANCE[name]) + 1
    repeat = (rng.random(n) < REPEAT_SHARE).astype(np.int64)
    return {
        "created": created,
        "accessed": accessed,
        "statement": statement,
        "kind": kind,
        "importance": importance,
        "repeat": repeat,
    }


def _rows(
    rng: np.random.Generator,
    town: Town,
    owners: npt.NDArray[np.int64],
    f: dict[str, npt.NDArray[np.int64]],
    *,
    first: int,
) -> list[tuple[object, ...]]:
    n = len(owners)
    base = town.statements[f["statement"]]
    noisy = _unit(base + PARAPHRASE_NOISE * _noise(rng, n))
    vectors = np.where(f["repeat"][:, None] == 1, base, noisy).astype(np.float32)
    last_minute = GAME_DAYS * 24 * 60 - UNEMBEDDED_MINUTES
    names = list(KINDS)
    rows: list[tuple[object, ...]] = []
    for i in range(n):
        agent = town.agents[owners[i]]
        kind = names[f["kind"][i]]
        variant = 0 if f["repeat"][i] else first + i
        text = f"{agent.name} {kind}: statement {f['statement'][i]} ({variant})"
        embedding = None if f["created"][i] >= last_minute else vectors[i]
        rows.append(
            (
                agent.world_id,
                agent.id,
                kind,
                text,
                GAME_START + timedelta(minutes=int(f["created"][i])),
                GAME_START + timedelta(minutes=int(f["accessed"][i])),
                int(f["importance"][i]),
                True,
                embedding,
                hashlib.sha256(text.encode()).hexdigest(),
                1 if kind == "reflection" else 0,
                "game",
            )
        )
    return rows


def _noise(rng: np.random.Generator, n: int) -> Matrix:
    """Gaussian directions of expected norm 1."""
    return rng.standard_normal((n, DIMENSION)) / np.sqrt(DIMENSION)


def _unit(m: Matrix) -> Matrix:
    result: Matrix = m / np.linalg.norm(m, axis=1, keepdims=True)
    return result


def _progress(label: str, done: int, total: int, started: float) -> None:
    rate = done / max(time.monotonic() - started, 1e-9)
    print(
        f"\r{label}: {100 * done / total:5.1f}%  {done:,} rows  {rate:,.0f} rows/s",
        end="",
        file=sys.stderr,
        flush=True,
    )
