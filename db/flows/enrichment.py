"""Enrichment: what a memory gains after it is written — its embedding and the Mind's importance.

Writes never wait on a model: a memory is stored with a provisional importance and no
embedding, retrievable at once, and `enrich` completes it from the fast queue. For a batch of
ids it embeds every text still missing a vector in one embedder call (a text whose
content_hash already has a vector in the database copies it, and identical texts are embedded
once), rates every unscored memory with one Mind call per world and focus (audited to that
world and focus and admitted by its model budget, `db.budget`; the memories of agents out of
focus in a `focused` world are rated by the offline mind, `cognition.focus`), and
adds each newly scored perceived memory's importance (observations, lines heard, directives) to
its agent's reflection accumulator.

`enrich` is a unit of work of three short transactions, because no transaction may stay open
across a model call (an LLM answer takes seconds; meanwhile the transaction would pin locks,
and the audit rows written beside it could queue behind DDL waiting on it): read what is
missing; ask the models, with no transaction open (each Mind call audited in its own); lock
the rows in id order, re-read them, and write only what is still missing (one UPDATE for the
batch). So a redelivered or concurrent run changes nothing twice, and the accumulator counts
only memories whose `importance_scored` flips in this run. The SQL is `db.queries.enrichment`.
The same UPDATE stores each memory's fields where its writer did not (`memories.detail`: the
line said, the news carried), read once from its words by `knowledge.read_detail`.
Being three transactions, this is the one flow that opens its own (`enrich_memories`: the
batch, then the reflections it made due).
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import Session, sessionmaker

from cognition import prompt_budget
from cognition.asks import ask_for
from cognition.budget import Budget
from cognition.errors import InvalidOutput
from cognition.focus import Focus, thinks_offline
from cognition.mind import AuditSink, Embedder, Mind
from cognition.offline import OfflineMind, knowledge
from cognition.offline.mind import OFFLINE_MODEL
from cognition.reflection import should_reflect
from cognition.requests import RateImportance
from cognition.types import MemoryDetail, MemoryKind, Persona
from db import jobs, memory_detail
from db.audit import recorded_calls
from db.budget import Budgets
from db.flows.agent_scope import Outcome
from db.flows.faculties import Faculties
from db.models import Agent, World
from db.queries import enrichment as queries
from db.queries.agents import to_persona
from db.queries.enrichment import Accumulated, Enrichment, Pending
from db.queries.reflections import next_runs
from db.queries.worlds import game_now, mind_focus, reflection_threshold
from db.session import session_scope
from db.settings import Settings

DEFAULT_RATE_BATCH = 100
"""Memories per `rate_importance` call: one call for a typical batch, while a 1000-memory
backlog still fits an LLM's prompt and output comfortably."""

DEFAULT_BACKLOG_LIMIT = 500

IMPORTANCE_RANGE = (1, 10)


@dataclass(frozen=True)
class Enriched:
    embedded: int = 0
    scored: int = 0
    accumulated: list[Accumulated] = field(default_factory=list)


def enrich(
    sessions: sessionmaker[Session],
    ids: Sequence[int],
    *,
    embedder: Embedder,
    mind: Mind,
    rate_batch: int = DEFAULT_RATE_BATCH,
    rate_routine: bool = True,
    budgets: Budgets | None = None,
    offline: Mind | None = None,
) -> Enriched:
    """Embed and rate whichever of `ids` still need it; commits its own transactions.
    With `budgets`, each world's rating calls are admitted by its model budget; `offline`
    (default: the offline mind) rates for agents out of focus in a `focused` world.

    Without `rate_routine` (the economy profile), an agent's sight of itself starting an
    action keeps its provisional lexical score as the Mind's: routine self-perception is
    rated as well by the heuristics, and a town's day of it would be a batch of calls."""
    with session_scope(sessions) as session:
        seen = queries.pending(session, ids)
        to_embed = [p for p in seen if p.needs_embedding]
        copies = queries.donors(
            session, {p.content_hash for p in to_embed}, dimension=embedder.dimension
        )
        scopes = _audit_scopes(session, [p for p in seen if p.needs_score], budgets)
    if not seen:
        return Enriched()
    fresh = _embed_missing([p for p in to_embed if p.content_hash not in copies], embedder)
    to_rate = [p for p in seen if p.needs_score and (rate_routine or not p.self_seen)]
    minds = Minds(mind, offline if offline is not None else OfflineMind())
    scores = _rate(to_rate, minds, sessions, scopes, rate_batch, budgets)
    scores |= {p.id: p.provisional for p in seen if p.needs_score and p.id not in scores}
    with session_scope(sessions) as session:
        locked = queries.pending(session, [p.id for p in seen], lock=True)
        items = [_enrichment(p, fresh, copies, scores) for p in locked]
        queries.store(session, items)
        newly_scored = {i.id: i.score for i in items if i.score is not None}
        accumulated = queries.accumulate(
            session, queries.perceived_importance(locked, newly_scored)
        )
    return Enriched(
        embedded=sum(1 for i in items if i.vector is not None or i.donor is not None),
        scored=len(newly_scored),
        accumulated=accumulated,
    )


def enrich_memories(
    sessions: sessionmaker[Session], faculties: Faculties, ids: Sequence[int]
) -> Outcome:
    """`enrich` these memories, then ask for one reflection per agent whose accumulator this
    run carried past its world's threshold (exactly one run reports each crossing), once
    this run's scores are committed."""
    done = enrich(
        sessions,
        ids,
        embedder=faculties.embedder,
        mind=faculties.mind,
        rate_routine=faculties.settings.paper,
        budgets=faculties.budgets,
        offline=faculties.offline,
    )
    with session_scope(sessions) as session:
        crossed = after_enrichment(session, done.accumulated, settings=faculties.settings)
        due = next_runs(session, crossed)
    report = {
        "embedded": done.embedded,
        "scored": done.scored,
        "crossed": [str(agent_id) for agent_id in crossed],
    }
    return Outcome(report, tuple(jobs.reflect(agent_id, seq) for agent_id, seq in due))


def backlog(session: Session, *, limit: int = DEFAULT_BACKLOG_LIMIT) -> list[int]:
    """Memories whose enrichment job was lost or failed (see `db.queries.enrichment`)."""
    return queries.backlog(session, limit=limit)


def after_enrichment(
    session: Session, accumulated: Sequence[Accumulated], *, settings: Settings
) -> list[uuid.UUID]:
    """The agents whose accumulator crossed their world's reflection threshold in this run.

    The hook for the reflection loop: each crossing is reported by exactly one run (the one
    whose addition carried the sum past the threshold), so enqueueing one reflection per
    returned agent reflects once per crossing."""
    if not accumulated:
        return []
    worlds = {
        w.id: w
        for w in session.scalars(
            sa.select(World).where(World.id.in_({a.world_id for a in accumulated}))
        )
    }
    crossed = []
    for item in accumulated:
        threshold = reflection_threshold(worlds[item.world_id], settings)
        # "Exceeds", as `cognition.reflection.should_reflect`: reaching exactly the threshold
        # is not a crossing yet; the addition that goes past it is.
        if not should_reflect(item.before, threshold) and should_reflect(item.after, threshold):
            crossed.append(item.agent_id)
    return crossed


def _embed_missing(pending: Sequence[Pending], embedder: Embedder) -> dict[str, list[float]]:
    """One embedder call for the distinct texts, keyed by content hash."""
    texts = {p.content_hash: p.description for p in pending}
    if not texts:
        return {}
    vectors = embedder.embed(list(texts.values()))
    if len(vectors) != len(texts):
        raise InvalidOutput(f"embedder returned {len(vectors)} vectors for {len(texts)} texts")
    return dict(zip(texts, vectors, strict=True))


@dataclass(frozen=True)
class Minds:
    """The configured mind, and the one that rates for agents out of focus."""

    configured: Mind
    offline: Mind


Group = tuple[uuid.UUID, Focus]
"""A world and the focus of the agents whose memories one rating call is for."""


@dataclass(frozen=True)
class AuditScope:
    """Whom a group's Mind call is recorded against: the world, its agent when the group has
    only one, the world's game time and the agents' focus; the world's model budget; and
    whether the offline mind rates (agents out of focus in a `focused` world)."""

    members: frozenset[uuid.UUID]
    game_time: datetime | None
    budget: Budget = field(default_factory=Budget)
    offline: bool = False

    @property
    def agent_id(self) -> uuid.UUID | None:
        return next(iter(self.members)) if len(self.members) == 1 else None


def _groups(session: Session, pending: Sequence[Pending]) -> dict[Group, set[uuid.UUID]]:
    """The agents of `pending` by world and focus."""
    ids = {p.agent_id for p in pending}
    query = sa.select(Agent.id, Agent.in_focus).where(Agent.id.in_(ids))
    focused = {agent_id: marked for agent_id, marked in session.execute(query)} if ids else {}
    groups: dict[Group, set[uuid.UUID]] = defaultdict(set)
    for p in pending:
        groups[(p.world_id, Focus.of(focused.get(p.agent_id, False)))].add(p.agent_id)
    return groups


def _audit_scopes(
    session: Session, pending: Sequence[Pending], budgets: Budgets | None
) -> dict[Group, AuditScope]:
    scopes = {}
    for (world_id, focus), members in _groups(session, pending).items():
        world = session.get(World, world_id)
        scopes[(world_id, focus)] = AuditScope(
            members=frozenset(members),
            game_time=game_now(world) if world else None,
            budget=budgets.of(world) if world and budgets else Budget(),
            offline=world is not None and thinks_offline(mind_focus(world), focus),
        )
    return scopes


def _rate(
    pending: Sequence[Pending],
    minds: Minds,
    audit_to: sessionmaker[Session],
    scopes: dict[Group, AuditScope],
    rate_batch: int,
    budgets: Budgets | None,
) -> dict[int, int]:
    """The Mind's importance for each memory id: one call per world and focus (per
    `rate_batch` distinct texts), each recorded in `llm_calls` in its own transaction and
    admitted by the world's budget; the offline mind's for a group out of focus in a
    `focused` world."""
    group_of = {(g[0], agent): g for g, scope in scopes.items() for agent in scope.members}
    by_group: dict[Group, list[Pending]] = defaultdict(list)
    for p in pending:
        by_group[group_of[(p.world_id, p.agent_id)]].append(p)
    scores: dict[int, int] = {}
    for (world_id, focus), items in by_group.items():
        texts = list(dict.fromkeys(p.description for p in items))
        scope = scopes[(world_id, focus)]
        personas = _personas(audit_to, {p.agent_id for p in items})
        mind = minds.offline if scope.offline else minds.configured
        with recorded_calls(
            audit_to,
            world_id=world_id,
            agent_id=scope.agent_id,
            game_time=scope.game_time,
            focus=focus,
        ) as sink:
            audit: AuditSink = sink
            if not scope.offline and budgets is not None and scope.game_time is not None:
                audit = budgets.meter(
                    sink,
                    sessions=audit_to,
                    world_id=world_id,
                    budget=scope.budget,
                    game_time=scope.game_time,
                )
            rated = _rate_texts(mind.with_audit(audit), texts, rate_batch, personas)
        by_text = dict(zip(texts, rated, strict=True))
        scores.update({p.id: by_text[p.description] for p in items})
    return scores


def _rate_texts(
    mind: Mind, texts: Sequence[str], rate_batch: int, personas: Sequence[Persona]
) -> list[int]:
    scores: list[int] = []
    for chunk in _rating_batches(mind, texts, rate_batch, personas):
        scores += _checked(mind.think(RateImportance(chunk, personas=personas)), len(chunk))
    return scores


def _rating_batches(
    mind: Mind, texts: Sequence[str], rate_batch: int, personas: Sequence[Persona]
) -> list[list[str]]:
    """Batches of `rate_batch`, smaller where a model's prompt would pass its budget
    (`cognition.prompt_budget`); the offline mind reads no prompt."""
    if mind.model == OFFLINE_MODEL:
        return [list(texts[at : at + rate_batch]) for at in range(0, len(texts), rate_batch)]
    return prompt_budget.batches(
        texts,
        lambda chunk: ask_for(RateImportance(chunk, personas=personas)).prompt,
        budget=prompt_budget.PROMPT_BUDGETS[RateImportance.operation],
        most=rate_batch,
    )


MAX_PERSONAS = 10
"""Whose memories a rating batch holds, shown to the model (a prompt, not a census)."""


def _personas(sessions: sessionmaker[Session], agent_ids: set[uuid.UUID]) -> list[Persona]:
    """The persons whose memories are being rated (read outside any lock)."""
    with sessions() as session:
        ids = sorted(agent_ids)[:MAX_PERSONAS]
        rows = session.scalars(sa.select(Agent).where(Agent.id.in_(ids)).order_by(Agent.name))
        return [to_persona(row) for row in rows]


def _checked(scores: list[int], expected: int) -> list[int]:
    if len(scores) != expected:
        raise InvalidOutput(f"the mind rated {len(scores)} memories of {expected}")
    low, high = IMPORTANCE_RANGE
    return [max(low, min(high, int(s))) for s in scores]


def _enrichment(
    p: Pending, fresh: dict[str, list[float]], copies: dict[str, int], scores: dict[int, int]
) -> Enrichment:
    """What is still missing for `p` (its state read under the row lock)."""
    vector = fresh.get(p.content_hash) if p.needs_embedding else None
    donor = copies.get(p.content_hash) if p.needs_embedding and vector is None else None
    detail = _detail(p) if p.needs_detail else None
    score = scores.get(p.id) if p.needs_score else None
    if score is not None and detail is not None and p.kind == MemoryKind.SEED:
        # an admin's seed is news by how it came: it weighs at least what its news weighs,
        # however plainly it is told ("Last evening Mercy was walking home when …")
        score = max([score, *(fact.weight for fact in detail.news)])
    return Enrichment(
        id=p.id,
        vector=vector,
        donor=donor,
        score=score,
        detail=memory_detail.to_json(detail) if detail is not None else None,
    )


def _detail(p: Pending) -> MemoryDetail:
    """The memory's fields, read from its words on its own day (`knowledge.read_detail`)."""
    told = p.kind == MemoryKind.SEED  # an admin's news, in the agent's own words
    speaker = p.owner if told else None
    return knowledge.read_detail(p.description, now=p.created_at, told=told, speaker=speaker)
