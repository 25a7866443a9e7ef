"""Jobs a request staged in its own transaction, waiting to be sent to the broker."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Mapped, mapped_column

from db.models.base import Base, BigPk, WallTime


class OutboxJob(Base):
    """A job committed with the rows that asked for it, so a broker that is down delays the job
    instead of losing it (`db.outbox`); deleted once the broker has it."""

    __tablename__ = "job_outbox"

    id: Mapped[BigPk]
    name: Mapped[str] = mapped_column(sa.String(64), doc="the task's name (`db.jobs`)")
    args: Mapped[list[Any]] = mapped_column(doc="the task's JSON arguments")
    key: Mapped[str | None] = mapped_column(sa.String(300), doc="the job's key, if it has one")
    created_at: Mapped[WallTime]
