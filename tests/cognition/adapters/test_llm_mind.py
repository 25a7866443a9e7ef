"""`LLMMind` through the real `openai` client against a fake OpenAI-compatible HTTP server.

Backoff sleeps are recorded instead of slept, so retries cost nothing but the HTTP round trip.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import replace
from datetime import datetime
from typing import Any

import pytest

from cognition.adapters.llm import LLMConfig, LLMMind
from cognition.errors import InvalidOutput, ModelError, ModelUnavailable, OverBudget, Refused
from cognition.mind import AuditSink, ListAudit, Mind
from cognition.requests import Emoji, NextUtterance, PlanDay, RateImportance, React, Request
from cognition.types import Persona, PlanItem, Reaction, Utterance
from tests.fakes.openai_server import (
    FakeOpenAI,
    bad_request,
    malformed_body,
    rate_limited,
    refusal,
    reply,
    response_format_unsupported,
    server_error,
    slow,
)

MODEL = "gpt-test"
NOW = datetime(2023, 2, 13, 16, 56)
JOHN = Persona(name="John Lin", age=45, innate="patient, kind")
RATINGS = '{"ratings": [2, 9]}'
MEMORIES = ["brushed teeth", "got accepted to college"]


class FallbackMind:
    """A tiny stand-in for the offline mind: fixed answers, and a count of its calls."""

    def __init__(self) -> None:
        self.calls = 0

    @property
    def model(self) -> str:
        return "fake-offline"

    def with_audit(self, audit: AuditSink) -> FallbackMind:
        return self

    def think(self, request: Request[Any]) -> Any:
        self.calls += 1
        if isinstance(request, RateImportance):
            return [5] * len(request.memories)
        assert isinstance(request, Emoji)
        return "🙂"


def make_mind(
    fake: FakeOpenAI,
    audit: AuditSink | None = None,
    fallback: Any = None,
    over_budget: Any = None,
    **overrides: Any,
) -> tuple[LLMMind, list[float]]:
    """A mind on the fake server, with tiny timeouts and recorded (not slept) backoff."""
    settings: dict[str, Any] = {"timeout_s": 5.0, "max_retries": 2, "backoff_base_s": 0.01}
    config = LLMConfig(base_url=fake.base_url, api_key="test-key", model=MODEL)
    config = replace(config, **(settings | overrides))
    sleeps: list[float] = []
    mind = LLMMind(
        config, audit=audit, fallback=fallback, over_budget=over_budget, sleep=sleeps.append
    )
    return mind, sleeps


class Allowance(ListAudit):
    """An audit sink that admits `calls` calls, then refuses as a spent budget does."""

    def __init__(self, calls: int) -> None:
        super().__init__()
        self.left = calls
        self.asked: list[str] = []

    def admit(self, operation: str) -> None:
        self.asked.append(operation)
        if self.left == 0:
            raise OverBudget("the world's budget of 2 calls per game day is spent")
        self.left -= 1


# --- happy paths ----------------------------------------------------------------------------


def test_rate_importance_sends_a_strict_schema_and_parses(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat(RATINGS)
    mind, _ = make_mind(fake_openai)
    assert mind.think(RateImportance(MEMORIES)) == [2, 9]
    body = fake_openai.requests()[0]
    assert body["model"] == MODEL
    assert body["temperature"] == 0
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert "1. brushed teeth\n2. got accepted to college" in body["messages"][1]["content"]
    schema = body["response_format"]["json_schema"]
    assert (schema["name"], schema["strict"]) == ("rate_importance", True)
    assert schema["schema"]["required"] == ["ratings"]


def test_plan_day_parses_items_on_the_day(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat(
        '{"items": [{"start": "07:00", "duration_min": 60, "description": "wake up",'
        ' "location": null}, {"start": "08:00", "duration_min": 480, "description": "work",'
        ' "location": "pharmacy"}]}'
    )
    mind, _ = make_mind(fake_openai)
    plan = mind.think(PlanDay(persona=JOHN, summary="", previous_day="", directives=[], now=NOW))
    assert plan == [
        PlanItem(datetime(2023, 2, 13, 7, 0), 60, "wake up"),
        PlanItem(datetime(2023, 2, 13, 8, 0), 480, "work", location="pharmacy"),
    ]


def test_react_and_next_utterance(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat(
        '{"react": true, "what": "ask Eddy about his music", "talk_to": "Eddy Lin", "reason": "x"}',
        '```json\n{"text": "Hey Eddy, how is the composition going?", "ends": false}\n```',
    )
    mind, _ = make_mind(fake_openai)
    reaction = mind.think(
        React(
            persona=JOHN,
            summary="",
            status="home",
            observation="Eddy walks by",
            context="",
            now=NOW,
        )
    )
    assert reaction == Reaction(True, "ask Eddy about his music", "Eddy Lin", "x")
    line = mind.think(
        NextUtterance(
            speaker=JOHN,
            listener="Eddy Lin",
            summary="",
            relationship="father",
            intent=reaction.what,
            memories=[],
            history=[],
            now=NOW,
        )
    )
    assert line == Utterance("Hey Eddy, how is the composition going?")


def test_the_mind_satisfies_the_protocol_and_does_no_io_when_built() -> None:
    config = LLMConfig(base_url="http://127.0.0.1:9/v1", api_key="", model=MODEL)
    mind = LLMMind(config)
    assert isinstance(mind, Mind)
    assert mind.model == MODEL
    assert mind.think(RateImportance([])) == []


# --- retries, timeouts, failures ------------------------------------------------------------


def test_429_is_retried_after_the_servers_retry_after(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat(rate_limited(retry_after_s=0.25), RATINGS)
    audit = ListAudit()
    mind, sleeps = make_mind(fake_openai, audit)
    assert mind.think(RateImportance(MEMORIES)) == [2, 9]
    assert fake_openai.calls() == 2
    assert sleeps == [0.25]
    assert [c.error is not None and "429" in c.error for c in audit.calls] == [True, False]


def test_500s_exhaust_the_retries_then_model_unavailable(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat(server_error(), server_error(502), server_error(503))
    audit = ListAudit()
    mind, sleeps = make_mind(fake_openai, audit, max_retries=2)
    with pytest.raises(ModelUnavailable, match="after 3 attempts"):
        mind.think(RateImportance(MEMORIES))
    assert fake_openai.calls() == 3
    assert len(sleeps) == 2 and sleeps[0] < sleeps[1]
    assert len(audit.calls) == 3 and all(c.error for c in audit.calls)
    assert all(c.tokens_in == 0 and c.cost_usd == 0 for c in audit.calls)


def test_a_slow_answer_times_out(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat(slow(2.0, RATINGS))
    audit = ListAudit()
    mind, _ = make_mind(fake_openai, audit, timeout_s=0.2, max_retries=0)
    started = time.monotonic()
    with pytest.raises(ModelUnavailable, match="Timeout"):
        mind.think(RateImportance(MEMORIES))
    assert time.monotonic() - started < 2.0
    assert audit.calls[0].error is not None and "Timeout" in audit.calls[0].error


def test_a_garbled_response_body_is_retried(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat(malformed_body(), RATINGS)
    mind, _ = make_mind(fake_openai)
    assert mind.think(RateImportance(MEMORIES)) == [2, 9]
    assert fake_openai.calls() == 2


def test_a_plain_400_is_a_permanent_model_error_not_retried(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat(bad_request("maximum context length exceeded"))
    mind, sleeps = make_mind(fake_openai)
    with pytest.raises(ModelError) as caught:
        mind.think(RateImportance(MEMORIES))
    assert not isinstance(caught.value, ModelUnavailable)
    assert fake_openai.calls() == 1 and sleeps == []


# --- invalid output and the single re-ask ---------------------------------------------------


def test_invalid_output_is_reasked_exactly_once(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat('{"ratings": [3]}', RATINGS)
    mind, _ = make_mind(fake_openai)
    assert mind.think(RateImportance(MEMORIES)) == [2, 9]
    assert fake_openai.calls() == 2
    messages = fake_openai.requests()[1]["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert messages[2]["content"] == '{"ratings": [3]}'
    assert "expected 2 ratings, got 1" in messages[3]["content"]


def test_invalid_output_twice_raises_invalid_output(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat("no idea", "still no idea", RATINGS)
    mind, _ = make_mind(fake_openai)
    with pytest.raises(InvalidOutput) as caught:
        mind.think(RateImportance(MEMORIES))
    assert caught.value.raw == "still no idea"
    assert fake_openai.calls() == 2


def test_a_refusal_is_not_reasked_nor_replaced_by_the_fallback(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat("I'm sorry, but I can't help with that.")
    fallback = FallbackMind()
    mind, _ = make_mind(fake_openai, fallback=fallback)
    with pytest.raises(Refused):
        mind.think(RateImportance(MEMORIES))
    assert fake_openai.calls() == 1 and fallback.calls == 0


def test_the_api_refusal_field_raises_refused(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat(refusal("I can't assist with that."))
    audit = ListAudit()
    mind, _ = make_mind(fake_openai, audit)
    with pytest.raises(Refused):
        mind.think(Emoji("something"))
    assert audit.calls[0].error == "refused: I can't assist with that."


# --- fallback -------------------------------------------------------------------------------


def test_fallback_answers_when_the_model_is_unavailable(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat(server_error(), server_error(), server_error())
    audit = ListAudit()
    mind, _ = make_mind(fake_openai, audit, fallback=FallbackMind())
    assert mind.think(RateImportance(MEMORIES)) == [5, 5]
    degraded = audit.calls[-1]
    assert degraded.degraded and degraded.model == "fake-offline"
    assert degraded.error is not None and degraded.error.startswith("ModelUnavailable")
    assert degraded.extra == {"primary_model": MODEL}
    assert [c.degraded for c in audit.calls] == [False, False, False, True]


def test_fallback_answers_after_invalid_output_twice(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat('{"emoji": "smile"}', '{"emoji": ""}')
    audit = ListAudit()
    mind, _ = make_mind(fake_openai, audit, fallback=FallbackMind())
    assert mind.think(Emoji("smiling")) == "🙂"
    assert audit.calls[-1].degraded
    assert audit.calls[-1].error is not None and "InvalidOutput" in audit.calls[-1].error


# --- the budget -----------------------------------------------------------------------------


def test_past_the_budget_no_request_is_sent_and_the_offline_mind_answers(
    fake_openai: FakeOpenAI,
) -> None:
    fake_openai.chat_responder = lambda body: RATINGS
    audit, offline = Allowance(calls=2), FallbackMind()
    mind, _ = make_mind(fake_openai, audit, over_budget=offline)
    answers = [mind.think(RateImportance(MEMORIES)) for _ in range(4)]
    assert answers == [[2, 9], [2, 9], [5, 5], [5, 5]]
    assert fake_openai.calls() == 2 and offline.calls == 2
    assert audit.asked == ["rate_importance"] * 4
    assert [(c.model, c.degraded) for c in audit.calls] == [(MODEL, False)] * 2 + [
        ("fake-offline", True)
    ] * 2
    assert audit.calls[-1].error == (
        "OverBudget: the world's budget of 2 calls per game day is spent"
    )


def test_a_reask_is_a_call_of_its_own(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat('{"ratings": [3]}', RATINGS)
    audit, offline = Allowance(calls=1), FallbackMind()
    mind, _ = make_mind(fake_openai, audit, over_budget=offline)
    assert mind.think(RateImportance(MEMORIES)) == [5, 5]  # the re-ask was not admitted
    assert fake_openai.calls() == 1 and len(audit.asked) == 2


def test_the_fallback_answers_past_the_budget_unless_another_mind_is_given(
    fake_openai: FakeOpenAI,
) -> None:
    fallback = FallbackMind()
    mind, _ = make_mind(fake_openai, Allowance(calls=0), fallback=fallback)
    assert mind.think(RateImportance(MEMORIES)) == [5, 5] and fallback.calls == 1
    bare, _ = make_mind(fake_openai, Allowance(calls=0))
    with pytest.raises(OverBudget):
        bare.think(RateImportance(MEMORIES))
    assert fake_openai.calls() == 0


# --- output modes ---------------------------------------------------------------------------


def test_json_schema_rejected_downgrades_and_is_remembered(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat(response_format_unsupported(), RATINGS, RATINGS)
    mind, _ = make_mind(fake_openai)
    assert mind.think(RateImportance(MEMORIES)) == [2, 9]
    first, second = (body["response_format"] for body in fake_openai.requests())
    assert first["type"] == "json_schema"
    assert second == {"type": "json_object"}
    another, _ = make_mind(fake_openai)  # same endpoint and model: the lesson is kept
    another.think(RateImportance(MEMORIES))
    assert fake_openai.requests()[2]["response_format"] == {"type": "json_object"}


def test_json_object_rejected_too_falls_back_to_plain_text(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat(
        response_format_unsupported(),
        bad_request("response_format json_object is not supported"),
        "Sure:\n```json\n" + RATINGS + "\n```",
    )
    mind, _ = make_mind(fake_openai)
    assert mind.think(RateImportance(MEMORIES)) == [2, 9]
    assert "response_format" not in fake_openai.requests()[2]


def test_an_explicit_mode_is_never_downgraded(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat(response_format_unsupported())
    mind, _ = make_mind(fake_openai, output_mode="json_schema")
    with pytest.raises(ModelError, match="rejected"):
        mind.think(RateImportance(MEMORIES))
    assert fake_openai.calls() == 1


def test_text_mode_sends_no_response_format(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat(RATINGS)
    mind, _ = make_mind(fake_openai, output_mode="text")
    mind.think(RateImportance(MEMORIES))
    assert "response_format" not in fake_openai.requests()[0]


# --- audit ----------------------------------------------------------------------------------


def test_usage_and_cost_are_recorded(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat(reply(RATINGS, usage=(1000, 500)))
    audit = ListAudit()
    mind, _ = make_mind(fake_openai, audit, prices={MODEL: (2.0, 8.0)})
    mind.think(RateImportance(MEMORIES))
    [call] = audit.calls
    assert (call.operation, call.model, call.tokens_in, call.tokens_out) == (
        "rate_importance",
        MODEL,
        1000,
        500,
    )
    assert call.cost_usd == pytest.approx(0.006)
    assert call.latency_ms > 0 and call.error is None and not call.degraded
    assert call.prompt is not None and "[system]" in call.prompt and "brushed teeth" in call.prompt
    assert call.response == RATINGS
    assert call.extra == {"output_mode": "json_schema"}


def test_missing_usage_is_estimated_from_characters(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat(reply(RATINGS, omit_usage=True))
    audit = ListAudit()
    mind, _ = make_mind(fake_openai, audit)
    mind.think(RateImportance(MEMORIES))
    [call] = audit.calls
    assert call.prompt is not None
    assert call.tokens_in == -(-len(call.prompt) // 4)
    assert call.tokens_out == -(-len(RATINGS) // 4)


def test_audit_text_false_keeps_prompts_and_answers_out(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat("garbage", RATINGS)
    audit = ListAudit()
    mind, _ = make_mind(fake_openai, audit, audit_text=False)
    mind.think(RateImportance(MEMORIES))
    assert len(audit.calls) == 2
    assert all(c.prompt is None and c.response is None for c in audit.calls)


def test_with_audit_copies_share_the_client_but_not_the_sink(fake_openai: FakeOpenAI) -> None:
    fake_openai.script_chat(RATINGS, RATINGS)
    first, second = ListAudit(), ListAudit()
    mind, _ = make_mind(fake_openai, first)
    copy = mind.with_audit(second)
    mind.think(RateImportance(MEMORIES))
    copy.think(RateImportance(MEMORIES))
    assert len(first.calls) == len(second.calls) == 1
    assert copy._channel is mind._channel


def test_concurrency_is_bounded_across_copies(fake_openai: FakeOpenAI) -> None:
    in_flight, peak = 0, 0
    lock = threading.Lock()

    def respond(body: dict[str, Any]) -> str:
        nonlocal in_flight, peak
        with lock:
            in_flight += 1
            peak = max(peak, in_flight)
        time.sleep(0.05)
        with lock:
            in_flight -= 1
        return json.dumps({"emoji": "🙂"})

    fake_openai.chat_responder = respond
    mind, _ = make_mind(fake_openai, max_concurrency=2)
    minds = [mind, mind.with_audit(ListAudit())]
    threads = [
        threading.Thread(target=minds[i % 2].think, args=(Emoji(f"action {i}"),)) for i in range(6)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert fake_openai.calls() == 6
    assert peak <= 2


@pytest.mark.parametrize("bad", [{"max_concurrency": 0}, {"max_retries": -1}, {"timeout_s": 0.0}])
def test_config_rejects_settings_that_would_hang(bad: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="LLMConfig"):
        LLMConfig(base_url=None, api_key="", model=MODEL, **bad)
