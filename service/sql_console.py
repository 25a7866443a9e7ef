"""`hearth sql`: run one query as the read-only `hearth_analyst` role; print a table, CSV or JSON.

The role can only SELECT the analyst views (migrations 0001 and 0008: no temporary tables, no
large objects, no table of its own), so nothing it runs writes. The console adds two limits of
its own on top: the query runs inside a READ ONLY transaction as exactly one statement (the
extended protocol refuses `COMMIT; BEGIN READ WRITE; …` strings), and with a
`statement_timeout` (HEARTH_ANALYST_STATEMENT_TIMEOUT_S, default 30 s), so one query cannot
hold the database.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from datetime import date, datetime
from decimal import Decimal
from typing import Any

import psycopg
import sqlalchemy as sa
from sqlalchemy.engine import make_url

ANALYST_ROLE = "hearth_analyst"
MAX_CELL = 60
FORMATS = ("table", "csv", "json")


def analyst_url(database_url: str, explicit: str | None = None) -> str:
    """The analyst's own login: explicit URL, else the database URL with the role as user."""
    if explicit:
        return explicit
    return (
        make_url(database_url)
        .set(username=ANALYST_ROLE, password=None)
        .render_as_string(hide_password=False)
    )


def run_query(
    url: str, query: str, *, timeout_s: float = 30.0
) -> tuple[list[str], list[Sequence[object]]]:
    """Columns and rows of one statement, run read-only with a statement timeout."""
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            raw = conn.connection.driver_connection
            assert raw is not None
            raw.rollback()  # whatever the dialect ran on connect: the query's transaction is new
            try:
                raw.execute("SET TRANSACTION READ ONLY")
                raw.execute(f"SET LOCAL statement_timeout = {max(1, round(timeout_s * 1000))}")
                cursor = raw.execute(query, prepare=True)  # extended protocol: one statement
                if cursor.description is None:
                    return [], []
                columns = [column.name for column in cursor.description]
                return columns, [tuple(row) for row in cursor.fetchall()]
            except psycopg.Error as exc:  # as SQLAlchemy would raise it, `.orig` the cause
                raise sa.exc.DBAPIError.instance(query, None, exc, psycopg.Error) from exc
            finally:
                raw.rollback()
    finally:
        engine.dispose()


def render(
    columns: list[str], rows: list[Sequence[object]], *, fmt: str = "table", full: bool = False
) -> str:
    """The result as `table` (cells cut at MAX_CELL unless `full`), `csv` or `json` (an array
    of objects); CSV and JSON are never cut."""
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(columns)
        writer.writerows([["" if v is None else _text(v) for v in row] for row in rows])
        return out.getvalue().rstrip("\n")
    if fmt == "json":
        items = [dict(zip(columns, (_json(v) for v in row), strict=True)) for row in rows]
        return json.dumps(items, ensure_ascii=False, indent=2)
    return format_table(columns, rows, full=full)


def format_table(columns: list[str], rows: list[Sequence[object]], *, full: bool = False) -> str:
    """A plain psql-like table; long cells are cut so a wide row stays readable (not if `full`)."""
    cells = [[_cell(v, full=full) for v in row] for row in rows]
    widths = [max([len(c), *(len(r[i]) for r in cells)]) for i, c in enumerate(columns)]
    line = "-+-".join("-" * w for w in widths)
    out = [" | ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)), line]
    out += [" | ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)) for r in cells]
    out.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(out)


def _text(value: object) -> str:
    if isinstance(value, datetime | date):
        return value.isoformat()
    return str(value)


def _json(value: object) -> Any:
    if value is None or isinstance(value, bool | int | float | str | list | dict):
        return value
    if isinstance(value, Decimal):
        return float(value)
    return _text(value)


def _cell(value: object, *, full: bool = False) -> str:
    text = "" if value is None else str(value).replace("\n", " ")
    return text if full or len(text) <= MAX_CELL else text[: MAX_CELL - 1] + "…"
