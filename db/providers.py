"""Settings → the Mind and the Embedder a process thinks with.

The edges (API, workers) call these once per process; cognition receives the results and never
sees settings. With no model configured the offline mind answers; with one, the LLM mind does,
falling back to the offline mind (calls marked degraded) when HEARTH_LLM_FALLBACK is on, and
past a world's model budget whatever that setting says (`cognition.budget`).
"""

from __future__ import annotations

from cognition.adapters.llm_config import (
    DEFAULT_MAX_CONCURRENCY,
    DEFAULT_TIMEOUT_S,
    LOCAL_MAX_CONCURRENCY,
    LOCAL_TIMEOUT_S,
    LLMConfig,
    is_local,
)
from cognition.embedding_cache import CachedEmbedder
from cognition.frugal import FrugalMind
from cognition.hashing_embedder import HashingEmbedder
from cognition.mind import Embedder, Mind
from cognition.offline import OfflineMind
from db.settings import Settings

DEFAULT_OPENAI_EMBEDDING_MODEL = "text-embedding-3-small"


def llm_config(settings: Settings) -> LLMConfig:
    """The endpoint both the LLM mind and OpenAI embeddings use (no network at build time).
    A model on a loopback URL gets a local model's pace unless the settings say otherwise."""
    base_url = settings.llm_base_url or settings.embedding_base_url
    local = is_local(base_url)
    return LLMConfig(
        base_url=base_url,
        api_key=settings.llm_key or "",
        model=settings.llm_model or "",
        timeout_s=settings.llm_timeout_s or (LOCAL_TIMEOUT_S if local else DEFAULT_TIMEOUT_S),
        max_retries=settings.llm_max_retries,
        max_concurrency=settings.llm_max_concurrency
        or (LOCAL_MAX_CONCURRENCY if local else DEFAULT_MAX_CONCURRENCY),
        output_mode=settings.llm_output_mode,
        output_modes=settings.llm_output_modes,
        prices=settings.llm_prices,
        audit_text=settings.audit_text,
        temperature=settings.llm_temperature,
    )


def build_mind(settings: Settings) -> Mind:
    """The LLM mind when a model is configured, else the offline heuristic mind.

    In the economy profile (the default) the LLM mind is frugal (`cognition.frugal`):
    HEARTH_LLM_CHEAP_OPERATIONS go to the offline heuristics, and an item that already fits one
    step is not sent to be decomposed. In the paper profile the model answers everything."""
    offline = OfflineMind()
    if not settings.llm_configured:
        return offline
    from cognition.adapters.llm import LLMMind

    llm = LLMMind(
        llm_config(settings),
        fallback=offline if settings.llm_fallback else None,
        over_budget=offline,
    )
    if settings.paper:
        return llm  # every operation to the model, nothing answered from a shortcut
    return FrugalMind(llm, cheap=offline, cheap_operations=cheap_operations(settings))


def cheap_operations(settings: Settings) -> frozenset[str]:
    """The operations named in HEARTH_LLM_CHEAP_OPERATIONS."""
    names = (name.strip() for name in settings.llm_cheap_operations.split(","))
    return frozenset(name for name in names if name)


def embedding_warning(settings: Settings) -> str | None:
    """A warning when a language model is paired with lexical (hashing) embeddings: the
    model's retrievals would then rank by shared words, not meaning."""
    if settings.llm_configured and settings.embedding_provider == "hashing":
        return (
            "a language model is configured with HEARTH_EMBEDDING_PROVIDER=hashing: retrieval "
            "relevance is word overlap, not meaning; set HEARTH_EMBEDDING_PROVIDER to a semantic "
            "embedder"
        )
    return None


def build_embedder(settings: Settings) -> Embedder:
    """The configured embedder behind a content-hash cache (identical texts embed once).
    Models load on first use, once per process."""
    inner: Embedder
    if settings.embedding_provider == "wordllama":
        from cognition.adapters.wordllama_embedder import WordLlamaEmbedder

        inner = WordLlamaEmbedder()
    elif settings.embedding_provider == "local":
        from cognition.adapters.local_embedder import LocalMiniLMEmbedder

        inner = LocalMiniLMEmbedder()
    elif settings.embedding_provider == "openai":
        from cognition.adapters.openai_embedder import OpenAIEmbedder

        inner = OpenAIEmbedder(
            llm_config(settings),
            model=settings.embedding_model or DEFAULT_OPENAI_EMBEDDING_MODEL,
            dimension=settings.embedding_dimension,
            send_dimensions=settings.embedding_send_dimensions,
        )
    else:
        inner = HashingEmbedder(dimension=settings.embedding_dimension)
    return CachedEmbedder(inner)
