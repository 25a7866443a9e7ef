"""Every error, including FastAPI's own validation errors, answers the one envelope."""

from __future__ import annotations

import http.client
import io
import json
import logging
import re
import threading
import time
from collections.abc import Iterator

import httpx
import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field

from cognition.errors import AgentNotFound, InvalidInput
from db.logs import ContextFilter, JsonFormatter
from db.settings import Settings
from service.app import create_app
from service.errors import ApiError


class Body(BaseModel):
    name: str = Field(max_length=5)
    count: int


@pytest.fixture
def app(settings: Settings) -> FastAPI:
    app = create_app(settings)

    @app.post("/probe")
    def probe(body: Body) -> dict[str, str]:
        if body.name == "ghost":
            raise AgentNotFound("no agent named ghost in this world")
        if body.name == "bad":
            raise InvalidInput("count must be even", field="body.count")
        if body.name == "api":
            raise ApiError(409, "conflict", "already there", field="body.name")
        if body.name == "boom":
            raise RuntimeError("a bug")
        return {"ok": body.name}

    return app


def _error(response: httpx.Response) -> dict[str, object]:
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "details", "request_id"}
    assert body["error"]["request_id"] == response.headers["x-request-id"]
    return body["error"]  # type: ignore[no-any-return]


def test_validation_error_names_the_field(app: FastAPI) -> None:
    response = TestClient(app).post("/probe", json={"name": "toolongname"})
    assert response.status_code == 422
    error = _error(response)
    assert error["code"] == "validation_error"
    fields = {d["field"] for d in error["details"]}  # type: ignore[attr-defined]
    assert fields == {"body.name", "body.count"}
    assert str(error["message"]).startswith("body.")


def test_malformed_json_is_a_422_not_a_500(app: FastAPI) -> None:
    response = TestClient(app).post(
        "/probe", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
    assert _error(response)["code"] == "validation_error"


@pytest.mark.parametrize(
    ("name", "status", "code"),
    [("ghost", 404, "not_found"), ("bad", 422, "validation_error"), ("api", 409, "conflict")],
)
def test_domain_errors_map_to_statuses(app: FastAPI, name: str, status: int, code: str) -> None:
    response = TestClient(app).post("/probe", json={"name": name, "count": 1})
    assert response.status_code == status
    assert _error(response)["code"] == code


@pytest.fixture
def json_log() -> Iterator[io.StringIO]:
    """The access and error loggers written as `HEARTH_LOG_FORMAT=json` writes them."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(ContextFilter())
    loggers = [logging.getLogger(name) for name in ("hearth.access", "service.errors")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
    yield out
    for logger, level in zip(loggers, levels, strict=True):
        logger.removeHandler(handler)
        logger.setLevel(level)


def test_a_bug_is_an_opaque_500_logged_with_the_request_id(
    app: FastAPI, json_log: io.StringIO
) -> None:
    response = TestClient(app, raise_server_exceptions=False).post(
        "/probe", json={"name": "boom", "count": 1}
    )
    assert response.status_code == 500
    error = _error(response)
    assert error["code"] == "internal_error" and "a bug" not in str(error["message"])
    lines = [json.loads(line) for line in json_log.getvalue().splitlines()]
    [failure] = [line for line in lines if line["logger"] == "service.errors"]
    assert failure["level"] == "error" and "RuntimeError: a bug" in failure["exception"]
    assert failure["request_id"] == error["request_id"]
    [access] = [line for line in lines if line["logger"] == "hearth.access"]
    assert access["request_id"] == error["request_id"]
    assert (access["route"], access["status"], access["method"]) == ("/probe", 500, "POST")


def test_the_callers_request_id_is_kept_and_a_bad_one_replaced(app: FastAPI) -> None:
    client = TestClient(app)
    kept = client.post("/probe", json={}, headers={"X-Request-ID": "game-7f3a:step.12"})
    assert kept.headers["x-request-id"] == "game-7f3a:step.12"
    assert _error(kept)["request_id"] == "game-7f3a:step.12"
    for bad in ("two words", "x" * 65, "<script>"):
        replaced = client.post("/probe", json={}, headers={"X-Request-ID": bad})
        assert re.fullmatch(r"[0-9a-f]{32}", replaced.headers["x-request-id"])
    ok = client.post("/probe", json={"name": "fine", "count": 1})
    assert ok.status_code == 200 and re.fullmatch(r"[0-9a-f]{32}", ok.headers["x-request-id"])
    assert ok.headers["x-request-id"] != replaced.headers["x-request-id"]


def test_unknown_route_and_method(app: FastAPI) -> None:
    client = TestClient(app)
    assert _error(client.get("/nowhere"))["code"] == "not_found"
    assert _error(client.get("/probe"))["code"] == "method_not_allowed"


def test_a_5xx_closes_the_connection_and_a_4xx_keeps_it(app: FastAPI) -> None:
    client = TestClient(app, raise_server_exceptions=False)
    failed = client.post("/probe", json={"name": "boom", "count": 1})
    assert failed.status_code == 500 and failed.headers["connection"] == "close"
    refused = client.post("/probe", json={"name": "api", "count": 1})
    assert refused.status_code == 409 and "connection" not in refused.headers


def test_a_keep_alive_client_is_not_sent_into_a_dead_connection(app: FastAPI) -> None:
    """Under uvicorn, a 500 ends its connection; the client's next request opens a new one."""
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_config=None, lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        while not server.started:
            time.sleep(0.05)
        port = server.servers[0].sockets[0].getsockname()[1]
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        body, headers = (
            json.dumps({"name": "boom", "count": 1}),
            {"content-type": "application/json"},
        )
        connection.request("POST", "/probe", body=body, headers=headers)
        answer = connection.getresponse()
        answer.read()
        assert answer.status == 500 and answer.getheader("connection") == "close"
        assert answer.will_close  # http.client drops the socket and reconnects for the next
        connection.request(
            "POST", "/probe", body=json.dumps({"name": "fine", "count": 1}), headers=headers
        )
        assert connection.getresponse().status == 200
    finally:
        server.should_exit = True
        thread.join(timeout=10)
