"""`hearth status`: one line per part of the stack, then what is stored."""

from __future__ import annotations

import sqlalchemy as sa
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from db.migrate import alembic_config
from service.stack import Stack
from workers.app import make_celery

COUNTED_TABLES = ("worlds", "agents", "memories", "plans", "utterances", "llm_calls")


def collect_status(stack: Stack) -> list[str]:
    lines = [f"data folder: {stack.settings.home}"]
    engine = sa.create_engine(stack.database_url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            current = MigrationContext.configure(conn).get_current_revision()
            head = ScriptDirectory.from_config(
                alembic_config(stack.database_url)
            ).get_current_head()
            state = (
                "at head" if current == head else f"behind (run `hearth db upgrade`; head {head})"
            )
            lines.append(f"database: up, schema {current} {state}")
            if current is not None:
                for table in COUNTED_TABLES:
                    count = conn.scalar(sa.text(f"SELECT count(*) FROM {table}"))
                    lines.append(f"  {table}: {count}")
    except sa.exc.OperationalError as exc:
        lines.append(f"database: unreachable ({type(exc).__name__})")
    finally:
        engine.dispose()
    replies = make_celery(redis_url=stack.redis_url).control.ping(timeout=1.0)
    names = sorted(name for reply in replies for name in reply)
    lines.append(f"redis: up; workers answering: {', '.join(names) if names else 'none'}")
    return lines
