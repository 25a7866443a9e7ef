"""Declarative base and the column types every model shares.

Game time is `TIMESTAMP WITHOUT TIME ZONE`: a world's calendar is its own, not a wall-clock
instant. Wall time (when a row was written) is `TIMESTAMPTZ`.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any, ClassVar

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, mapped_column

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = sa.MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSONB, list[Any]: JSONB}


GameTime = Annotated[datetime, mapped_column(sa.DateTime(timezone=False))]
WallTime = Annotated[
    datetime, mapped_column(sa.DateTime(timezone=True), server_default=sa.func.now())
]
UUIDPk = Annotated[uuid.UUID, mapped_column(primary_key=True, default=uuid.uuid4)]
BigPk = Annotated[int, mapped_column(sa.BigInteger, sa.Identity(), primary_key=True)]


def world_fk() -> Any:
    return mapped_column(sa.ForeignKey("worlds.id", ondelete="CASCADE"), index=True)


def agent_fk(*, nullable: bool = False, index: bool = True) -> Any:
    ondelete = "SET NULL" if nullable else "CASCADE"
    return mapped_column(
        sa.ForeignKey("agents.id", ondelete=ondelete), nullable=nullable, index=index
    )
