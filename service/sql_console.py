"""`hearth sql`: run a query as the read-only `hearth_analyst` role and print a table."""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.engine import make_url

ANALYST_ROLE = "hearth_analyst"
MAX_CELL = 60


def analyst_url(database_url: str, explicit: str | None = None) -> str:
    """The analyst's own login: explicit URL, else the database URL with the role as user."""
    if explicit:
        return explicit
    return (
        make_url(database_url)
        .set(username=ANALYST_ROLE, password=None)
        .render_as_string(hide_password=False)
    )


def run_query(url: str, query: str) -> tuple[list[str], list[Sequence[object]]]:
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            result = conn.execute(sa.text(query))
            if not result.returns_rows:
                return [], []
            return list(result.keys()), [tuple(row) for row in result]
    finally:
        engine.dispose()


def format_table(columns: list[str], rows: list[Sequence[object]]) -> str:
    """A plain psql-like table; long cells are cut so a wide row stays readable."""
    cells = [[_cell(v) for v in row] for row in rows]
    widths = [max([len(c), *(len(r[i]) for r in cells)]) for i, c in enumerate(columns)]
    line = "-+-".join("-" * w for w in widths)
    out = [" | ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)), line]
    out += [" | ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)) for r in cells]
    out.append(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")
    return "\n".join(out)


def _cell(value: object) -> str:
    text = "" if value is None else str(value).replace("\n", " ")
    return text if len(text) <= MAX_CELL else text[: MAX_CELL - 1] + "…"
