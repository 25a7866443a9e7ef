"""Typed errors mirroring the API's envelope `{"error": {"code", "message", "details", …}}`.

HearthError               anything the server refused, or no answer at all
├── BadRequest            400
├── Unauthorized          401  missing, unknown or revoked key
├── Forbidden             403  a world key on an admin route
├── NotFound              404  (also: another world's ids, by design)
├── Conflict              409  a taken name, an Idempotency-Key reused for another request
├── PayloadTooLarge       413
├── ValidationError       422  `details` names each field at fault
├── RateLimited           429  (retried before it reaches you)
├── Unavailable           503  (retried before it reaches you)
├── ServerError           other 5xx
└── ConnectionFailed      no HTTP answer (refused, reset, timed out)
"""

from __future__ import annotations

from typing import Any

import httpx


class HearthError(Exception):
    """`status` is the HTTP status (0 when there was no answer); `details` lists field errors;
    `request_id` finds the server's log lines of the request."""

    def __init__(
        self,
        message: str,
        *,
        status: int = 0,
        code: str = "error",
        details: list[dict[str, Any]] | None = None,
        request_id: str | None = None,
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.details: list[dict[str, Any]] = details or []
        self.request_id = request_id

    @property
    def fields(self) -> list[str]:
        """The fields the server blamed, e.g. `["body.known_places.1"]`."""
        return [str(d["field"]) for d in self.details if d.get("field")]

    def __str__(self) -> str:
        return f"{self.status} {self.code}: {self.message}" if self.status else self.message


class BadRequest(HearthError): ...


class Unauthorized(HearthError): ...


class Forbidden(HearthError): ...


class NotFound(HearthError): ...


class Conflict(HearthError): ...


class PayloadTooLarge(HearthError): ...


class ValidationError(HearthError): ...


class RateLimited(HearthError): ...


class Unavailable(HearthError): ...


class ServerError(HearthError): ...


class ConnectionFailed(HearthError): ...


BY_STATUS: dict[int, type[HearthError]] = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    413: PayloadTooLarge,
    422: ValidationError,
    429: RateLimited,
    503: Unavailable,
}


def error_for(response: httpx.Response) -> HearthError:
    """The typed error for a non-2xx answer (read the body first when streaming)."""
    code, message, details = _envelope(response)
    kind = BY_STATUS.get(response.status_code)
    if kind is None:
        kind = ServerError if response.status_code >= 500 else HearthError
    request_id = response.headers.get("x-request-id")
    return kind(
        message, status=response.status_code, code=code, details=details, request_id=request_id
    )


def _envelope(response: httpx.Response) -> tuple[str, str, list[dict[str, Any]]]:
    try:
        error = response.json()["error"]
        return str(error["code"]), str(error["message"]), list(error.get("details") or [])
    except (ValueError, KeyError, TypeError):
        text = response.text[:500] or response.reason_phrase
        return "http_error", text, []
