"""Typed errors of the agent architecture.

The edges translate them: the API maps them to HTTP statuses, the workers to Celery retries.

    HearthError
    ├── ModelError               something went wrong talking to a model
    │   ├── ModelUnavailable     retriable: timeouts, 429, 5xx, connection refused
    │   ├── InvalidOutput        permanent: the model answered, twice, with nothing we can use
    │   ├── Refused              permanent: the model declined to answer
    │   └── OverBudget           the world's model budget is spent until its window resets
    ├── EmbeddingSpaceMismatch   the database was embedded with another provider/model/dimension
    ├── NotFound                 an id that does not exist (or is not visible to the caller)
    │   └── AgentNotFound
    └── InvalidInput             a caller's value that cannot be used (with the field at fault)
"""

from __future__ import annotations


class HearthError(Exception):
    """Base of every error Hearth raises on purpose."""


class ModelError(HearthError):
    """A model (language or embedding) could not give a usable answer."""


class ModelUnavailable(ModelError):
    """Transient: the endpoint timed out, rate-limited or failed; retrying later may work."""


class InvalidOutput(ModelError):
    """Permanent: the model's output did not parse into the expected schema, even after a re-ask."""

    def __init__(self, message: str, *, raw: str = "") -> None:
        super().__init__(message)
        self.raw = raw


class Refused(ModelError):
    """Permanent: the model refused the request."""


class OverBudget(ModelError):
    """The world's model budget (`cognition.budget`) is spent for the window under way: no call
    is made, and the offline mind answers until the window resets."""


class EmbeddingSpaceMismatch(HearthError):
    """Stored vectors come from another embedder; mixing spaces would corrupt relevance."""


class NotFound(HearthError):
    """The thing asked for does not exist, or the caller may not see it."""


class AgentNotFound(NotFound):
    """No such agent in this world."""


class InvalidInput(HearthError):
    """A caller's value cannot be used; `field` names it for the error envelope."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field
