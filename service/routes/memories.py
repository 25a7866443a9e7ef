"""An agent's memory stream: write batches, page through it, read a reflection's evidence tree,
and retrieve by the paper's score with every term explained.

A write commits first and enqueues enrichment (embedding + the Mind's importance) second, so a
broker outage never loses accepted memories: the beat backlog sweep enriches them later.
"""

from __future__ import annotations

from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import JSONResponse

from cognition.mind import Embedder
from cognition.retrieval import fit_budget
from cognition.types import MemoryKind, MemorySource, NewMemory, RetrievalWeights, ScoredMemory
from db.models import Memory
from db.queries.memories import evidence_tree, get_memory, insert_batch, list_memories
from db.queries.worlds import effective_weights, game_now
from db.store import PgMemoryStore
from service.deps import (
    CurrentAgent,
    CurrentWorld,
    IdempotencyDep,
    SessionDep,
    SettingsDep,
)
from service.enqueue import enqueue, enrichment
from service.errors import ERROR_RESPONSES, ApiError
from service.idempotency import run_once
from service.pagination import (
    DEFAULT_PAGE_SIZE,
    CursorQuery,
    LimitQuery,
    decode_cursor,
    encode_cursor,
    time_and_int,
)
from service.schemas.common import MAX_ID, NO_NUL, GameTime
from service.schemas.memories import (
    MAX_BATCH,
    ComponentRead,
    Components,
    MemoryBatch,
    MemoryCreate,
    MemoryDetail,
    MemoryPage,
    MemoryRead,
    SearchRequest,
    SearchResponse,
    SearchResult,
    SearchWeights,
    WeightsRead,
)

router = APIRouter(
    prefix="/v1/worlds/{world_id}/agents/{agent_id}/memories",
    tags=["memories"],
    responses=ERROR_RESPONSES,
)

MemoryId = Annotated[int, Path(ge=1, le=MAX_ID)]


def memory_read(row: Memory | sa.Row[Any]) -> MemoryRead:
    return MemoryRead(
        id=row.id,
        kind=MemoryKind(row.kind),
        description=row.description,
        created_at=row.created_at,
        last_accessed_at=row.last_accessed_at,
        importance=row.importance,
        importance_scored=row.importance_scored,
        depth=row.depth,
        source=row.source,
        embedded=row.embedding is not None,
        subject=row.subject,
        predicate=row.predicate,
        object=row.object,
    )


def new_memory(item: MemoryCreate) -> NewMemory:
    return NewMemory(
        description=item.description,
        kind=MemoryKind(item.kind),
        created_at=item.created_at,
        source=MemorySource(item.source),
        subject=item.subject,
        predicate=item.predicate,
        object=item.object,
    )


@router.post("", status_code=201, response_model=MemoryPage, summary="Write memories (a batch)")
def create(
    body: MemoryBatch,
    world: CurrentWorld,
    agent: CurrentAgent,
    idempotency: IdempotencyDep,
    session: SessionDep,
) -> JSONResponse:
    if len(body.memories) > MAX_BATCH:
        raise ApiError(
            413,
            "payload_too_large",
            f"at most {MAX_BATCH} memories per request; got {len(body.memories)}",
            field="body.memories",
        )

    def make() -> tuple[int, MemoryPage]:
        items = [new_memory(m) for m in body.memories]
        rows = insert_batch(
            session, world_id=world.id, agent_id=agent.id, items=items, now=game_now(world)
        )
        enqueue(session, enrichment([row.id for row in rows]))
        return 201, MemoryPage(items=[memory_read(row) for row in rows])

    return run_once(session, idempotency, body=body, world_id=world.id, create=make)


@router.get("", response_model=MemoryPage, summary="Page through memories, newest first")
def index(
    agent: CurrentAgent,
    session: SessionDep,
    limit: LimitQuery = DEFAULT_PAGE_SIZE,
    cursor: CursorQuery = None,
    kind: Annotated[list[MemoryKind] | None, Query(description="repeat to allow several")] = None,
    since: Annotated[GameTime | None, Query(description="created_at ≥ since (game time)")] = None,
    until: Annotated[GameTime | None, Query(description="created_at < until (game time)")] = None,
    text: Annotated[
        str | None,
        Query(max_length=200, pattern=NO_NUL, description="description contains this (any case)"),
    ] = None,
) -> MemoryPage:
    before = decode_cursor(cursor, time_and_int)
    rows = list_memories(
        session,
        agent_id=agent.id,
        limit=limit + 1,
        before=before,
        kinds=[k.value for k in kind or []],
        since=since,
        until=until,
        text=text,
    )
    page, more = rows[:limit], len(rows) > limit
    last = page[-1] if more else None
    next_cursor = encode_cursor([last.created_at.isoformat(), last.id]) if last else None
    return MemoryPage(items=[memory_read(r) for r in page], next_cursor=next_cursor)


@router.get(
    "/{memory_id}",
    response_model=MemoryDetail,
    summary="Read a memory; a reflection with the tree of evidence it cites",
)
def read(memory_id: MemoryId, agent: CurrentAgent, session: SessionDep) -> MemoryDetail:
    row = get_memory(session, agent_id=agent.id, memory_id=memory_id)
    if row is None:
        raise ApiError(404, "not_found", f"no memory {memory_id} for this agent")
    cited, children = evidence_tree(session, agent_id=agent.id, root_id=row.id)
    return _detail(row, cited, children, owner=_first_citers(row.id, children), path=frozenset())


def _first_citers(root: int, children: dict[int, list[int]]) -> dict[int, int]:
    """Each cited memory → the memory that cites it at its shallowest level (breadth first,
    lowest id first). Reflections cite reflections that share evidence, so the tree of every
    citation path grows exponentially with depth; each memory's own evidence is therefore
    given once, under this citer, and elsewhere it appears with no evidence of its own."""
    owner: dict[int, int] = {}
    level = [root]
    while level:
        nxt: list[int] = []
        for citer in level:
            for cited in children.get(citer, []):
                if cited != root and cited not in owner:
                    owner[cited] = citer
                    nxt.append(cited)
        level = nxt
    return owner


def _detail(
    row: Memory,
    cited: dict[int, Memory],
    children: dict[int, list[int]],
    *,
    owner: dict[int, int],
    path: frozenset[int],
) -> MemoryDetail:
    """The memory with its evidence nested (see `_first_citers`); a citation back up the path
    is not followed."""
    inner = path | {row.id}
    evidence = [
        _detail(cited[i], cited, children, owner=owner, path=inner)
        if owner.get(i) == row.id
        else MemoryDetail(**memory_read(cited[i]).model_dump(), evidence=[])
        for i in children.get(row.id, [])
        if i not in inner
    ]
    return MemoryDetail(**memory_read(row).model_dump(), evidence=evidence)


@router.post(
    "/search",
    response_model=SearchResponse,
    summary="Retrieve by the paper's score: recency + importance + relevance",
)
def search(
    body: SearchRequest,
    world: CurrentWorld,
    agent: CurrentAgent,
    session: SessionDep,
    settings: SettingsDep,
    request: Request,
) -> SearchResponse:
    now = game_now(world)
    at = body.at or now
    weights = _weights(body.weights, effective_weights(world, settings))
    embedder: Embedder = request.app.state.embedder
    store = PgMemoryStore(
        session, world_id=world.id, agent_id=agent.id, embedder=embedder, weights_default=weights
    )
    scored = store.retrieve(body.query, k=body.k, now=at, kinds=body.kinds, touch=False)
    if body.budget_tokens is not None:
        scored = fit_budget(scored, body.budget_tokens)
    if body.touch:  # never past the world's clock: a memory touched ahead would stay recent
        store.touch([s.memory.id for s in scored], now=min(at, now))
    session.commit()
    return SearchResponse(
        results=[_result(s) for s in scored], at=at, weights=WeightsRead(**vars(weights))
    )


def _weights(asked: SearchWeights | None, default: RetrievalWeights) -> RetrievalWeights:
    """Per-call weights, each omitted one taken from the world's."""
    if asked is None:
        return default
    return RetrievalWeights(
        recency=default.recency if asked.recency is None else asked.recency,
        importance=default.importance if asked.importance is None else asked.importance,
        relevance=default.relevance if asked.relevance is None else asked.relevance,
    )


def _result(item: ScoredMemory) -> SearchResult:
    memory = item.memory
    parts = {
        name: ComponentRead(raw=c.raw, normalized=c.normalized)
        for name, c in (
            ("recency", item.recency),
            ("importance", item.importance),
            ("relevance", item.relevance),
        )
    }
    return SearchResult(
        id=memory.id,
        description=memory.description,
        kind=memory.kind,
        created_at=memory.created_at,
        importance=memory.importance,
        score=item.score,
        components=Components(**parts),
    )
