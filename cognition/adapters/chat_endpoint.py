"""One OpenAI-compatible chat endpoint: a request, its retries, its audit, its output mode.

Structured output is asked for in the best way the server accepts. In "auto" mode the first
request uses `json_schema`; a 400/422 that names `response_format` downgrades to
`json_object`, then to plain text (the parsers extract JSON from prose either way). The
downgrade is remembered per endpoint and model for the rest of the process, so the cost of
discovering it is paid once. Every HTTP request, failed or not, is one `CallRecord`, announced
to the audit before it is sent (`AuditSink.begin`) and recorded when it comes back.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, Literal, cast

import openai
from openai.types.chat import ChatCompletion

from cognition.adapters.llm_config import LLMConfig, cost_usd, make_client
from cognition.adapters.retry import describe, with_retries
from cognition.errors import ModelError, Refused
from cognition.mind import AuditSink
from cognition.tokens import estimate_tokens
from cognition.types import CallRecord

log = logging.getLogger(__name__)

WireMode = Literal["json_schema", "json_object", "text"]
Message = dict[str, str]
"""A chat message on the wire: {"role": ..., "content": ...}."""

DOWNGRADES: dict[WireMode, WireMode] = {"json_schema": "json_object", "json_object": "text"}
FORMAT_REJECTION_STATUSES = frozenset({400, 422})
FORMAT_WORDS = ("response_format", "json_schema", "json_object")
MS_PER_S = 1000.0

_negotiated: dict[tuple[str, str], WireMode] = {}
"""Per (base URL, model): the output mode the server accepted; shared by the whole process."""
_negotiated_lock = threading.Lock()


class ChatChannel:
    """The client, the concurrency slots and the retry policy shared by copies of a mind."""

    def __init__(
        self,
        config: LLMConfig,
        *,
        client: openai.OpenAI | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.config = config
        self._client = client or make_client(config)
        self._slots = threading.BoundedSemaphore(config.max_concurrency)
        self._sleep = sleep
        self._rng = random.Random()
        self._key = (str(self._client.base_url), config.model)

    def complete(
        self,
        *,
        operation: str,
        messages: Sequence[Message],
        schema: Mapping[str, Any],
        audit: AuditSink,
        max_tokens: int | None = None,
    ) -> str:
        """The assistant's answer to `messages`, asked to follow `schema` (a JSON Schema) in
        at most `max_tokens` tokens."""
        while True:
            mode = self.output_mode(operation)
            attempt = partial(self._attempt, operation, messages, schema, mode, audit, max_tokens)
            try:
                return with_retries(
                    attempt, self.config.retry_policy, sleep=self._sleep, rng=self._rng
                )
            except openai.OpenAIError as exc:
                if not self._downgraded(mode, exc):
                    raise ModelError(
                        f"the model endpoint rejected the request: {describe(exc)}"
                    ) from exc

    def output_mode(self, operation: str = "") -> WireMode:
        """The mode the next request for `operation` will use: the one configured for the
        operation, else the configured one, else the one negotiated with the server."""
        configured = self.config.mode_for(operation)
        if configured != "auto":
            return configured
        with _negotiated_lock:
            return _negotiated.get(self._key, "json_schema")

    def _downgraded(self, mode: WireMode, exc: openai.OpenAIError) -> bool:
        """Remember a lesser output mode if `exc` is the server rejecting `mode`."""
        lesser = DOWNGRADES.get(mode)
        if self.config.output_mode != "auto" or lesser is None or not _rejects_format(exc):
            return False
        with _negotiated_lock:
            _negotiated[self._key] = lesser
        log.warning("%s rejected %s output; using %s from now on", self._key, mode, lesser)
        return True

    def _attempt(
        self,
        operation: str,
        messages: Sequence[Message],
        schema: Mapping[str, Any],
        mode: WireMode,
        audit: AuditSink,
        max_tokens: int | None,
    ) -> str:
        limit: dict[str, Any] = {} if max_tokens is None else {"max_tokens": max_tokens}
        with self._slots:
            prompt = transcript(messages) if self.config.audit_text else None
            finish = audit.begin(operation, self.config.model, prompt)
            started = time.perf_counter()
            try:
                response = self._client.chat.completions.create(
                    model=self.config.model,
                    messages=cast(Any, list(messages)),
                    temperature=self.config.temperature,
                    timeout=self.config.timeout_s,
                    **limit,
                    **_format_args(mode, operation, schema),
                )
            except Exception as exc:
                finish(self._record(operation, messages, started, mode, error=describe(exc)))
                raise
        content, refusal = _answer(response)
        usage = response.usage
        record = self._record(
            operation,
            messages,
            started,
            mode,
            response=content,
            error=f"refused: {refusal}" if refusal else None,
            tokens=(usage.prompt_tokens, usage.completion_tokens) if usage else None,
        )
        finish(record)
        if refusal:
            raise Refused(f"the model declined: {refusal}")
        return content

    def _record(
        self,
        operation: str,
        messages: Sequence[Message],
        started: float,
        mode: WireMode,
        *,
        error: str | None,
        response: str | None = None,
        tokens: tuple[int, int] | None = None,
    ) -> CallRecord:
        """One audit row; a failed request reports no tokens, since we cannot know the bill."""
        prompt = transcript(messages)
        if tokens is None:
            succeeded = response is not None
            tokens = (
                (estimate_tokens(prompt), estimate_tokens(response or "")) if succeeded else (0, 0)
            )
        keep = self.config.audit_text
        return CallRecord(
            operation=operation,
            model=self.config.model,
            tokens_in=tokens[0],
            tokens_out=tokens[1],
            latency_ms=(time.perf_counter() - started) * MS_PER_S,
            cost_usd=cost_usd(self.config.prices, self.config.model, *tokens),
            error=error,
            prompt=prompt if keep else None,
            response=response if keep else None,
            extra={"output_mode": mode},
        )


def transcript(messages: Sequence[Message]) -> str:
    """The conversation as audit text: `[role]` headers over each message."""
    return "\n\n".join(f"[{message['role']}]\n{message['content']}" for message in messages)


def _schema_format(operation: str, schema: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "type": "json_schema",
        "json_schema": {"name": operation, "schema": dict(schema), "strict": True},
    }


def _format_args(mode: WireMode, operation: str, schema: Mapping[str, Any]) -> dict[str, Any]:
    if mode == "json_schema":
        return {"response_format": _schema_format(operation, schema)}
    if mode == "json_object":
        return {"response_format": {"type": "json_object"}}
    return {}


def _answer(response: ChatCompletion) -> tuple[str, str | None]:
    """The content and, if the model declined (refusal field or content filter), why."""
    if not response.choices:
        return "", None
    choice = response.choices[0]
    refusal = choice.message.refusal
    if not refusal and choice.finish_reason == "content_filter":
        refusal = "the content filter stopped the answer"
    return choice.message.content or "", refusal or None


def _rejects_format(exc: openai.OpenAIError) -> bool:
    if not isinstance(exc, openai.APIStatusError):
        return False
    if exc.status_code not in FORMAT_REJECTION_STATUSES:
        return False
    text = f"{exc} {exc.body}".lower()
    return any(word in text for word in FORMAT_WORDS)
