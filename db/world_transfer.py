"""A world as a stream of records, and back: backups and moves between servers.

`export_records` reads every row that belongs to a world — its map, agents and what they know
of the map, memories with their embeddings and evidence, plans, reaction decisions, dialogue,
relationships, reflection runs and model-call audit — in one REPEATABLE READ snapshot, table
by table in an order where every row comes after the rows it refers to. `WorldImport` writes
such a stream into a new world: every id is new (uuids drawn, bigint ids from the sequences)
and every reference is translated through the ids given so far, so a world can be imported
next to itself. Rows come back equal in content; retrieval over them answers the same. Every
value is typed and bounded by its column before it is written (`db.transfer_values`); a bad row
raises `BadRow` with its place in the batch, so the edge blames its own line.

Not carried: API keys (the import issues one), idempotency keys, the event log (its payloads
name the old ids; the new world starts a fresh log) and generated columns (`embedding_norm`,
`changed_xid`, recomputed by PostgreSQL).
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Iterator
from datetime import date, datetime
from decimal import Decimal
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from db.models import Base
from db.transfer_values import BadValue, typed

FORMAT = "hearth-world"
VERSION = 1
TABLES = (
    "places",
    "agents",
    "agent_places",
    "memories",
    "memory_evidence",
    "plans",
    "reaction_decisions",
    "conversations",
    "utterances",
    "relationships",
    "reflection_runs",
    "llm_calls",
)
"""Exported after the `worlds` row, each after every table it refers to."""
SKIPPED_COLUMNS = frozenset({"changed_xid"})
DEFERRED = {("plans", "superseded_by"), ("agents", "current_plan_id")}
"""References that may point forward (a plan superseded by a later one; an agent's current
plan): written once everything is in."""
PARENT = {"places": "parent_id", "plans": "parent_id"}
ORDER = {
    "places": ("depth", "id"),
    "agents": ("name",),
    "agent_places": ("agent_id", "place_id"),
    "memory_evidence": ("reflection_id", "evidence_id"),
}
"""Row order in the file: ids where they are sequences (an import keeps their order), names
for agents (their ids are random), parents before children."""
"""A tree's parent must exist first (a CHECK ties a plan's level to having one)."""


def table(name: str) -> sa.Table:
    return Base.metadata.tables[name]


def columns(name: str) -> list[sa.Column[Any]]:
    return [c for c in table(name).columns if c.computed is None and c.name not in SKIPPED_COLUMNS]


def _owned(name: str, world_id: uuid.UUID) -> sa.Select[Any]:
    """The rows of `name` that belong to the world, in id order (parents before children)."""
    t = table(name)
    agents = sa.select(table("agents").c.id).where(table("agents").c.world_id == world_id)
    if "world_id" in t.c:
        where = t.c.world_id == world_id
    elif name == "memory_evidence":
        memories = table("memories")
        where = t.c.reflection_id.in_(
            sa.select(memories.c.id).where(memories.c.world_id == world_id)
        )
    elif name == "utterances":
        talks = table("conversations")
        where = t.c.conversation_id.in_(sa.select(talks.c.id).where(talks.c.world_id == world_id))
    else:
        where = t.c.agent_id.in_(agents)
    order = [t.c[c] for c in ORDER.get(name, ("id",))] or list(t.primary_key.columns)
    return sa.select(*columns(name)).where(where).order_by(*order)


def export_records(session: Session, world_id: uuid.UUID) -> Iterator[dict[str, Any]]:
    """The header (with the world's row), then `{"table", "row"}` records, then the end."""
    session.execute(sa.text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY"))
    world = session.execute(sa.select(*columns("worlds")).where(table("worlds").c.id == world_id))
    space = session.execute(sa.text("SELECT provider, model, dimension FROM embedding_spaces"))
    yield {
        "format": FORMAT,
        "version": VERSION,
        "world": encode(world.mappings().one()),
        "embedding_space": [dict(r) for r in space.mappings()],
    }
    count = 0
    for name in TABLES:
        for row in session.execute(_owned(name, world_id).execution_options(yield_per=1000)):
            count += 1
            yield {"table": name, "row": encode(row._mapping)}
    yield {"end": True, "rows": count}


def encode(row: Any) -> dict[str, Any]:
    return {key: _plain(value) for key, value in dict(row).items()}


def _plain(value: Any) -> Any:
    if isinstance(value, uuid.UUID | Decimal):
        return str(value)
    if isinstance(value, datetime | date):
        return value.isoformat()
    if hasattr(value, "tolist"):  # a pgvector embedding (numpy)
        return [float(x) for x in value.tolist()]
    return value


def decode(name: str, row: dict[str, Any]) -> dict[str, Any]:
    """A record's row with its values as the columns take them (`db.transfer_values`: typed
    and bounded, or BadValue naming the column); unknown columns are dropped."""
    if not isinstance(row, dict):
        raise ValueError(f"a {name} row is a JSON object")
    return {c.name: typed(c, row[c.name]) for c in columns(name) if c.name in row}


class BadRow(ValueError):
    """A row of a batch given to `WorldImport.add` that cannot be imported: `index` in it."""

    def __init__(self, index: int, cause: ValueError) -> None:
        super().__init__(str(cause))
        self.index, self.cause = index, cause


class WorldImport:
    """Feed records in their exported order, then `finish`: the new world's id."""

    def __init__(
        self, session: Session, *, name: str | None = None, dimension: int | None = None
    ) -> None:
        self.session = session
        self.name = name
        self.dimension = dimension
        """The length every embedding must have (the embedding space's), when known."""
        self.ids: dict[str, dict[Any, Any]] = defaultdict(dict)
        self.deferred: list[tuple[str, Any, str, Any]] = []
        self.world_id: uuid.UUID | None = None
        self.rows = 0

    def start(self, world: dict[str, Any]) -> uuid.UUID:
        row = decode("worlds", world)
        if row.get("id") is None:
            raise ValueError("the world has no id")
        self.world_id = uuid.uuid4()
        self.ids["worlds"][row["id"]] = self.world_id
        row.update(id=self.world_id, **({"name": self.name} if self.name else {}))
        self.session.execute(sa.insert(table("worlds")).values(row))
        return self.world_id

    def add(self, name: str, rows: list[dict[str, Any]]) -> None:
        """Rows of one table, in their exported order."""
        if name not in TABLES:
            raise ValueError(f"unknown table {name!r}")
        chunk: list[dict[str, Any]] = []
        for index, given in enumerate(rows):
            try:
                row = decode(name, given)
                self._check_embedding(name, row)
            except ValueError as exc:
                raise BadRow(index, exc) from None
            parent = row.get(PARENT.get(name, ""))
            if parent is not None and parent not in self.ids[name]:
                if all(r.get("id") != parent for r in chunk):
                    raise ValueError(f"{name}: a row comes before its parent, or has none")
                self._insert(name, chunk)  # the parent gets its new id first; order is kept
                chunk = []
            chunk.append(row)
        if chunk:
            self._insert(name, chunk)
        self.rows += len(rows)

    def _check_embedding(self, name: str, row: dict[str, Any]) -> None:
        embedding = row.get("embedding") if name == "memories" else None
        if embedding is not None and self.dimension and len(embedding) != self.dimension:
            raise BadValue(
                table(name).c.embedding, f"{len(embedding)} numbers, not {self.dimension}"
            )

    def finish(self) -> uuid.UUID:
        for name, new_id, column, old in self.deferred:
            target = self.ids[_target(name, column)].get(old)
            self.session.execute(
                sa.update(table(name)).where(table(name).c.id == new_id).values({column: target})
            )
        assert self.world_id is not None
        return self.world_id

    def _insert(self, name: str, rows: list[dict[str, Any]]) -> None:
        t = table(name)
        keys = [c.name for c in t.primary_key.columns]
        old_ids = [r.get("id") for r in rows]
        values = [self._translated(name, row) for row in rows]
        later = [value.pop("_deferred", {}) for value in values]
        if keys == ["id"] and isinstance(t.c.id.type, sa.Uuid):
            for value, old in zip(values, old_ids, strict=True):
                value["id"] = self.ids[name][old] = uuid.uuid4()
            self.session.execute(sa.insert(t), values)
        elif keys == ["id"]:
            for value in values:
                value.pop("id", None)
            returned = self.session.execute(
                sa.insert(t).returning(t.c.id, sort_by_parameter_order=True), values
            )
            for old, (new,) in zip(old_ids, returned, strict=True):
                self.ids[name][old] = new
        else:
            self.session.execute(sa.insert(t), values)
        for columns_later, old in zip(later, old_ids, strict=True):
            for column, target in columns_later.items():
                self.deferred.append((name, self.ids[name][old], column, target))

    def _translated(self, name: str, row: dict[str, Any]) -> dict[str, Any]:
        out = dict(row)
        later: dict[str, Any] = {}
        for column in table(name).columns:
            if column.name not in out or out[column.name] is None:
                continue
            if (name, column.name) in DEFERRED:
                later[column.name] = out[column.name]
                out[column.name] = None
                continue
            target = _target(name, column.name) if column.foreign_keys else None
            if target is not None:
                if out[column.name] not in self.ids[target]:
                    raise ValueError(f"{name}.{column.name} refers to a row not in the file")
                out[column.name] = self.ids[target][out[column.name]]
        if later:
            out["_deferred"] = later
        return out


def _target(name: str, column: str) -> str:
    if (name, column) == ("agents", "current_plan_id"):
        return "plans"
    [key] = table(name).c[column].foreign_keys
    return key.column.table.name
