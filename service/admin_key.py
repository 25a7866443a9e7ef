"""The admin key: HEARTH_ADMIN_KEY if set, else generated once and kept in HEARTH_HOME."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.orm import Session

from db.queries.api_keys import generate_key, store_key
from db.settings import Settings

KEY_FILE = "admin.key"


@dataclass(frozen=True)
class AdminKey:
    key: str
    generated_now: bool
    path: Path | None


def ensure_admin_key(session: Session, settings: Settings) -> AdminKey:
    """Make sure the admin key's hash is stored; generate and save the key on first run."""
    if settings.admin_key:
        store_key(session, settings.admin_key, name="HEARTH_ADMIN_KEY")
        return AdminKey(key=settings.admin_key, generated_now=False, path=None)
    path = settings.home / KEY_FILE
    generated = not path.exists()
    if generated:
        path.parent.mkdir(parents=True, exist_ok=True)
        key = generate_key("admin")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(key + "\n")
    key = path.read_text().strip()
    store_key(session, key, name="generated admin key")
    return AdminKey(key=key, generated_now=generated, path=path)
