"""Every error, including FastAPI's own validation errors, answers the one envelope."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field

from cognition.errors import AgentNotFound, InvalidInput
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


def _error(response: object) -> dict[str, object]:
    body = response.json()  # type: ignore[attr-defined]
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "details"}
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


def test_a_bug_is_an_opaque_500(app: FastAPI) -> None:
    response = TestClient(app, raise_server_exceptions=False).post(
        "/probe", json={"name": "boom", "count": 1}
    )
    assert response.status_code == 500
    error = _error(response)
    assert error["code"] == "internal_error" and "a bug" not in str(error["message"])


def test_unknown_route_and_method(app: FastAPI) -> None:
    client = TestClient(app)
    assert _error(client.get("/nowhere"))["code"] == "not_found"
    assert _error(client.get("/probe"))["code"] == "method_not_allowed"
