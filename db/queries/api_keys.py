"""API keys: generated with enough entropy that a fast hash is safe, stored only as sha256."""

from __future__ import annotations

import hashlib
import secrets
import uuid

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from db.models import ApiKey, World

KEY_BYTES = 32
PREFIX_CHARS = 12


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def generate_key(kind: str) -> str:
    """A new key such as `hk_admin_…` or `hk_world_…`; the kind is readable, the rest random."""
    return f"hk_{kind}_{secrets.token_urlsafe(KEY_BYTES)}"


def store_key(
    session: Session, key: str, *, world_id: uuid.UUID | None = None, name: str = ""
) -> ApiKey:
    """Record a key's hash (idempotent: storing the same key twice keeps one row)."""
    scope = "admin" if world_id is None else "world"
    stmt = (
        insert(ApiKey)
        .values(
            id=uuid.uuid4(),
            world_id=world_id,
            scope=scope,
            prefix=key[:PREFIX_CHARS],
            key_hash=hash_key(key),
            name=name,
        )
        .on_conflict_do_nothing(index_elements=[ApiKey.key_hash])
    )
    session.execute(stmt)
    row = session.scalar(sa.select(ApiKey).where(ApiKey.key_hash == hash_key(key)))
    assert row is not None
    return row


def find_active_key(session: Session, key: str) -> ApiKey | None:
    return session.scalar(
        sa.select(ApiKey).where(ApiKey.key_hash == hash_key(key), ApiKey.revoked_at.is_(None))
    )


def still_reaches(session: Session, key_id: uuid.UUID, world_id: uuid.UUID) -> bool:
    """Whether the key is still unrevoked and its world (or, for an admin key, the world it
    reads) still exists: what an open event stream re-checks."""
    reaches = (
        sa.select(ApiKey.id)
        .join(World, World.id == world_id)
        .where(ApiKey.id == key_id, ApiKey.revoked_at.is_(None))
        .where(sa.or_(ApiKey.world_id.is_(None), ApiKey.world_id == world_id))
    )
    return session.scalar(reaches) is not None
