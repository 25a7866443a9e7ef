"""The memory stream over HTTP: batches in, memories out, and the paper's retrieval explained.

These shapes are the contract the SDKs rely on; change them only additively.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, Field

from cognition.types import MemoryKind
from service.schemas.common import (
    Flag,
    GameTime,
    GameTimeRead,
    Integer,
    Number,
    Page,
    RequestModel,
    RequiredText,
    Text,
)

MAX_BATCH = 1000
"""Most memories in one write. A larger batch answers 413 (`body.memories`): split it."""
MAX_K = 100
MAX_BUDGET_TOKENS = 1_000_000

SYSTEM_KINDS = frozenset({MemoryKind.REFLECTION.value, MemoryKind.PLAN.value})


def _not_a_system_kind(value: Any) -> Any:
    """Reflections and plans are the agent's own thoughts: only Hearth's loops write them."""
    if isinstance(value, str) and value in SYSTEM_KINDS:
        raise ValueError(f"{value!r} memories are made by the agent itself and cannot be written")
    return value


CallerKind = Annotated[
    Literal["observation", "utterance", "seed", "directive"], BeforeValidator(_not_a_system_kind)
]
CallerSource = Literal["game", "player", "admin"]


class MemoryCreate(RequestModel):
    description: RequiredText = Field(description="what happened, in the agent's words")
    kind: CallerKind = Field(
        "observation", description="observation (default), utterance, seed or directive"
    )
    created_at: GameTime | None = Field(None, description="game time; default: the world's now")
    source: CallerSource = Field("game", description="who says so: game, player or admin")
    subject: Text | None = None
    predicate: Text | None = None
    object: Text | None = None


class MemoryBatch(RequestModel):
    memories: list[MemoryCreate] = Field(
        min_length=1,
        json_schema_extra={"maxItems": MAX_BATCH},
        description=f"1 to {MAX_BATCH} memories, written in one transaction",
    )


class MemoryRead(BaseModel):
    id: int
    kind: MemoryKind
    description: str
    created_at: GameTimeRead = Field(description="game time")
    last_accessed_at: GameTimeRead = Field(description="game time of the last retrieval")
    importance: int = Field(description="1–10; provisional until `importance_scored`")
    importance_scored: bool = Field(description="the Mind has rated it")
    depth: int = Field(description="0, or 1 + the deepest cited memory for a reflection")
    source: str
    embedded: bool = Field(description="its embedding exists (relevance counts from then on)")
    subject: str | None = None
    predicate: str | None = None
    object: str | None = None


class MemoryDetail(MemoryRead):
    evidence: list[MemoryDetail] = Field(
        default_factory=list, description="what a reflection cites, each with its own evidence"
    )


class MemoryPage(Page[MemoryRead]):
    """A page of memories, newest first."""


class SearchWeights(RequestModel):
    """Per-call α weights; an omitted one is the world's (or HEARTH_WEIGHT_*)."""

    recency: Number | None = Field(None, ge=0, le=100)
    importance: Number | None = Field(None, ge=0, le=100)
    relevance: Number | None = Field(None, ge=0, le=100)


class SearchRequest(RequestModel):
    query: RequiredText
    k: Integer = Field(10, ge=1, le=MAX_K)
    kinds: list[MemoryKind] | None = Field(None, min_length=1, description="default: all kinds")
    weights: SearchWeights | None = None
    at: GameTime | None = Field(None, description="game time to score at; default: world now")
    budget_tokens: Integer | None = Field(
        None,
        ge=0,
        le=MAX_BUDGET_TOKENS,
        description="keep the best results whose descriptions fit (≈4 characters a token)",
    )
    touch: Flag = Field(
        True,
        description="mark the results accessed at `at` (the paper does), or at the world's now "
        "if `at` is later: last access never passes the world's clock",
    )


class ComponentRead(BaseModel):
    raw: float
    normalized: float = Field(description="min-max normalised across the agent's candidates")


class Components(BaseModel):
    recency: ComponentRead
    importance: ComponentRead
    relevance: ComponentRead


class SearchResult(BaseModel):
    id: int
    description: str
    kind: MemoryKind
    created_at: GameTimeRead
    importance: int
    score: float
    components: Components


class WeightsRead(BaseModel):
    recency: float
    importance: float
    relevance: float


class SearchResponse(BaseModel):
    results: list[SearchResult] = Field(description="best first; ties go to the newer memory")
    weights: WeightsRead = Field(description="the weights the scores used")
    at: GameTimeRead = Field(description="the game time the scores used")
