"""One error envelope for every failure: `{"error": {"code", "message", "details"}}`.

Domain errors from cognition/ and validation errors from FastAPI are translated here and only
here; a bug becomes a 500 with an opaque message and a log line, never a traceback on the wire.
Every envelope carries the request's id (`request_id`, also the `X-Request-ID` header), the
same id the server's log lines of that request carry. A dependency that cannot answer — the
database down or restarting, the model failing — is a 503 `unavailable` (or
`model_unavailable`) with `Retry-After`, never a 500: the request was fine, and so will its
retry be.
"""

from __future__ import annotations

import logging
from typing import Any

import sqlalchemy as sa
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from cognition.errors import InvalidInput, ModelUnavailable, NotFound
from db import logs

log = logging.getLogger(__name__)


class ErrorBody(BaseModel):
    code: str
    message: str
    details: list[dict[str, Any]] = []
    request_id: str | None = Field(
        None, description="the request's id (`X-Request-ID`), as the server's log lines give it"
    )


class ErrorEnvelope(BaseModel):
    """The shape of every non-2xx answer."""

    error: ErrorBody


class ApiError(Exception):
    """Raised by routes for the caller's mistakes; carries the status and the field at fault."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        field: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.field = status, code, message, field
        self.headers = headers


STATUS_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "validation_error",
    429: "rate_limited",
    503: "unavailable",
}


def envelope(
    status: int,
    code: str,
    message: str,
    details: list[dict[str, Any]] | None = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    body = {
        "error": {
            "code": code,
            "message": message,
            "details": details or [],
            "request_id": logs.request_id.get(),
        }
    }
    return JSONResponse(status_code=status, content=body, headers=headers)


def _field_path(loc: tuple[Any, ...] | list[Any]) -> str:
    return ".".join(str(part) for part in loc)


async def _validation(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    details = [
        {"field": _field_path(err["loc"]), "message": err["msg"], "type": err["type"]}
        for err in exc.errors()
    ]
    first = details[0] if details else {"field": "", "message": "invalid request"}
    return envelope(422, "validation_error", f"{first['field']}: {first['message']}", details)


async def _http(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 400:  # FastAPI's "There was an error parsing the body": not JSON
        detail = [{"field": "body", "message": str(exc.detail), "type": "json_invalid"}]
        return envelope(422, "validation_error", f"body: {exc.detail}", detail)
    code = STATUS_CODES.get(exc.status_code, "error")  # a 405 keeps its `Allow` header
    return envelope(exc.status_code, code, str(exc.detail), headers=dict(exc.headers or {}))


async def _api(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    details = [{"field": exc.field, "message": exc.message}] if exc.field else []
    return envelope(exc.status, exc.code, exc.message, details, headers=exc.headers)


async def _not_found(_: Request, exc: Exception) -> JSONResponse:
    return envelope(404, "not_found", str(exc) or "not found")


async def _invalid_input(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, InvalidInput)
    details = [{"field": exc.field, "message": str(exc)}] if exc.field else []
    return envelope(422, "validation_error", str(exc), details)


RETRY_AFTER_S = 5
"""What a 503's `Retry-After` asks a client to wait: a database restart takes a few seconds."""
DATABASE_ERRORS: tuple[type[Exception], ...] = (
    sa.exc.OperationalError,  # connection refused or lost, the server shutting down
    sa.exc.InterfaceError,  # a connection already closed
    sa.exc.TimeoutError,  # no pooled connection freed in time
)


def unavailable(code: str, message: str) -> JSONResponse:
    return envelope(503, code, message, headers={"Retry-After": str(RETRY_AFTER_S)})


async def _model_unavailable(_: Request, exc: Exception) -> JSONResponse:
    return unavailable("model_unavailable", f"the model is unavailable: {exc}; retry later")


async def _database_unavailable(request: Request, exc: Exception) -> JSONResponse:
    cause = str(getattr(exc, "orig", None) or exc).strip().split("\n")[0]
    log.warning("the database did not answer %s %s: %s", request.method, request.url.path, cause)
    return unavailable("unavailable", "the database is unavailable; retry later")


async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
    return unexpected_error(request.method, request.url.path, exc)


def unexpected_error(method: str, path: str, exc: BaseException) -> JSONResponse:
    """A bug: logged with its traceback (and the request id), answered opaquely."""
    log.error("unhandled error on %s %s", method, path, exc_info=exc)
    return envelope(
        500,
        "internal_error",
        "internal error; the server log has the details (find it by the request_id)",
    )


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, _validation)
    app.add_exception_handler(StarletteHTTPException, _http)
    app.add_exception_handler(ApiError, _api)
    app.add_exception_handler(NotFound, _not_found)
    app.add_exception_handler(InvalidInput, _invalid_input)
    app.add_exception_handler(ModelUnavailable, _model_unavailable)
    for error in DATABASE_ERRORS:
        app.add_exception_handler(error, _database_unavailable)
    app.add_exception_handler(Exception, _unexpected)


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorEnvelope, "description": code.replace("_", " ")}
    for status, code in STATUS_CODES.items()
    if status in (401, 404, 413, 422)
}
"""The routers' default; `service.contract` then documents each operation's errors exactly."""


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """`responses=` for errors a route raises itself (a name conflict, the model's 503)."""
    return {s: {"model": ErrorEnvelope, "description": STATUS_CODES[s]} for s in statuses}
