"""`LLMMind`: the Mind on any OpenAI-compatible endpoint (OpenAI, Azure, Ollama, vLLM, …).

Each request takes its `Ask` from `cognition.asks` (template + schema + parser), sends it
through the `ChatChannel` (retries, timeouts, output mode, audit), and parses the answer. An
answer that does not parse is re-asked once, quoting the problem; a second failure raises
`InvalidOutput`. With a fallback mind, a model that is unavailable, rejects the request, or
answers unusably twice is replaced by the fallback for that call, and the audit row says so
(`degraded=True`). A refusal is never papered over: it raises `Refused`. An answer the parser
mended (a near-miss such as a memory rated twice) is used; what was mended is logged and
given to `on_repair` (the bench counts repairs with it).

Before each ask (and re-ask) the audit sink admits the call (`AuditSink.admit`); past the
world's budget it raises `OverBudget`, no request is sent, and `over_budget` (the offline
mind; the fallback when none is given) answers, audited as degraded with the reason.
"""

from __future__ import annotations

import copy
import logging
import time
from collections.abc import Callable, Sequence
from typing import TypeVar, cast

import openai

from cognition import asks, prompting
from cognition.adapters.chat_endpoint import ChatChannel, Message
from cognition.adapters.llm_config import LLMConfig, OutputMode
from cognition.errors import InvalidInput, InvalidOutput, ModelError, OverBudget, Refused
from cognition.mind import AuditSink, Mind, NullAudit
from cognition.parsing import repairs
from cognition.requests import ChooseLocation, RateImportance, Request
from cognition.types import CallRecord

__all__ = ["LLMConfig", "LLMMind", "OutputMode"]

T = TypeVar("T")
MS_PER_S = 1000.0
RepairObserver = Callable[[str, Sequence[str]], None]
"""Told the operation and what its parser mended in an answer it then used."""
log = logging.getLogger(__name__)


class LLMMind:
    """The language faculty backed by a chat model; cheap to copy with another audit sink."""

    def __init__(
        self,
        config: LLMConfig,
        *,
        fallback: Mind | None = None,
        over_budget: Mind | None = None,
        audit: AuditSink | None = None,
        client: openai.OpenAI | None = None,
        sleep: Callable[[float], None] = time.sleep,
        on_repair: RepairObserver | None = None,
    ) -> None:
        """No network here: the client connects on the first call."""
        self._on_repair = on_repair
        self._channel = ChatChannel(config, client=client, sleep=sleep)
        self._fallback = fallback.with_audit(NullAudit()) if fallback is not None else None
        thrifty = over_budget if over_budget is not None else fallback
        self._over_budget = thrifty.with_audit(NullAudit()) if thrifty is not None else None
        self._audit: AuditSink = audit or NullAudit()

    @property
    def model(self) -> str:
        return self._channel.config.model

    def with_audit(self, audit: AuditSink) -> LLMMind:
        """The same mind (client, concurrency slots, fallback) reporting to `audit`."""
        twin = copy.copy(self)
        twin._audit = audit
        return twin

    def think(self, request: Request[T]) -> T:
        """The model's parsed answer to `request`, or the fallback's when the model fails."""
        if isinstance(request, RateImportance) and not request.memories:
            return cast(T, [])
        if isinstance(request, ChooseLocation) and not request.options:
            raise InvalidInput("an agent that knows no place cannot go anywhere", field="places")
        return self._run(asks.ask_for(request), request)

    def _run(self, ask: asks.Ask[T], request: Request[T]) -> T:
        """The model's parsed answer, or the fallback's when the model cannot give one."""
        try:
            return self._converse(ask)
        except Refused:
            raise
        except OverBudget as exc:
            if self._over_budget is None:
                raise
            return self._degrade(exc, self._over_budget, request)
        except ModelError as exc:
            if self._fallback is None:
                raise
            return self._degrade(exc, self._fallback, request)

    def _converse(self, ask: asks.Ask[T]) -> T:
        """Ask; on an unusable answer, show the model its answer and the problem, once."""
        messages: list[Message] = [
            {"role": "system", "content": prompting.render("system")},
            {"role": "user", "content": ask.prompt},
        ]
        raw = self._complete(ask, messages)
        try:
            return self._parse(ask, raw)
        except InvalidOutput as first:
            messages += [
                {"role": "assistant", "content": raw},
                {"role": "user", "content": prompting.render("correction", problem=str(first))},
            ]
        return self._parse(ask, self._complete(ask, messages))

    def _parse(self, ask: asks.Ask[T], raw: str) -> T:
        """The parsed answer; near-misses the parser mended are logged and observed."""
        with repairs.collecting() as mended:
            result = ask.parse(raw)
        if mended:
            log.info("%s: repaired the answer: %s", ask.operation, "; ".join(mended))
            if self._on_repair is not None:
                self._on_repair(ask.operation, mended)
        return result

    def _complete(self, ask: asks.Ask[T], messages: Sequence[Message]) -> str:
        self._audit.admit(ask.operation)  # OverBudget: no request is sent
        return self._channel.complete(
            operation=ask.operation,
            messages=messages,
            schema=ask.json_schema,
            audit=self._audit,
            max_tokens=ask.max_tokens,
        )

    def _degrade(self, exc: ModelError, mind: Mind, request: Request[T]) -> T:
        """The fallback's answer, audited as degraded with the reason the model failed."""
        started = time.perf_counter()
        result = mind.think(request)
        keep = self._channel.config.audit_text
        self._audit.record(
            CallRecord(
                operation=request.operation,
                model=mind.model,
                tokens_in=0,
                tokens_out=0,
                latency_ms=(time.perf_counter() - started) * MS_PER_S,
                error=f"{type(exc).__name__}: {exc}",
                degraded=True,
                response=repr(result) if keep else None,
                extra={"primary_model": self.model},
            )
        )
        return result
