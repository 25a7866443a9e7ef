"""Run Alembic from code, so `hearth db upgrade|check` works from any folder after install."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

import migrations


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(Path(migrations.__file__).parent))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)


def set_analyst_password(url: str, password: str) -> None:
    """Give the analyst role a password so it can log in over TCP (compose, production)."""
    import sqlalchemy as sa

    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    with engine.begin() as conn:
        quoted = conn.scalar(sa.text("SELECT quote_literal(:p)"), {"p": password})
        conn.execute(sa.text(f"ALTER ROLE hearth_analyst PASSWORD {quoted}"))
    engine.dispose()


def set_analyst_timeout(url: str, seconds: float) -> None:
    """The analyst's `statement_timeout` (its sessions' default; `hearth sql` sets it too)."""
    import sqlalchemy as sa

    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    with engine.begin() as conn:
        milliseconds = max(1, round(seconds * 1000))
        conn.execute(sa.text(f"ALTER ROLE hearth_analyst SET statement_timeout = {milliseconds}"))
    engine.dispose()


def downgrade(url: str, revision: str) -> None:
    command.downgrade(alembic_config(url), revision)


def check(url: str) -> None:
    """Raise if the models and the migrated schema differ (alembic's `check`)."""
    command.check(alembic_config(url))
